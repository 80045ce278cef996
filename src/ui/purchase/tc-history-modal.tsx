import { TOKENS } from '../../application';
import { formatJstDateTime, formatThousands } from '../../domain';
import { useScopedUseCase } from '../hooks/use-scoped-use-case';
import type { ModalComponentProps } from '../modals/registry';
import { PagedHistoryModal } from './paged-history-modal';
import { HISTORY_MESSAGES as H } from './purchase.messages';

const signed = (n: number) => (n === 0 ? '—' : `${n > 0 ? '+' : '−'}${formatThousands(Math.abs(n))}`);

/** The TC used history (every ledger operation: purchases, plays, refunds, codes…), newest first, free and paid apart. */
export default function TcHistoryModal(_: ModalComponentProps<Record<never, never>>) {
  const history = useScopedUseCase(TOKENS.TcUsedHistory);
  return (
    <PagedHistoryModal id="tc-history" title={H.tcTitle} empty={H.tcEmpty} history={history}>
      {(entries) => (
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
            {entries.map((e) => (
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
      )}
    </PagedHistoryModal>
  );
}
