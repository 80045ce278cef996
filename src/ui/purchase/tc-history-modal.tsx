import { useEffect, useRef } from 'react';
import { TOKENS } from '../../application';
import { formatJstDateTime, formatThousands } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../hooks/use-scoped-use-case';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { HISTORY_MESSAGES as H } from './purchase.messages';

const signed = (n: number) => (n === 0 ? '—' : `${n > 0 ? '+' : '−'}${formatThousands(Math.abs(n))}`);

/** The TC used history (every ledger operation: purchases, plays, refunds, codes…), newest first, free and paid apart. */
export default function TcHistoryModal(_: ModalComponentProps<Record<never, never>>) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'tc-history-title');
  const history = useScopedUseCase(TOKENS.TcUsedHistory);
  const state = useObservableState(history.state$, history.snapshot);
  useEffect(() => void history.start(), [history]);
  return (
    <div ref={ref} className="modal__body history" data-testid="tc-history">
      <h2 id="tc-history-title" className="dialog__title">
        {H.tcTitle}
      </h2>
      {state.entries.length === 0 && !state.loading && state.page > 0 ? <p>{H.tcEmpty}</p> : null}
      {state.entries.length > 0 ? (
        <table className="history__table">
          <thead>
            <tr>
              <th scope="col">{H.tcColumns.date}</th>
              <th scope="col">{H.tcColumns.what}</th>
              <th scope="col">{H.tcColumns.free}</th>
              <th scope="col">{H.tcColumns.toll}</th>
              <th scope="col">{H.tcColumns.after}</th>
            </tr>
          </thead>
          <tbody>
            {state.entries.map((e) => (
              <tr key={e.id} data-reason={e.reason}>
                <td>{formatJstDateTime(Date.parse(e.createdAt))}</td>
                <td>{H.reasons[e.reason] ?? H.reasonOther}</td>
                <td className="history__num">{signed(e.freeDelta)}</td>
                <td className="history__num">{signed(e.tollDelta)}</td>
                <td className="history__num">{formatThousands(e.balanceAfter)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {state.loading ? <p role="status">{MESSAGES.loading}</p> : null}
      {state.error ? <p role="alert">{state.error}</p> : null}
      {state.hasMore && !state.loading ? (
        <button type="button" className="button button--secondary" onClick={() => void history.more()}>
          {H.more}
        </button>
      ) : null}
    </div>
  );
}
