import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { TOKENS, type BuyTcState } from '../../application';
import { ACCOUNT_PAYMENT_SLUG, formatThousands, isSettlementId } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../hooks/use-scoped-use-case';
import { MESSAGES } from '../messages';
import { PURCHASE_PAGE as M } from '../storefront.messages';
import { NotFoundPage } from './not-found-page';

const tcOf = (p: { readonly toll_tc: number; readonly free_tc: number }) => formatThousands(p.toll_tc + p.free_tc);

/** A guest is sent to the login page and comes back here after signing in [R2.5-4]. */
function SignInFirst() {
  const location = useLocation();
  return <Navigate to={`/login?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`} replace />;
}

/**
 * The settlement page (§2.1's lazily loaded pages): buying TC. Login first [R2.5-4]; with no birth
 * date the age step first [R2.5-5]; then the pay methods of the build target and the products offered
 * with the chosen one; a product list that fails to load shows the service's error_info [R8-9].
 */
export function SettlementPage() {
  const buy = useScopedUseCase(TOKENS.BuyTc);
  const state = useObservableState(buy.state$, buy.snapshot);
  useEffect(() => void buy.start(), [buy]);
  if (state.kind === 'signIn') return <SignInFirst />;
  if (state.kind === 'handOff')
    return <Navigate to={`/purchase/${ACCOUNT_PAYMENT_SLUG}?product_id=${state.productId}`} />;
  return (
    <section className="panel purchase" aria-labelledby="purchase-title">
      <h1 id="purchase-title" className="panel__title">
        {M.title}
      </h1>
      <SettlementBody state={state} buy={buy} />
    </section>
  );
}

function SettlementBody({
  state,
  buy,
}: {
  state: BuyTcState;
  buy: {
    registerBirth(b: string): Promise<void>;
    chooseMethod(m: string): Promise<void>;
    buy(id: number): Promise<void>;
    start(): Promise<void>;
  };
}) {
  const [birth, setBirth] = useState('');
  if (state.kind === 'loading')
    return (
      <p className="page-status" role="status">
        {MESSAGES.loading}
      </p>
    );
  if (state.kind === 'error')
    return (
      <p className="page-status page-status--error" role="alert">
        {state.message}
      </p>
    );
  if (state.kind === 'age') {
    return (
      <form
        className="debug-login"
        aria-labelledby="age-title"
        onSubmit={(e) => {
          e.preventDefault();
          void buy.registerBirth(birth);
        }}
      >
        <h2 id="age-title" className="dialog__title">
          {M.ageTitle}
        </h2>
        <p>{M.ageLead}</p>
        <label className="debug-login__field">
          <span>{M.birth}</span>
          <input
            type="date"
            name="birth"
            required
            value={birth}
            min="1900-01-01"
            onChange={(e) => setBirth(e.target.value)}
          />
        </label>
        <button type="submit" className="button" disabled={state.busy || birth === ''}>
          {M.ageSubmit}
        </button>
        {state.error ? (
          <p role="alert" className="panel__note">
            {state.error}
          </p>
        ) : null}
      </form>
    );
  }
  if (state.kind === 'done') {
    return (
      <div className="purchase__done">
        <p role="status">{M.done(tcOf(state.product))}</p>
        <p>{M.balanceAfter(formatThousands(state.balance.tc_all))}</p>
        <button type="button" className="button" onClick={() => void buy.start()}>
          {M.again}
        </button>
        <Link className="button button--secondary" to="/">
          {M.toTop}
        </Link>
      </div>
    );
  }
  if (state.kind !== 'shop') return null;
  return (
    <>
      <p className="purchase__balance" data-testid="tc-balance">
        {M.balance(
          formatThousands(state.balance.tc_all),
          formatThousands(state.balance.tc_free),
          formatThousands(state.balance.tc_toll),
        )}
      </p>
      <fieldset className="purchase__methods">
        <legend>{M.methods}</legend>
        {state.methods.map((m) => (
          <label key={m.id} className="pay-method">
            <input
              type="radio"
              name="pay-method"
              value={m.id}
              checked={state.method === m.id}
              disabled={state.busy}
              onChange={() => void buy.chooseMethod(m.id)}
            />
            <img src={m.imgUrl} alt="" width={40} height={40} />
            <span>
              <strong>{m.name}</strong>
              <small>{m.info}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <h2 className="dialog__title">{M.products}</h2>
      {state.productError !== null ? (
        <p role="alert" className="panel__note" data-testid="product-error">
          {state.productError}
        </p>
      ) : null}
      {state.list !== null && state.list.products.length === 0 ? <p>{M.noProducts}</p> : null}
      {state.list !== null && state.list.products.length > 0 ? (
        <ul className="product-list">
          {state.list.products.map((p) => (
            <li key={p.productId} className="product">
              <span className="product__tc">{M.tcAmount(tcOf(p))}</span>
              {p.bonusLabel ? <span className="chip chip--small">{p.bonusLabel}</span> : null}
              {p.isSale ? <span className="chip chip--small chip--sale">{M.sale}</span> : null}
              <button
                type="button"
                className="button product__buy"
                disabled={state.busy}
                onClick={() => void buy.buy(p.productId)}
                aria-label={`${M.tcAmount(tcOf(p))} ${M.price(formatThousands(p.price))} ${M.buy}`}
              >
                {M.price(formatThousands(p.price))}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {state.error ? (
        <p role="alert" className="panel__note">
          {state.error}
        </p>
      ) : null}
    </>
  );
}

/** /purchase/{slug}: the account-based payment's start page; a slug other than ours is the 404 page [R2.1-5]. */
export function AccountPaymentPage() {
  const { slug = '' } = useParams();
  const [params] = useSearchParams();
  const productId = Number(params.get('product_id'));
  const pay = useScopedUseCase(TOKENS.AccountPayment);
  const state = useObservableState(pay.state$, pay.snapshot);
  const navigate = useNavigate();
  const valid = slug === ACCOUNT_PAYMENT_SLUG && Number.isSafeInteger(productId) && productId > 0;
  useEffect(() => {
    if (valid) void pay.open(productId);
  }, [pay, productId, valid]);
  useEffect(() => {
    if (state.kind === 'paid')
      navigate(`/purchase/${ACCOUNT_PAYMENT_SLUG}/result/${state.productSettlementId}`, { replace: true });
  }, [state, navigate]);
  if (!valid) return <NotFoundPage />;
  if (state.kind === 'signIn') return <SignInFirst />;
  return (
    <section className="panel purchase" aria-labelledby="account-title">
      <h1 id="account-title" className="panel__title">
        {M.accountTitle}
      </h1>
      {state.kind === 'loading' || state.kind === 'paid' ? (
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
      <Link className="button button--secondary" to="/settlement">
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
