import { useEffect, useRef, type ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useRouteHandles } from '../router/app-routes';
import { ACCOUNT_SHELL } from '../account/account-shell.messages';
import { AccountGates } from '../account/account-gates';
import { useAccountFlags } from '../account/use-account-flags';
import { useNextQuery } from '../account/next-query';
import { TOKENS } from '../../application';
import { formatThousands, freeTcLastDay, hasUnreadPrize, layoutOf, pageTitle, serviceHomeHref } from '../../domain';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import { ModalHost, useModals } from '../modals/modal-host';
import { ToastHost } from './toast';
import { ServiceHalt } from './service-halt';
import { FooterDocumentLinks } from '../modals/document-links';
import { HydrationPart } from '../ssr/hydration-part';
import type { RouteHandle } from '../ssr/preload';
import { useCurrentUser } from '../account/use-current-user';

/** Keeps the document title in step with the route [R7-13] (an effect, so server rendering sets it apart). */
function usePageTitle(): void {
  const { pathname } = useLocation();
  // A page with a title of its own (its route's `head`: a shared clip's page) keeps it itself.
  const ownTitle = useRouteHandles().some((handle) => (handle as RouteHandle | undefined)?.head !== undefined);
  useEffect(() => {
    if (!ownTitle) document.title = pageTitle(pathname);
  }, [pathname, ownTitle]);
}

/** On each route change: to the anchor when the URL has a hash, else to the top [R2.1-3]. */
function useScrollOnNavigation(): void {
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    if (hash.length > 1) {
      const id = decodeURIComponent(hash.slice(1));
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    window.scrollTo(0, 0);
  }, [pathname, search, hash]);
}

/**
 * After the server starts serving a new build, the next page the player goes to is loaded from the
 * server, so they move to it between pages (AppUpdates, R9-13). The first page is never reloaded.
 */
function useNewBuildBetweenPages(): void {
  const updates = useInjection(TOKENS.AppUpdates);
  const { pathname, search, hash } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    updates.navigated(`${pathname}${search}${hash}`);
  }, [updates, pathname, search, hash]);
}

/**
 * The route tree's root: the layout the deepest route asks for through its `handle`, 'default'
 * unless a page sets another [R2.1-4].
 */
export function AppLayout() {
  useNewBuildBetweenPages();
  const handles = useRouteHandles();
  const maintenance = useInjection(TOKENS.ServiceMaintenance);
  const navigator = useInjection(TOKENS.NavigatorPort);
  const halt = useObservableState(maintenance.state$, maintenance.snapshot);
  const layout = layoutOf(handles);
  // Stopped by the service [R8-5, R8-6]: the page gives way to the maintenance screen or the
  // reload alert; unmounting it stops its sound, stream, polling and modals.
  if (halt.screen || halt.alert)
    return (
      <DefaultLayout halted>
        <ServiceHalt
          state={halt}
          onConfirmAlert={() => maintenance.confirmAlert()}
          onReload={() => navigator.reload()}
        />
      </DefaultLayout>
    );
  return layout === 'plain' ? <PlainLayout /> : <DefaultLayout />;
}

/** A page on its own (no header or footer), e.g. a development tool. */
export function PlainLayout() {
  usePageTitle();
  useScrollOnNavigation();
  return (
    <main className="layout__main layout__main--plain">
      <Outlet />
    </main>
  );
}

/**
 * The 'default' layout: the header with the service logo, the page, and the footer with the
 * company logo and copyright [R2.6-3]. The logo goes to the service home: the app state's base
 * address, then '/' [R2.6-5]. `children` replaces the routed page (the fatal-error page, the
 * service's halt); a halted page shows no modal either.
 */
export function DefaultLayout({ children, halted = false }: { children?: ReactNode; halted?: boolean }) {
  usePageTitle();
  useScrollOnNavigation();
  const config = useInjection(TOKENS.AppConfig);
  const home = serviceHomeHref(config.topPageBaseUrl);
  const quiet = useRouteHandles().some((handle) => (handle as RouteHandle | undefined)?.quiet === true);
  return (
    <div className="layout">
      <header className="site-header">
        <div className="site-header__bar">
          <HeaderLogo home={home} />
          {children ? null : <HeaderActions />}
        </div>
      </header>
      <main className="layout__main">
        {children ? null : <AccountGates banner={!quiet} />}
        {children ?? (
          <HydrationPart>
            <Outlet />
          </HydrationPart>
        )}
      </main>
      <HydrationPart>
        <SiteFooter corporateUrl={config.corporateUrl} documents={!children} />
      </HydrationPart>
      {halted ? null : <ModalHost />}
      {children ? null : <ToastHost />}
    </div>
  );
}

/** The VIP variant of the header logo (public/onkure-logo-vip.svg), under the app's base path. */
// Outside Vite (a server render under Node) there is no import.meta.env: the app is served at the root.
const VIP_LOGO_SRC = `${import.meta.env?.BASE_URL ?? '/'}onkure-logo-vip.svg`;

/**
 * The header logo: the VIP variant for a VIP user (vip_level above normal), otherwise the normal
 * logo [R2.6-4]; either goes to the service home [R2.6-5]. A guest, a user still loading and a
 * failed load show the normal logo. Nothing here reads window or document, so it renders on a server.
 */
function HeaderLogo({ home }: { home: string }) {
  const currentUser = useInjection(TOKENS.CurrentUser);
  const vip = useObservableState(currentUser.isVip$, false);
  return (
    <a className="site-header__logo" href={home} data-testid="header-logo" data-logo={vip ? 'vip' : 'normal'}>
      {vip ? (
        <img
          className="site-header__vip-logo"
          src={VIP_LOGO_SRC}
          alt={MESSAGES.vipLogo}
          width={176}
          height={36}
          data-testid="header-logo-vip"
        />
      ) : (
        <>
          <span className="site-header__mark" aria-hidden="true">
            ◎
          </span>
          <span className="site-header__name">{MESSAGES.serviceName}</span>
        </>
      )}
      <span className="site-header__tagline">{MESSAGES.serviceTagline}</span>
      {/* Named by what it shows (WCAG 2.5.3), then where it goes. */}
      <span className="visually-hidden">{MESSAGES.homeSuffix}</span>
    </a>
  );
}

/** The header's TC balance (a signed-in player's), opening the purchase modal [R2.5-2]. */
function HeaderBalance() {
  const user = useCurrentUser();
  const modals = useModals();
  if (!user) return null;
  const tc = formatThousands(user.tc_info.tc_all);
  // The free TC that ends next, and the last day it can be spent [R11-7].
  const expiring = user.tc_free_expiring ?? null;
  const lastDay = expiring ? freeTcLastDay(Date.parse(expiring.expires_at)) : null;
  // Named by what it shows (WCAG 2.5.3); what it is and does is its description.
  return (
    <>
      <button
        type="button"
        className="site-header__action site-header__balance"
        data-testid="header-balance"
        aria-describedby="header-balance-hint"
        onClick={() => modals.open('purchase')}
      >
        <span data-testid="header-balance-amount">{MESSAGES.headerBalance(tc)}</span>
        {expiring && lastDay ? (
          <small className="site-header__expiring" data-testid="header-free-expiring">
            {/* A phone's header has no room for the amount: the TC history has it. */}
            <span className="site-header__expiring-full">
              {MESSAGES.headerFreeExpiring(formatThousands(expiring.amount), lastDay.month, lastDay.day)}
            </span>
            <span className="site-header__expiring-short">
              {MESSAGES.headerFreeExpiringShort(lastDay.month, lastDay.day)}
            </span>
          </small>
        ) : null}
      </button>
      <span id="header-balance-hint" className="visually-hidden">
        {MESSAGES.headerBalanceHint}
      </span>
    </>
  );
}

/**
 * The header's actions [R2.5-2]: a guest sees the way to sign in and to sign up (both returning
 * here); a signed-in player the TC balance (the purchase modals). Everyone gets search and the menu,
 * whose button carries the marks: something new in the prize box or the support chat, and the new
 * badge while an account item is missing [R4.7-1].
 */
function HeaderActions() {
  const modals = useModals();
  const session = useInjection(TOKENS.SessionPort);
  const identity = useObservableState(session.identity$, null);
  const user = useCurrentUser();
  const flags = useAccountFlags();
  const next = useNextQuery();
  const unread = (user !== null && hasUnreadPrize(user.unread)) || flags?.unreadMessage === true;
  return (
    <div className="site-header__actions">
      <HeaderBalance />
      {identity === null ? (
        <>
          <Link className="site-header__action" to={`/login${next}`} data-testid="header-sign-in">
            {ACCOUNT_SHELL.signIn}
          </Link>
          <Link
            className="site-header__action site-header__action--primary"
            to={`/signup${next}`}
            data-testid="header-sign-up"
          >
            {ACCOUNT_SHELL.signUp}
          </Link>
        </>
      ) : null}
      <button
        type="button"
        className="site-header__action"
        data-testid="open-search"
        onClick={() => modals.open('search')}
      >
        {MESSAGES.searchTitle}
      </button>
      <button
        type="button"
        className="site-header__action"
        data-testid="open-menu"
        data-unread={unread ? 1 : 0}
        data-new-badge={flags?.newBadge ? 1 : 0}
        onClick={() => modals.open('menuTop')}
      >
        {MESSAGES.menu}
        {unread ? (
          <span className="unread-dot" data-testid="menu-unread">
            <span className="visually-hidden">{MESSAGES.unreadMark}</span>
          </span>
        ) : null}
        {flags?.newBadge ? (
          <span className="new-badge" data-testid="menu-new-badge">
            <span aria-hidden="true">{ACCOUNT_SHELL.newBadge}</span>
            <span className="visually-hidden">{ACCOUNT_SHELL.newBadgeLabel}</span>
          </span>
        ) : null}
      </button>
    </div>
  );
}

/**
 * The footer: the company logo, which first asks (the reserve/warning notice, a registry modal) and, confirmed,
 * opens the company's site in a new tab [R2.5-3]; the links to the rules, legal display, privacy
 * policy and FAQ where a modal host is mounted [R2.5-2]; and the copyright.
 */
function SiteFooter({ corporateUrl, documents }: { corporateUrl: string; documents: boolean }) {
  const { open } = useModals();
  const ask = () =>
    open('confirm', {
      message: MESSAGES.corporateNotice,
      confirmLabel: MESSAGES.corporateOpen,
      onConfirm: () => window.open(corporateUrl, '_blank', 'noopener,noreferrer'),
      testId: 'reserve-warning',
    });
  return (
    <footer className="site-footer">
      {/* The visible name is the accessible name's start (WCAG 2.5.3); the hidden part says where it goes. */}
      <button type="button" className="site-footer__company" data-testid="company-logo" onClick={ask}>
        <svg viewBox="0 0 28 28" width="28" height="28" aria-hidden="true">
          <rect x="1" y="1" width="26" height="26" rx="7" fill="#d6336c" />
          <circle cx="14" cy="14" r="6" fill="#fff" />
        </svg>
        <span className="site-footer__company-name">{MESSAGES.companyName}</span>
        <span className="visually-hidden">{MESSAGES.companyLogo}</span>
      </button>
      {documents ? <FooterDocumentLinks /> : null}
      <p className="site-footer__copyright">{MESSAGES.copyright}</p>
    </footer>
  );
}
