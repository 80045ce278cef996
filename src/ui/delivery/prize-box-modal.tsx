import { useEffect, useRef } from 'react';
import { TOKENS } from '../../application';
import { SignInLinks } from '../account/sign-in-links';
import { formatJstDateTime, isDeliverable, type DeliveryGroup } from '../../domain';
import { useNow } from '../hooks/use-now';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { MESSAGES } from '../messages';
import type { ModalComponentProps, OpenModal } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { DELIVERY as D } from './delivery.messages';
import { PrizeLine } from './prize-line';

const TABS: readonly DeliveryGroup[] = ['before', 'after', 'invalid'];

/** The box's links to the other prize and delivery modals (sub-modals of the box). */
const LINKS: readonly (readonly [keyof typeof D.links, (open: OpenModal) => void])[] = [
  ['history', (open) => open('deliveryHistory')],
  ['addresses', (open) => open('addressList')],
  ['digital', (open) => open('prizeKind', { kind: 'digital' })],
  ['direct', (open) => open('prizeKind', { kind: 'direct' })],
  ['arrival', (open) => open('prizeKind', { kind: 'arrival' })],
  ['about', (open) => open('deliveryAbout')],
];

/**
 * The prize box (spec §2.5 prize earn history): every won prize in the before / after / invalid
 * lists [R4.5-1] with where and when it was won, its state and its storage deadline [R10-5]; the
 * free-delivery ticket [R10-6]; choosing prizes of the before list, with the order-made check
 * [R5-4], leads to the delivery request. Opening it clears the prize unread marks.
 */
export default function PrizeBoxModal({ open }: ModalComponentProps<Record<never, never>>) {
  const box = useScopedUseCase(TOKENS.PrizeBox);
  const state = useObservableState(box.state$, box.snapshot);
  const now = useNow(false);
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'prize-box-title');
  useEffect(() => void box.start(), [box]);
  const view = box.view(state);
  const list = view.lists[state.tab];
  const deliverable = view.lists.before.filter(isDeliverable);
  return (
    <div ref={ref} className="modal__body prize-box" data-testid="prize-box">
      <h2 id="prize-box-title" className="dialog__title">
        {D.boxTitle}
      </h2>
      {state.status === 'signIn' ? (
        <>
          <p>{D.signIn}</p>
          <SignInLinks />
        </>
      ) : null}
      {state.status === 'loading' ? <p role="status">{MESSAGES.loading}</p> : null}
      {state.status === 'error' ? (
        <div role="alert">
          <p>{state.error}</p>
          <button type="button" className="button button--secondary" onClick={() => void box.reload()}>
            {D.retry}
          </button>
        </div>
      ) : null}
      {state.status === 'ready' ? (
        <>
          <p className="prize-box__ticket" data-testid="delivery-ticket" data-held={state.ticket?.held ? 1 : 0}>
            {state.ticket?.held
              ? D.ticketHeld
              : D.ticketNext(state.ticket ? formatJstDateTime(Date.parse(state.ticket.nextGrantAt)) : '')}
          </p>
          <div className="prize-box__tabs" role="tablist" aria-label={D.tabsLabel}>
            {TABS.map((tab) => (
              <button
                key={tab}
                type="button"
                role="tab"
                id={`prize-tab-${tab}`}
                aria-selected={state.tab === tab}
                aria-controls="prize-box-panel"
                className="prize-box__tab"
                data-testid={`prize-tab-${tab}`}
                onClick={() => box.showTab(tab)}
              >
                {D.tabs[tab]}
                <span className="prize-box__count">{view.lists[tab].length}</span>
              </button>
            ))}
          </div>
          <div id="prize-box-panel" role="tabpanel" aria-labelledby={`prize-tab-${state.tab}`}>
            {list.length === 0 ? <p className="purchase__note">{D.empty[state.tab]}</p> : null}
            {state.tab === 'before' && deliverable.length > 1 ? (
              <button type="button" className="button button--quiet" onClick={() => box.toggleAll()}>
                {state.selected.size === deliverable.length ? D.chooseNone : D.chooseAll}
              </button>
            ) : null}
            <ul className="prize-box__list">
              {list.map((prize) => (
                <PrizeLine
                  key={prize.play_history_id}
                  prize={prize}
                  now={now}
                  control={
                    state.tab === 'before' && isDeliverable(prize) ? (
                      <input
                        type="checkbox"
                        className="prize-line__check"
                        aria-label={D.choose(prize.product_name)}
                        checked={state.selected.has(prize.play_history_id)}
                        onChange={() => box.toggle(prize.play_history_id)}
                      />
                    ) : undefined
                  }
                />
              ))}
            </ul>
          </div>
          {state.tab === 'before' && state.selected.size > 0 ? (
            <div className="prize-box__action" data-testid="prize-box-action">
              <p className="prize-box__chosen">{D.chosen(state.selected.size)}</p>
              {view.shortfalls.map((s) => (
                <p key={s.product_name} className="prize-box__warning" data-testid="order-made-check">
                  {D.shortfall(s.product_name, s.unsent, s.chosen)}
                </p>
              ))}
              <button
                type="button"
                className="button"
                data-testid="to-delivery-request"
                onClick={() =>
                  open('deliveryRequest', {
                    prizes: view.chosen,
                    onDone: () => void box.reload(),
                  })
                }
              >
                {D.toRequest}
              </button>
            </div>
          ) : null}
        </>
      ) : null}
      <ul className="prize-box__links">
        {LINKS.map(([label, go]) => (
          <li key={label}>
            <button type="button" className="button button--secondary" onClick={() => go(open)}>
              {D.links[label]}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
