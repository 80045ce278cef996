import { useEffect, useState } from 'react';
import { TOKENS } from '../../application';
import { formatJstDateTime, formatThousands, SPENDING_LIMIT_MAX_YEN, SPENDING_LIMIT_MIN_YEN } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { PURCHASE_MODAL, SPENDING_LIMIT_MESSAGES as L } from './purchase.messages';

const yen = (n: number | null) => (n === null ? PURCHASE_MODAL.limitNoneWord : PURCHASE_MODAL.yen(formatThousands(n)));

/** The config modal's spending limit [R10-3]: what applies this month, and setting or removing the player's own. */
export function SpendingLimitSection() {
  const setting = useScopedUseCase(TOKENS.SpendingLimitSetting);
  const state = useObservableState(setting.state$, setting.snapshot);
  const [amount, setAmount] = useState('');
  useEffect(() => void setting.start(), [setting]);
  if (state.signedOut) return <p className="panel__note">{L.signIn}</p>;
  const limit = state.limit;
  return (
    <section className="spending-limit" aria-labelledby="spending-limit-title" data-testid="spending-limit">
      <h3 id="spending-limit-title" className="menu-list__heading">
        {L.title}
      </h3>
      <p className="purchase__note">{L.lead}</p>
      {limit ? (
        <>
          <p data-testid="spending-limit-current">{L.current(yen(limit.limitYen))}</p>
          {limit.pending ? (
            <p data-testid="spending-limit-pending">
              {PURCHASE_MODAL.limitPending(
                yen(limit.pending.limitYen),
                formatJstDateTime(Date.parse(limit.pending.effectiveAt)),
              )}
            </p>
          ) : null}
          {limit.minorLimitYen !== null ? <p>{L.minor(formatThousands(limit.minorLimitYen))}</p> : null}
          <p>{L.spent(formatThousands(limit.spentYen))}</p>
        </>
      ) : null}
      <form
        className="spending-limit__form"
        onSubmit={(e) => {
          e.preventDefault();
          void setting.save(Number(amount));
        }}
      >
        <label className="purchase__field">
          <span>{L.amountLabel}</span>
          <input
            type="number"
            inputMode="numeric"
            name="limit_yen"
            min={SPENDING_LIMIT_MIN_YEN}
            max={SPENDING_LIMIT_MAX_YEN}
            step={1}
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </label>
        <div className="panel__actions">
          <button type="submit" className="button" disabled={state.busy || amount === ''}>
            {L.save}
          </button>
          <button
            type="button"
            className="button button--quiet"
            disabled={state.busy || limit?.limitYen === null}
            onClick={() => void setting.save(null)}
          >
            {L.remove}
          </button>
        </div>
      </form>
      {state.saved ? <p role="status">{L.saved}</p> : null}
      {state.error ? <p role="alert">{state.error}</p> : null}
    </section>
  );
}
