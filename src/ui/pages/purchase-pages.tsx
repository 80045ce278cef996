import { useEffect, useRef } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { SessionRedirect } from '../ssr/session-redirect';
import { TOKENS } from '../../application';
import { ACCOUNT_PAYMENT_SLUG, formatThousands, isSettlementId } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import { PURCHASE_PAGE as M } from '../storefront.messages';
import { NotFoundPage } from './not-found-page';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useModals } from '../modals/modal-host';
import { HISTORY_MESSAGES, PURCHASE_MODAL } from '../purchase/purchase.messages';
import { TcBalanceLine } from '../purchase/purchase-steps';
import { useCurrentUser } from '../account/use-current-user';

const tcOf = (p: { readonly toll_tc: number; readonly free_tc: number }) => formatThousands(p.toll_tc + p.free_tc);

/** A guest is sent to the login page and comes back here after signing in [R2.5-4]. */
function SignInFirst() {
  const location = useLocation();
  return <SessionRedirect to={`/login?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`} />;
}

/**
 * The settlement page (§2.1's lazily loaded pages): the player's TC and the way to buy more. Login
 * first [R2.5-4]; the purchase modal opens on arrival (age step first with no birth date, R2.5-5),
 * and the page keeps the buttons to open it again and to see the TC used and play histories.
 */
export function SettlementPage() {
  const session = useInjection(TOKENS.SessionPort);
  const user = useCurrentUser();
  const { open } = useModals();
  const signedIn = session.current() !== null;
  const opened = useRef(false);
  useEffect(() => {
    if (!signedIn || opened.current) return;
    opened.current = true;
    open('purchase');
  }, [signedIn, open]);
  if (!signedIn) return <SignInFirst />;
  return (
    <section className="panel purchase" aria-labelledby="purchase-title">
      <h1 id="purchase-title" className="panel__title">
        {M.title}
      </h1>
      {user ? <TcBalanceLine balance={user.tc_info} testId="page-balance" /> : null}
      <div className="panel__actions">
        <button type="button" className="button" data-testid="open-purchase" onClick={() => open('purchase')}>
          {PURCHASE_MODAL.openPurchase}
        </button>
        <button type="button" className="button button--secondary" onClick={() => open('tcHistory')}>
          {HISTORY_MESSAGES.tcTitle}
        </button>
        <button type="button" className="button button--secondary" onClick={() => open('playHistory')}>
          {HISTORY_MESSAGES.playTitle}
        </button>
      </div>
    </section>
  );
}

/** /purchase/{slug}: the account-based payment's start page; a slug other than ours is the 404 page [R2.1-5]. */
export function AccountPaymentPage() {
  const { slug = '' } = useParams();
  const [params] = useSearchParams();
  const productId = Number(params.get('product_id'));
  const pay = useScopedUseCase(TOKENS.AccountPayment);
  const state = useObservableState(pay.state$, pay.snapshot);
  const valid = slug === ACCOUNT_PAYMENT_SLUG && Number.isSafeInteger(productId) && productId > 0;
  useEffect(() => {
    if (valid) void pay.open(productId);
  }, [pay, productId, valid]);
  if (!valid) return <NotFoundPage />;
  if (state.kind === 'signIn') return <SignInFirst />;
  return (
    <section className="panel purchase" aria-labelledby="account-title">
      <h1 id="account-title" className="panel__title">
        {M.accountTitle}
      </h1>
      {state.kind === 'loading' || state.kind === 'redirecting' ? (
        <p className="page-status" role="status">
          {MESSAGES.loading}
        </p>
      ) : null}
      {state.kind === 'error' ? (
        <p role="alert" className="panel__note">
          {state.message}
        </p>
      ) : null}
      {state.kind === 'notFound' ? (
        <p role="alert" className="panel__note">
          {M.productNotFound}
        </p>
      ) : null}
      {state.kind === 'confirm' ? (
        <>
          <p>{M.accountLead}</p>
          <p className="product__tc">
            {M.tcAmount(tcOf(state.product))}
            {state.product.bonusLabel ? <span className="chip chip--small">{state.product.bonusLabel}</span> : null}
          </p>
          <button type="button" className="button" disabled={state.busy} onClick={() => void pay.pay()}>
            {M.accountPay(formatThousands(state.product.price))}
          </button>
          {state.error ? (
            <p role="alert" className="panel__note">
              {state.error}
            </p>
          ) : null}
        </>
      ) : null}
      <Link className="button button--secondary" to="/settlement" replace>
        {M.accountBack}
      </Link>
    </section>
  );
}

/** /purchase/{slug}/result/{productSettlementId}: how the payment stands; a malformed id is the 404 page [R2.1-5]. */
export function AccountPaymentResultPage() {
  const { slug = '', productSettlementId = '' } = useParams();
  const pay = useScopedUseCase(TOKENS.AccountPayment);
  const state = useObservableState(pay.state$, pay.snapshot);
  const valid = slug === ACCOUNT_PAYMENT_SLUG && isSettlementId(productSettlementId);
  useEffect(() => {
    if (valid) void pay.result(productSettlementId);
  }, [pay, productSettlementId, valid]);
  if (!valid) return <NotFoundPage />;
  if (state.kind === 'signIn') return <SignInFirst />;
  return (
    <section className="panel purchase" aria-labelledby="result-title">
      <h1 id="result-title" className="panel__title">
        {M.resultTitle}
      </h1>
      {state.kind === 'loading' ? (
        <p className="page-status" role="status">
          {MESSAGES.loading}
        </p>
      ) : null}
      {state.kind === 'error' ? (
        <p role="alert" className="panel__note">
          {state.message || M.resultNotFound}
        </p>
      ) : null}
      {state.kind === 'result' ? (
        <>
          <p role="status" data-testid="settlement-status" data-status={state.settlement.status}>
            {M.resultStatus[state.settlement.status]}
          </p>
          {state.settlement.failureInfo ? <p role="alert">{state.settlement.failureInfo}</p> : null}
          <p>
            {M.resultDetail(
              formatThousands(state.settlement.tollTc + state.settlement.freeTc),
              formatThousands(state.settlement.price),
            )}
          </p>
          {state.balance ? <p>{M.balanceAfter(formatThousands(state.balance.tc_all))}</p> : null}
        </>
      ) : null}
      <Link className="button button--secondary" to="/">
        {M.toTop}
      </Link>
    </section>
  );
}

export default SettlementPage;
