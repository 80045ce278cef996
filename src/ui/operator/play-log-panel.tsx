import { useId } from 'react';
import type { OperatorPlayLog, ReplayedPlay } from '../../application/operator';
import { crane, type PlayLogEntry } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { TableWrap } from './common';
import { OP } from './operator.messages';

const F = OP.floor;
const L = OP.playLog;

/** A station's play log, each play replayable in the browser, with the claw's path of the latest replay. */
export function PlayLogPanel({ log }: { log: OperatorPlayLog }) {
  const state = useObservableState(log.state$, log.snapshot);
  if (state.stationId === null) return null;
  return (
    <section className="op-card op-playlog" aria-labelledby="op-playlog-title" data-testid="op-playlog">
      <h2 id="op-playlog-title">{L.title(state.stationId)}</h2>
      {state.status === 'loading' ? <p role="status">{OP.loading}</p> : null}
      {state.status === 'error' ? (
        <p role="alert" className="op-alert op-alert--error">
          {OP.readFailed(state.error ?? '')}
        </p>
      ) : null}
      {state.status === 'ready' && state.entries.length === 0 ? <p>{L.empty}</p> : null}
      {state.entries.length > 0 ? (
        <TableWrap label={L.table(state.stationId)}>
          <table className="op-table">
            <thead>
              <tr>
                <th scope="col">{L.playId}</th>
                <th scope="col">{L.startedAt}</th>
                <th scope="col">{L.price}</th>
                <th scope="col">{L.arm}</th>
                <th scope="col">{L.logged}</th>
                <th scope="col">{L.replayed}</th>
              </tr>
            </thead>
            <tbody>
              {state.entries.map((e) => (
                <PlayLogRow
                  key={e.play_id}
                  entry={e}
                  replayed={state.replays[e.play_id]}
                  onReplay={() => log.replay(e.play_id)}
                />
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      {state.entries
        .filter((e) => state.replays[e.play_id])
        .slice(-1)
        .map((e) => (
          <ClawPath key={e.play_id} entry={e} replayed={state.replays[e.play_id]!} />
        ))}
    </section>
  );
}

function PlayLogRow({
  entry: e,
  replayed,
  onReplay,
}: {
  entry: PlayLogEntry;
  replayed: ReplayedPlay | undefined;
  onReplay: () => void;
}) {
  return (
    <tr data-testid="op-playlog-row">
      <th scope="row">#{e.play_id}</th>
      <td>{OP.at(e.started_at)}</td>
      <td>{F.price(e.price, e.currency)}</td>
      <td>{e.arm_strength.toFixed(2)}</td>
      <td>{L.result[e.result ?? 'none']}</td>
      <td>
        {replayed ? (
          <span data-testid="op-replayed">
            {L.result[replayed.result]}
            {replayed.matchesLog === null ? null : (
              <span className={replayed.matchesLog ? 'op-badge op-badge--ok' : 'op-badge op-badge--warn'}>
                {replayed.matchesLog ? L.match : L.mismatch}
              </span>
            )}
          </span>
        ) : (
          <button
            type="button"
            className="op-button op-button--small"
            onClick={onReplay}
            aria-label={L.replayOf(e.play_id)}
          >
            {L.replay}
          </button>
        )}
      </td>
    </tr>
  );
}

/** The claw's path seen from above: the field, the chute, the prizes where they lay, the path. */
function ClawPath({ entry, replayed }: { entry: PlayLogEntry; replayed: ReplayedPlay }) {
  const size = crane.CRANE.field;
  const titleId = useId();
  const descId = useId();
  // z runs back from the front glass: drawn upwards, so the front is at the bottom.
  const points = replayed.path.map((p) => `${p.x.toFixed(1)},${(size - p.z).toFixed(1)}`).join(' ');
  return (
    <figure className="op-clawpath">
      <svg
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
        className="op-clawpath__svg"
      >
        <title id={titleId}>{L.pathTitle(entry.play_id)}</title>
        <desc id={descId}>{L.pathDesc}</desc>
        <rect x={0} y={0} width={size} height={size} className="op-clawpath__field" />
        <rect
          x={0}
          y={size - crane.CRANE.chute.z1}
          width={crane.CRANE.chute.x1}
          height={crane.CRANE.chute.z1}
          className="op-clawpath__chute"
        />
        {entry.layout.map((p) => (
          <circle key={p.id} cx={p.x} cy={size - p.z} r={p.radius} className="op-clawpath__prize" />
        ))}
        <polyline points={points} className="op-clawpath__line" />
      </svg>
      <figcaption>{L.pathCaption(entry.play_id, L.result[replayed.result]!)}</figcaption>
    </figure>
  );
}
