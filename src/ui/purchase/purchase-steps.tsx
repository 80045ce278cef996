import { useRef, useState } from 'react';
import type { BuyTcState } from '../../application';
import { formatJstDateTime, formatThousands, type SpendingLimitInfo, type TcInfo } from '../../domain';
import { MESSAGES } from '../messages';
import { PURCHASE_PAGE as P } from '../storefront.messages';
import { PURCHASE_MODAL as M } from './purchase.messages';

/** Every step's title has this id: the dialog is named after the step it shows. */
export const PURCHASE_TITLE_ID = 'purchase-dialog-title';

type Step<K extends BuyTcState['kind']> = Extract<BuyTcState, { kind: K }>;
const tcOf = (p: { readonly toll_tc: number; readonly free_tc: number }) => formatThousands(p.toll_tc + p.free_tc);
const yen = (n: number | null) => (n === null ? M.limitNoneWord : M.yen(formatThousands(n)));

/** The TC balance with its free and paid halves [R1-2] (the top step, the settlement page). */
export function TcBalanceLine({ balance, testId }: { balance: TcInfo; testId: string }) {
  return (
    <p className="purchase__balance" data-testid={testId}>
      {P.balance(formatThousands(balance.tc_all), formatThousands(balance.tc_free), formatThousands(balance.tc_toll))}
    </p>
  );
}

/** The month's cap in the top step [R10-3]. */
export function LimitLine({ limit }: { limit: SpendingLimitInfo | null }) {
  if (!limit) return null;
  return (
    <p className="purchase__limit" data-testid="purchase-limit">
      {limit.capYen === null
        ? M.limitNone
        : M.limitLine(formatThousands(limit.capYen), formatThousands(limit.remainingYen ?? 0))}
      {limit.pending ? (
        <small>
          {' '}
          {M.limitPending(yen(limit.pending.limitYen), formatJstDateTime(Date.parse(limit.pending.effectiveAt)))}
        </small>
      ) : null}
    </p>
  );
}

/** age: the birth date, once, with the minors' caps explained [R2.5-5]. */
export function AgeStep({ state, onSubmit }: { state: Step<'age'>; onSubmit: (birth: string) => void }) {
  const [birth, setBirth] = useState('');
  return (
    <form
      className="purchase__step purchase__form"
      data-testid="purchase-age"
      aria-labelledby={PURCHASE_TITLE_ID}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(birth);
      }}
    >
      <h2 id={PURCHASE_TITLE_ID} className="dialog__title">
        {P.ageTitle}
      </h2>
      <p>{P.ageLead}</p>
      <p className="purchase__note">{M.ageMinorNote}</p>
      <label className="purchase__field">
        <span>{P.birth}</span>
        <input
          type="date"
          name="birth"
          required
          value={birth}
          min="1900-01-01"
          autoFocus
          onChange={(e) => setBirth(e.target.value)}
        />
      </label>
      <button type="submit" className="button" disabled={state.busy || birth === ''}>
        {P.ageSubmit}
      </button>
      {state.error ? (
        <p role="alert" className="panel__note">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}

/** top: the balance, the pay methods in rank order, the products with their bonus labels [R3-11, R3-12, R9-6, R9-7]. */
export function TopStep({
  state,
  onMethod,
  onBuy,
}: {
  state: Step<'top'>;
  onMethod: (id: string) => void;
  onBuy: (productId: number) => void;
}) {
  const bonusTickets = (productId: number) => state.list?.bonusItems.find((b) => b.productId === productId)?.count ?? 0;
  return (
    <div className="purchase__step" data-testid="purchase-top">
      <h2 id={PURCHASE_TITLE_ID} className="dialog__title">
        {M.topTitle}
      </h2>
      <TcBalanceLine balance={state.balance} testId="tc-balance" />
      <LimitLine limit={state.limit} />
      <fieldset className="purchase__methods">
        <legend>{P.methods}</legend>
        {state.methods.map((m) => (
          <label key={m.id} className="pay-method" data-rank={m.rank_id}>
            <input
              type="radio"
              name="pay-method"
              value={m.id}
              checked={state.method === m.id}
              disabled={state.busy}
              onChange={() => onMethod(m.id)}
            />
            <img src={m.imgUrl} alt="" width={40} height={40} />
            <span>
              <strong>{m.name}</strong>
              <small>{m.info}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <h3 className="purchase__heading">{P.products}</h3>
      {state.productError !== null ? (
        <p role="alert" className="panel__note" data-testid="product-error">
          {state.productError}
        </p>
      ) : null}
      {state.list !== null && state.list.products.length === 0 ? <p>{P.noProducts}</p> : null}
      {state.list !== null && state.list.products.length > 0 ? (
        <ul className="product-list">
          {state.list.products.map((p) => (
            <li key={p.productId} className="product">
              <span className="product__tc">{P.tcAmount(tcOf(p))}</span>
              {p.bonusLabel ? <span className="chip chip--small">{p.bonusLabel}</span> : null}
              {bonusTickets(p.productId) > 0 ? (
                <span className="chip chip--small">{M.bonusTickets(formatThousands(bonusTickets(p.productId)))}</span>
              ) : null}
              {p.isSale ? <span className="chip chip--small chip--sale">{P.sale}</span> : null}
              <button
                type="button"
                className="button product__buy"
                disabled={state.busy}
                onClick={() => onBuy(p.productId)}
                aria-label={`${P.tcAmount(tcOf(p))} ${P.price(formatThousands(p.price))} ${P.buy}`}
              >
                {P.price(formatThousands(p.price))}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {state.error ? (
        <p role="alert" className="panel__note" data-testid="purchase-refused">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}

/** Where the provider sends the player back inside the frame (the shop's return page). */
const RETURN_PATH = '/purchase-return/';

/**
 * iframe: the provider's page inside the modal. The frame is sandboxed (forms and its own origin,
 * no script); when it arrives at the shop's return page, the flow asks how the payment ended.
 */
export function IframeStep({ state, onReturned }: { state: Step<'paying'>; onReturned: () => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const onLoad = () => {
    let path = '';
    try {
      path = frame.current?.contentWindow?.location.pathname ?? '';
    } catch {
      // Another origin (a real provider's page): not the return page.
    }
    if (path.startsWith(RETURN_PATH)) onReturned();
  };
  return (
    <div className="purchase__step" data-testid="purchase-iframe">
      <h2 id={PURCHASE_TITLE_ID} className="dialog__title">
        {M.iframeTitle}
      </h2>
      <p className="purchase__note">{M.iframeLead}</p>
      {state.checking ? (
        <p role="status" className="page-status">
          {M.checking}
        </p>
      ) : null}
      <iframe
        ref={frame}
        className="purchase__frame"
        title={M.iframeLabel}
        src={state.settlement.paymentUrl ?? undefined}
        sandbox="allow-forms allow-same-origin"
        onLoad={onLoad}
        hidden={state.checking}
      />
    </div>
  );
}

/** complete: TC added, the new balance, the bonus tickets. */
export function CompleteStep({ state, onClose }: { state: Step<'complete'>; onClose: () => void }) {
  const s = state.settlement;
  return (
    <div className="purchase__step purchase__done" data-testid="purchase-complete">
      <h2 id={PURCHASE_TITLE_ID} className="dialog__title">
        {M.completeTitle}
      </h2>
      <p role="status" className="purchase__added">
        {M.completeTc(formatThousands(s.tollTc + s.freeTc))}
      </p>
      {s.freeTc > 0 ? <p>{M.completeSplit(formatThousands(s.tollTc), formatThousands(s.freeTc))}</p> : null}
      {s.bonusTicket > 0 ? <p>{M.completeTickets(formatThousands(s.bonusTicket))}</p> : null}
      <p data-testid="purchase-balance">{M.completeBalance(formatThousands(state.balance.tc_all))}</p>
      <button type="button" className="button" autoFocus onClick={onClose}>
        {M.close}
      </button>
    </div>
  );
}

/** cancel and error: the provider's or the service's Japanese message, and the way back to the top step. */
export function EndedStep({
  kind,
  message,
  onBack,
  onClose,
}: {
  kind: 'cancelled' | 'failed' | 'error';
  message: string;
  onBack: () => void;
  onClose: () => void;
}) {
  return (
    <div className="purchase__step" data-testid={kind === 'cancelled' ? 'purchase-cancel' : 'purchase-error'}>
      <h2 id={PURCHASE_TITLE_ID} className="dialog__title">
        {kind === 'cancelled' ? M.cancelTitle : M.errorTitle}
      </h2>
      <p role="alert" data-testid="purchase-message">
        {message || MESSAGES.loading}
      </p>
      <div className="panel__actions">
        <button type="button" className="button" autoFocus onClick={onBack}>
          {M.backToTop}
        </button>
        <button type="button" className="button button--quiet" onClick={onClose}>
          {M.close}
        </button>
      </div>
    </div>
  );
}
