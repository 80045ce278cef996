import { useId } from 'react';
import type {
  OperatorPlayClip,
  OperatorPlayLog,
  OperatorPlayLogEntry,
  PlayClipView,
  ReplayedPlay,
} from '../../application/operator';
import { crane, STAFF_ASSIST_OUTCOME_LABELS, type PlayLogEntry } from '../../domain';
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
                <th scope="col">{L.clip}</th>
              </tr>
            </thead>
            <tbody>
              {state.entries.map((e) => (
                <PlayLogRow
                  key={e.play_id}
                  entry={e}
                  replayed={state.replays[e.play_id]}
                  onReplay={() => log.replay(e.play_id)}
                  onClip={() => void log.showClip(e.play_id)}
                />
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      {state.clip ? (
        <PlayClipPane
          view={state.clip}
          entry={state.entries.find((e) => e.play_id === state.clip!.playId) ?? null}
          onClose={() => log.hideClip()}
        />
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
  onClip,
}: {
  entry: OperatorPlayLogEntry;
  replayed: ReplayedPlay | undefined;
  onReplay: () => void;
  onClip: () => void;
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
      <td data-testid="op-playlog-clip">
        {e.clip?.status === 'ready' ? (
          <button
            type="button"
            className="op-button op-button--small"
            onClick={onClip}
            aria-label={L.clipOf(e.play_id)}
          >
            {L.clip}
          </button>
        ) : (
          <span className={e.clip ? 'op-badge op-badge--warn' : 'op-note'}>
            {L.clipStatus[e.clip?.status ?? 'none']}
          </span>
        )}
      </td>
    </tr>
  );
}

/**
 * A play's clip beside what decided the play (docs/clips.md): each camera's video with the
 * browser's controls, and the play's settings from its log entry (price, arm strength, seed…).
 */
function PlayClipPane({
  view,
  entry,
  onClose,
}: {
  view: PlayClipView;
  entry: OperatorPlayLogEntry | null;
  onClose: () => void;
}) {
  const headingId = useId();
  return (
    <section className="op-clip" aria-labelledby={headingId} data-testid="op-playlog-clip-pane">
      <h3 id={headingId} className="op-subtitle">
        {L.clipTitle(view.playId)}
      </h3>
      <div className="op-clip__body">
        <div className="op-clip__videos">
          {view.status === 'loading' ? <p role="status">{L.clipLoading}</p> : null}
          {view.status === 'error' ? (
            <p role="alert" className="op-alert op-alert--error">
              {L.clipFailed(view.error)}
            </p>
          ) : null}
          {view.status === 'ready' ? <ClipVideos clip={view.clip} /> : null}
        </div>
        {entry ? <PlaySettings entry={entry} clip={view.status === 'ready' ? view.clip : null} /> : null}
      </div>
      <button type="button" className="op-button op-button--small" onClick={onClose}>
        {L.closeClip}
      </button>
    </section>
  );
}

function ClipVideos({ clip }: { clip: OperatorPlayClip }) {
  if (clip.status !== 'ready') return <p className="op-note">{L.clipNotReady[clip.status]}</p>;
  return (
    <>
      {(['front', 'side'] as const).map((camera) => {
        const url = clip.urls[camera];
        if (!url) return null;
        return (
          <figure key={camera} className="op-clip__video">
            <video
              controls
              preload="metadata"
              playsInline
              src={url}
              aria-label={L.clipVideo(clip.play_id, L.clipCamera[camera]!)}
              data-testid={`op-clip-video-${camera}`}
            />
            <figcaption>{L.clipCamera[camera]}</figcaption>
          </figure>
        );
      })}
    </>
  );
}

/** The play's settings as its log recorded them, and the clip's own facts once loaded. */
function PlaySettings({ entry: e, clip }: { entry: OperatorPlayLogEntry; clip: OperatorPlayClip | null }) {
  const C = L.clipFacts;
  return (
    <dl className="op-facts op-clip__facts" data-testid="op-clip-settings">
      <dt>{L.startedAt}</dt>
      <dd>{OP.at(e.started_at)}</dd>
      <dt>{C.prize}</dt>
      <dd>{e.prize_name}</dd>
      <dt>{L.price}</dt>
      <dd>{F.price(e.price, e.currency)}</dd>
      <dt>{L.arm}</dt>
      <dd>{e.arm_strength.toFixed(2)}</dd>
      <dt>{C.baseArm}</dt>
      <dd>{e.base_arm_strength.toFixed(2)}</dd>
      <dt>{C.assist}</dt>
      <dd>{e.assist_level}</dd>
      {e.settings_version !== undefined && e.settings_version !== null ? (
        <>
          <dt>{C.settingsVersion}</dt>
          <dd>{C.settingsVersionValue(e.settings_version)}</dd>
        </>
      ) : null}
      {e.staff_assist ? (
        <>
          <dt>{C.staffAssist}</dt>
          <dd data-testid="op-play-staff-assist">
            {C.staffAssistValue(
              e.staff_assist.misses,
              e.staff_assist.status === 'asked'
                ? C.staffAssistWaiting
                : STAFF_ASSIST_OUTCOME_LABELS[e.staff_assist.status],
            )}
          </dd>
        </>
      ) : null}
      <dt>{C.seed}</dt>
      <dd>{e.seed}</dd>
      <dt>{C.result}</dt>
      <dd>{L.result[e.result ?? 'none']}</dd>
      {clip ? (
        <>
          <dt>{C.player}</dt>
          <dd>#{clip.user_id}</dd>
          <dt>{C.length}</dt>
          <dd>{C.seconds(clip.duration_ms)}</dd>
          <dt>{C.size}</dt>
          <dd>{C.megabytes(clip.bytes)}</dd>
          <dt>{C.shared}</dt>
          <dd>{OP.yesNo(clip.shared === 1)}</dd>
          <dt>{C.expires}</dt>
          <dd>{clip.expires_at === null ? C.keptForever : OP.at(clip.expires_at)}</dd>
        </>
      ) : null}
    </dl>
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
