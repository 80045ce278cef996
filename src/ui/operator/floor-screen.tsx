import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  OPERATOR_TOKENS,
  PRIZE_SHAPES,
  type ActionState,
  type FloorActionName,
  type FloorStation,
  type OperatorFloor,
  type OperatorPlayLog,
  type PrizeShapeName,
  type ReplayedPlay,
  type StationChange,
} from '../../application/operator';
import {
  countdownSeconds,
  crane,
  STATION_STATUSES,
  stillImageUrl,
  type PlayLogEntry,
  type StationStatus,
} from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useNow } from '../hooks/use-now';
import { useScopedUseCase } from '../hooks/use-scoped-use-case';
import { ActionOutcome, LoadState, TableWrap, useConfirm, useScreenTitle } from './common';
import { OP } from './operator.messages';

const F = OP.floor;

/** How often the feed thumbnails are fetched again. */
export const STILL_REFRESH_MS = 2_000;

function describeFloorAction(action: ActionState<FloorActionName>): string {
  const r = action.result;
  const refund = (c: StationChange) =>
    c.refunded_play_id === null ? F.done.noRefund : F.done.refunded(c.refunded_play_id);
  switch (action.name) {
    case 'fault':
      return `${F.done.fault} ${refund(r as StationChange)}`;
    case 'endPlay':
      return `${F.done.endPlay} ${refund(r as StationChange)}`;
    case 'removeFromLine':
      return r ? F.done.removeFromLine : F.done.removeFromLineNone;
    case 'pause':
      return r ? F.done.pause : F.done.resume;
    case 'status':
    case 'restock':
    case 'changePrize':
    case 'armStrength':
      return F.done[action.name];
    default:
      return '';
  }
}

/** フロア: one card per station, live, with the station actions and the play log with replays. */
export function FloorScreen() {
  useScreenTitle(F.title);
  const floor = useScopedUseCase(OPERATOR_TOKENS.OperatorFloor);
  const log = useScopedUseCase(OPERATOR_TOKENS.OperatorPlayLog);
  const state = useObservableState(floor.state$, floor.snapshot);
  useEffect(() => floor.start(), [floor]);
  const { stations, readAt, live } = state.data;
  const [onlyActive, setOnlyActive] = useState(false);
  const shown = onlyActive
    ? stations.filter((s) => s.play || s.line.length > 0 || s.paused || s.station_status !== 'open')
    : stations;
  return (
    <section aria-labelledby="op-floor-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-floor-title">{F.title}</h1>
        <p className={live ? 'op-badge op-badge--ok' : 'op-badge'} data-testid="op-floor-live">
          {live ? F.live : F.notLive}
        </p>
        <button type="button" className="op-button" onClick={() => void floor.refresh()}>
          {OP.reload}
        </button>
      </div>
      <div className="op-inline-form">
        <label className="op-check">
          <input type="checkbox" checked={onlyActive} onChange={(e) => setOnlyActive(e.target.checked)} />
          <span>{F.onlyActive}</span>
        </label>
        <p className="op-note" aria-live="polite">
          {F.shown(shown.length, stations.length)}
        </p>
      </div>
      <ActionOutcome action={state.action} describe={describeFloorAction} onDismiss={() => floor.dismissAction()} />
      {stations.length === 0 || state.status === 'error' ? (
        <LoadState state={state} onRetry={() => void floor.refresh()} />
      ) : null}
      <ul className="op-cards" aria-label={F.title}>
        {shown.map((s) => (
          <li key={s.station_id} className="op-card op-station" data-testid="op-station">
            <StationCard
              station={s}
              floor={floor}
              readAt={readAt}
              busy={state.action.status === 'running'}
              onLog={() => void log.open(s.station_id)}
            />
          </li>
        ))}
      </ul>
      <PlayLogPanel log={log} />
    </section>
  );
}

function StationCard({
  station: s,
  floor,
  readAt,
  busy,
  onLog,
}: {
  station: FloorStation;
  floor: OperatorFloor;
  readAt: number;
  busy: boolean;
  onLog: () => void;
}) {
  const confirm = useConfirm();
  const id = useId();
  const [status, setStatus] = useState<StationStatus>(s.station_status);
  const [stock, setStock] = useState(String(s.stock));
  const [arm, setArm] = useState('0.5');
  const [prizeName, setPrizeName] = useState(s.prize_name);
  const [shape, setShape] = useState<PrizeShapeName>('plush');
  const [prizeStock, setPrizeStock] = useState(String(s.stock));
  const headingId = `${id}-h`;
  const ask = async (body: string, run: () => Promise<unknown>, danger = false) => {
    if (await confirm({ body, danger })) await run();
  };
  const submit = (run: () => Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return (
    <article aria-labelledby={headingId}>
      <h2 id={headingId} className="op-station__title">
        {F.stationHeading(s.station_id, s.station_name)}
      </h2>
      <StationStill url={s.still_url} name={s.station_name} />
      <dl className="op-facts">
        <dt>{F.prize}</dt>
        <dd>{s.prize_name}</dd>
        <dt>{F.status}</dt>
        <dd data-testid="op-station-status">
          {OP.stationStatus[s.station_status]}
          {s.paused ? <span className="op-badge op-badge--warn">{F.paused}</span> : null}
        </dd>
        <dt>{F.stock}</dt>
        <dd>{OP.count(s.stock)}</dd>
        <dt>{F.viewers}</dt>
        <dd>{OP.count(s.viewers)}</dd>
        <dt>{F.play}</dt>
        <dd>
          {s.play ? (
            <>
              {F.playBy(s.play.nickname, s.play.play_id)} / {OP.phase[s.play.phase]}
              {s.play.ms_left !== null ? <WindowTimer msLeft={s.play.ms_left} readAt={readAt} /> : null} /{' '}
              {F.price(s.play.price, s.play.currency)}
            </>
          ) : (
            F.noPlay
          )}
        </dd>
      </dl>
      <h3 className="op-subtitle">{F.line}</h3>
      {s.line.length === 0 ? (
        <p className="op-note">{F.lineEmpty}</p>
      ) : (
        <ol className="op-line">
          {s.line.map((p) => (
            <li key={p.user_id}>
              <span>{F.lineEntry(p.place, p.nickname, p.user_id)}</span>
              <button
                type="button"
                className="op-button op-button--small"
                disabled={busy}
                onClick={() =>
                  void ask(
                    F.confirm.remove(s.station_id, p.nickname),
                    () => floor.removeFromLine(s.station_id, p.user_id),
                    true,
                  )
                }
              >
                {F.remove}
                <span className="op-visually-hidden">{F.whom(p.nickname)}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      <details className="op-actions">
        <summary>{F.actions}</summary>
        <div className="op-actions__row">
          <button
            type="button"
            className="op-button op-button--danger"
            disabled={busy}
            onClick={() => void ask(F.confirm.fault(s.station_id), () => floor.fault(s.station_id), true)}
          >
            {F.fault}
          </button>
          {s.play ? (
            <button
              type="button"
              className="op-button op-button--danger"
              disabled={busy}
              onClick={() =>
                void ask(
                  F.confirm.endPlay(s.station_id, s.play!.play_id),
                  () => floor.endPlay(s.station_id, s.play!.play_id),
                  true,
                )
              }
            >
              {F.endPlay}
            </button>
          ) : null}
          <button
            type="button"
            className="op-button"
            disabled={busy}
            onClick={() =>
              void ask(s.paused ? F.confirm.resume(s.station_id) : F.confirm.pause(s.station_id), () =>
                floor.pause(s.station_id, !s.paused),
              )
            }
          >
            {s.paused ? F.resume : F.pause}
          </button>
          <button type="button" className="op-button" onClick={onLog}>
            {F.playLog}
          </button>
        </div>
        <form
          className="op-inline-form"
          onSubmit={submit(() =>
            ask(F.confirm.status(s.station_id, OP.stationStatus[status]), () => floor.setStatus(s.station_id, status)),
          )}
        >
          <label className="op-field">
            <span>{F.newStatus}</span>
            <select value={status} onChange={(e) => setStatus(e.target.value as StationStatus)}>
              {STATION_STATUSES.map((v) => (
                <option key={v} value={v}>
                  {OP.stationStatus[v]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="op-button" disabled={busy}>
            {F.setStatus}
          </button>
        </form>
        <NumberActionForm
          label={F.stockValue}
          action={F.restock}
          value={stock}
          onChange={setStock}
          limits={{ min: 0, max: 9999, step: 1 }}
          busy={busy}
          onSubmit={submit(() =>
            ask(F.confirm.restock(s.station_id, Number(stock)), () => floor.restock(s.station_id, Number(stock))),
          )}
        />
        <NumberActionForm
          label={F.armValue}
          action={F.armStrength}
          value={arm}
          onChange={setArm}
          limits={{ min: 0, max: 1, step: 0.01 }}
          busy={busy}
          onSubmit={submit(() =>
            ask(F.confirm.armStrength(s.station_id, Number(arm)), () => floor.armStrength(s.station_id, Number(arm))),
          )}
        />
        <form
          className="op-inline-form op-inline-form--wide"
          onSubmit={submit(() =>
            ask(F.confirm.changePrize(s.station_id, prizeName), () =>
              floor.changePrize(s.station_id, { prize_name: prizeName, prize_shape: shape, stock: Number(prizeStock) }),
            ),
          )}
        >
          <label className="op-field">
            <span>{F.prizeName}</span>
            <input required maxLength={100} value={prizeName} onChange={(e) => setPrizeName(e.target.value)} />
          </label>
          <label className="op-field">
            <span>{F.prizeShape}</span>
            <select value={shape} onChange={(e) => setShape(e.target.value as PrizeShapeName)}>
              {PRIZE_SHAPES.map((v) => (
                <option key={v} value={v}>
                  {OP.shapes[v]}
                </option>
              ))}
            </select>
          </label>
          <label className="op-field">
            <span>{F.stockValue}</span>
            <input
              type="number"
              min={0}
              max={9999}
              step={1}
              required
              value={prizeStock}
              onChange={(e) => setPrizeStock(e.target.value)}
            />
          </label>
          <button type="submit" className="op-button" disabled={busy}>
            {F.changePrize}
          </button>
        </form>
      </details>
    </article>
  );
}

/** The front camera's still, fetched again every STILL_REFRESH_MS (its own tick: the card does not re-render). */
function StationStill({ url, name }: { url: string; name: string }) {
  const now = useNow(true, STILL_REFRESH_MS);
  return (
    <img
      className="op-station__still"
      src={stillImageUrl(url, Math.floor(now / STILL_REFRESH_MS) * STILL_REFRESH_MS)}
      alt={F.still(name)}
      width={320}
      height={240}
      loading="lazy"
    />
  );
}

/** A play's window counting down from the floor's `ms_left` as read at `readAt`. */
function WindowTimer({ msLeft, readAt }: { msLeft: number; readAt: number }) {
  const now = useNow(true);
  const seconds = countdownSeconds(msLeft, readAt, now);
  return (
    <span className="op-timer" role="timer" aria-live="off">
      {F.msLeft(seconds)}
    </span>
  );
}

const L = OP.playLog;

function PlayLogPanel({ log }: { log: OperatorPlayLog }) {
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

/** One number and the action that sets it (a station's stock, its arm strength), confirmed before it runs. */
function NumberActionForm({
  label,
  action,
  value,
  onChange,
  limits,
  busy,
  onSubmit,
}: {
  readonly label: string;
  readonly action: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly limits: { readonly min: number; readonly max: number; readonly step: number };
  readonly busy: boolean;
  readonly onSubmit: (event: FormEvent) => void;
}) {
  return (
    <form className="op-inline-form" onSubmit={onSubmit}>
      <label className="op-field">
        <span>{label}</span>
        <input
          type="number"
          min={limits.min}
          max={limits.max}
          step={limits.step}
          required
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <button type="submit" className="op-button" disabled={busy}>
        {action}
      </button>
    </form>
  );
}
