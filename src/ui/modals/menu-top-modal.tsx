import { Link } from 'react-router';
import { MESSAGES } from '../messages';
import { STOREFRONT, STOREFRONT_MODALS } from '../storefront.messages';
import { KUJI } from '../kuji/kuji.messages';
import { GUIDE_MENU } from './document-modal';
import { DOCUMENT_MESSAGES } from './documents.messages';
import type { ModalComponentProps } from './registry';
import { HISTORY_MESSAGES, PURCHASE_MODAL } from '../purchase/purchase.messages';
import { DELIVERY } from '../delivery/delivery.messages';
import { TOKENS } from '../../application';
import { hasUnreadPrize } from '../../domain';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { ACCOUNT } from '../account/account.messages';
import { useAccountFlags } from '../account/use-account-flags';
import { SignInLinks } from '../account/sign-in-links';
import type { OpenModal } from './registry';
import { useCurrentUser } from '../account/use-current-user';

/** The menu (spec §2.5 menu top): the other modals a player reaches from the header. */
// The prize and delivery modals open further ones (the request, an address): they take the menu's place.
export default function MenuTopModal({ open, swap }: ModalComponentProps<Record<never, never>>) {
  const user = useCurrentUser();
  const unread = user !== null && hasUnreadPrize(user.unread);
  const flags = useAccountFlags();
  return (
    <nav className="modal__body" aria-label={MESSAGES.menu}>
      <h2 className="dialog__title">{MESSAGES.menu}</h2>
      <ul className="menu-list">
        <li>
          <button type="button" className="menu-list__item" onClick={() => open('search')}>
            {MESSAGES.searchTitle}
          </button>
        </li>
        <li>
          <button type="button" className="menu-list__item" onClick={() => open('titleSearch')}>
            {STOREFRONT_MODALS.titleSearch}
          </button>
        </li>
        <li>
          <button type="button" className="menu-list__item" onClick={() => open('news')}>
            {STOREFRONT_MODALS.newsTitle}
          </button>
        </li>
        <li>
          <button
            type="button"
            className="menu-list__item"
            data-testid="menu-purchase"
            onClick={() => open('purchase')}
          >
            {PURCHASE_MODAL.title}
          </button>
        </li>
        <li>
          <button
            type="button"
            className="menu-list__item"
            data-testid="menu-prize-box"
            onClick={() => swap('prizeBox')}
          >
            {DELIVERY.boxTitle}
            {unread ? (
              <span className="unread-mark" data-testid="menu-prize-unread">
                {MESSAGES.unreadMark}
              </span>
            ) : null}
          </button>
        </li>
        <li>
          <button type="button" className="menu-list__item" onClick={() => swap('deliveryHistory')}>
            {DELIVERY.links.history}
          </button>
        </li>
        <li>
          <button
            type="button"
            className="menu-list__item"
            data-testid="menu-addresses"
            onClick={() => swap('addressList')}
          >
            {DELIVERY.links.addresses}
            {flags?.missing.includes('address') ? (
              <span className="new-badge" data-testid="menu-addresses-badge">
                <span aria-hidden="true">{ACCOUNT.newBadge}</span>
                <span className="visually-hidden">{ACCOUNT.newBadgeLabel}</span>
              </span>
            ) : null}
          </button>
        </li>
        <li>
          <button type="button" className="menu-list__item" onClick={() => swap('deliveryAbout')}>
            {DELIVERY.links.about}
          </button>
        </li>
        <li>
          <button type="button" className="menu-list__item" onClick={() => open('tcHistory')}>
            {HISTORY_MESSAGES.tcTitle}
          </button>
        </li>
        <li>
          <button type="button" className="menu-list__item" onClick={() => open('playHistory')}>
            {HISTORY_MESSAGES.playTitle}
          </button>
        </li>
        {/* Pages replace the menu's history entry; the host closes the menu there. */}
        <li>
          <Link className="menu-list__item" to="/arrival-items" replace>
            {STOREFRONT.arrivalItemsTitle}
          </Link>
        </li>
        <li>
          <Link className="menu-list__item" to="/kuji" replace>
            {KUJI.listTitle}
          </Link>
        </li>
        <li>
          <button type="button" className="menu-list__item" onClick={() => open('config')}>
            {MESSAGES.configTitle}
          </button>
        </li>
        <li>
          <button type="button" className="menu-list__item" onClick={() => open('craneItemList')}>
            {MESSAGES.craneItemListTitle}
          </button>
        </li>
      </ul>
      <AccountMenu open={open} swap={swap} />
      <h3 className="menu-list__heading">{DOCUMENT_MESSAGES.guideMenu}</h3>
      <ul className="menu-list">
        {GUIDE_MENU.map((name) => (
          <li key={name}>
            <button type="button" className="menu-list__item" onClick={() => open(name)}>
              {DOCUMENT_MESSAGES.titles[name]}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The account and support entries [R2.5-2]: the new badge on the items still missing [R4.7-1], the chat's unread mark. */
function AccountMenu({ open, swap }: { open: OpenModal; swap: OpenModal }) {
  const session = useInjection(TOKENS.SessionPort);
  const identity = useObservableState(session.identity$, session.current());
  const flags = useAccountFlags();
  if (identity === null)
    return (
      <>
        <h3 className="menu-list__heading">{ACCOUNT.accountSection}</h3>
        <p className="dialog__text">{ACCOUNT.signInPrompt}</p>
        <SignInLinks />
      </>
    );
  const missing = new Set(flags?.missing ?? []);
  const badge = (on: boolean) =>
    on ? (
      <span className="new-badge">
        <span aria-hidden="true">{ACCOUNT.newBadge}</span>
        <span className="visually-hidden">{ACCOUNT.newBadgeLabel}</span>
      </span>
    ) : null;
  const entries = [
    { name: 'accountMail', label: ACCOUNT.accountTitle, mark: badge(missing.has('email')), testId: 'menu-account' },
    { name: 'profile', label: ACCOUNT.profileTitle, mark: badge(missing.has('profile')), testId: 'menu-profile' },
    { name: 'phoneCheck', label: ACCOUNT.phoneTitle, mark: badge(missing.has('phone')), testId: 'menu-phone' },
    { name: 'presentCode', label: ACCOUNT.presentTitle, mark: null, testId: 'menu-present' },
    { name: 'inviteFriend', label: ACCOUNT.inviteTitle, mark: null, testId: 'menu-invite' },
  ] as const;
  return (
    <>
      <h3 className="menu-list__heading">{ACCOUNT.accountSection}</h3>
      {flags && flags.missing.length > 0 ? (
        <p className="menu-list__note" data-testid="menu-missing">
          {ACCOUNT.missingLead}
          {flags.missing.map((m) => ACCOUNT.missingItems[m]).join('、')}
        </p>
      ) : null}
      <ul className="menu-list">
        {entries.map((e) => (
          <li key={e.name}>
            <button type="button" className="menu-list__item" data-testid={e.testId} onClick={() => open(e.name)}>
              {e.label}
              {e.mark}
            </button>
          </li>
        ))}
      </ul>
      <h3 className="menu-list__heading">{ACCOUNT.supportSection}</h3>
      <ul className="menu-list">
        <li>
          <button type="button" className="menu-list__item" data-testid="menu-contact" onClick={() => swap('contact')}>
            {ACCOUNT.contactTitle}
          </button>
        </li>
        <li>
          <button type="button" className="menu-list__item" data-testid="menu-chat" onClick={() => open('chatSupport')}>
            {ACCOUNT.chatTitle}
            {flags?.unreadMessage ? (
              <span className="unread-mark" data-testid="menu-chat-unread">
                {ACCOUNT.unreadMessage}
              </span>
            ) : null}
          </button>
        </li>
      </ul>
    </>
  );
}
