import { TOKENS } from '../../application';
import { formatJstDateTime, formatThousands, freeTcByEnd, freeTcLastDayLabel, type FreeTcLot } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { PagedHistoryModal } from './paged-history-modal';
import { HISTORY_MESSAGES as H } from './purchase.messages';

const signed = (n: number) => (n === 0 ? '—' : `${n > 0 ? '+' : '−'}${formatThousands(Math.abs(n))}`);

/** A free credit's lot end under its line: the last day, or that it never ends [R11-7]. */
const freeEnd = (ends: string | null) =>
  ends === null ? H.freeNoEnd : H.freeUntil(freeTcLastDayLabel(Date.parse(ends)));

/** The free TC still held by its end, the earliest first: what is spent first [R11-7]. */
function FreeLots({ lots }: { lots: readonly FreeTcLot[] }) {
  if (lots.length === 0) return null;
  return (
    <section className="history__lots" aria-labelledby="tc-free-lots-title" data-testid="tc-free-lots">
      <h3 id="tc-free-lots-title" className="history__lots-title">
        {H.freeLotsTitle}
      </h3>
      <ul>
        {freeTcByEnd(lots).map((l) => (
          <li key={l.expiresAt ?? 'none'} data-expires-at={l.expiresAt ?? ''}>
            {l.expiresAt === null
              ? H.freeLotNoEnd(formatThousands(l.amount))
              : H.freeLot(formatThousands(l.amount), freeTcLastDayLabel(Date.parse(l.expiresAt)))}
          </li>
        ))}
      </ul>
      <p className="history__note">{H.freeLotsHint}</p>
    </section>
  );
}

/**
 * The TC used history (every ledger operation: purchases, plays, refunds, codes, expiries), newest
 * first, free and paid apart; above it the free TC lots held and when each ends [R11-7].
 */
export default function TcHistoryModal(_: ModalComponentProps<Record<never, never>>) {
  const history = useScopedUseCase(TOKENS.TcUsedHistory);
  const lots = useObservableState(history.freeLots$, history.freeLots);
  return (
    <PagedHistoryModal id="tc-history" title={H.tcTitle} empty={H.tcEmpty} history={history}>
      {(entries) => (
        <>
          <FreeLots lots={lots} />
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
                  <td>
                    {H.reasons[e.reason] ?? H.reasonOther}
                    {e.freeExpiresAt !== undefined ? (
                      <small className="history__note history__note--line">{freeEnd(e.freeExpiresAt)}</small>
                    ) : null}
                  </td>
                  <td className="history__num">{signed(e.freeDelta)}</td>
                  <td className="history__num">{signed(e.tollDelta)}</td>
                  <td className="history__num">{formatThousands(e.balanceAfter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </PagedHistoryModal>
  );
}
