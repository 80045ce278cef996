import type { KujiDrawResult } from '../../domain';
import { formatThousands } from '../../domain';
import { KUJI as M } from '../kuji/kuji.messages';
import type { ModalComponentProps } from './registry';

/** Kuji history (spec §2.5): this box page's draws, newest first, each with its prizes and price. */
export default function KujiHistoryModal({
  props,
}: ModalComponentProps<{ readonly draws: readonly KujiDrawResult[] }>) {
  return (
    <div className="modal__body modal__body--scroll">
      <h2 className="dialog__title">{M.history}</h2>
      {props.draws.length === 0 ? (
        <p>{M.historyEmpty}</p>
      ) : (
        <ol className="kuji-history">
          {props.draws.map((d) => (
            <li key={d.draw_id}>
              <p className="kuji-history__head">{M.historyRow(d.tickets.length, formatThousands(d.price_total))}</p>
              <ul className="kuji-history__prizes">
                {d.tickets.map((t) => (
                  <li key={t.position ?? t.rank}>{M.boxChip(t.rank, t.prize_name)}</li>
                ))}
                {d.last_one ? <li>{M.boxChip(d.last_one.rank, d.last_one.prize_name)}</li> : null}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
