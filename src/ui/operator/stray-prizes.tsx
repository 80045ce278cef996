import type { FloorStation, OperatorFloor } from '../../application/operator';
import { OP } from './operator.messages';
import { useAsk } from './station-actions';

const F = OP.floor;
const S = F.stray;

/**
 * The prizes the chute saw that no running play took (after a result, between plays): each until
 * an operator gives it to the named play's player or records it put back in the machine.
 */
export function StrayPrizes({
  station: s,
  floor,
  busy,
}: {
  station: FloorStation;
  floor: OperatorFloor;
  busy: boolean;
}) {
  const ask = useAsk();
  if (s.stray_prizes.length === 0) return null;
  return (
    <section className="op-stray" aria-label={S.title(s.stray_prizes.length)} data-testid="op-stray-prizes">
      <h3 className="op-subtitle">{S.title(s.stray_prizes.length)}</h3>
      <p className="op-note">{S.note}</p>
      <ul className="op-stray__list">
        {s.stray_prizes.map((p) => (
          <li key={p.stray_id} data-testid="op-stray-prize">
            <span>
              {S.entry(p.stray_id, OP.at(p.seen_at))}{' '}
              {p.play_id !== null && p.nickname !== null
                ? S.play(p.play_id, p.nickname, OP.playLog.result[p.play_result ?? 'none'] ?? OP.playLog.result.none!)
                : S.noPlay}
            </span>
            <span className="op-stray__actions">
              {p.user_id !== null && p.nickname !== null ? (
                <button
                  type="button"
                  className="op-button op-button--small"
                  disabled={busy}
                  onClick={() =>
                    void ask(S.confirmAward(p.stray_id, p.nickname!), () =>
                      floor.settleStrayPrize(s.station_id, p.stray_id, 'award'),
                    )
                  }
                >
                  {S.award}
                  <span className="op-visually-hidden">{S.whose(p.stray_id)}</span>
                </button>
              ) : null}
              <button
                type="button"
                className="op-button op-button--small"
                disabled={busy}
                onClick={() =>
                  void ask(S.confirmReturn(p.stray_id), () =>
                    floor.settleStrayPrize(s.station_id, p.stray_id, 'return'),
                  )
                }
              >
                {S.return}
                <span className="op-visually-hidden">{S.whose(p.stray_id)}</span>
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
