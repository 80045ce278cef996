import { useId } from 'react';
import type {
  FloorStation,
  MachineActionName,
  MachinesData,
  OperatorFloor,
  OperatorMachines,
  ScreenState,
} from '../../application/operator';
import { countdownSeconds, SETTINGS_CHANGE_REASON_LABELS, settingChangeText } from '../../domain';
import { useNow } from '../hooks/use-now';
import { OP } from './operator.messages';
import { StationActions, useAsk } from './station-actions';
import { StationFeedFacts } from './station-feed';
import { MachineControls, MachineFacts } from './station-machine';
import { StrayPrizes } from './stray-prizes';
import { AssistRequest } from './staff-assists';
import { StationStill } from './station-still';

const F = OP.floor;

/** One station on the floor: its machine's controls, its still, its facts and play, its machine, its line, and its actions. */
export function StationCard({
  station: s,
  floor,
  readAt,
  busy,
  onLog,
  machines,
  machinesState,
}: {
  station: FloorStation;
  floor: OperatorFloor;
  readAt: number;
  busy: boolean;
  onLog: () => void;
  machines: OperatorMachines;
  machinesState: ScreenState<MachinesData, MachineActionName>;
}) {
  const headingId = `${useId()}-h`;
  const agent = machinesState.data.agents.find((a) => a.station_id === s.station_id) ?? null;
  return (
    <article aria-labelledby={headingId}>
      <h2 id={headingId} className="op-station__title">
        {F.stationHeading(s.station_id, s.station_name)}
      </h2>
      <MachineControls station={s} machines={machines} machinesState={machinesState} floor={floor} floorBusy={busy} />
      <StationStill url={s.still_url} name={s.station_name} />
      <AssistRequest station={s} floor={floor} readAt={readAt} busy={busy} />
      <StationFacts station={s} readAt={readAt} />
      <StrayPrizes station={s} floor={floor} busy={busy} />
      <MachineFacts
        station={s}
        agent={agent}
        cameras={machines.camerasOf(s.station_id)}
        readAt={machinesState.data.readAt}
      />
      <StationFeedFacts
        feed={machines.feedOf(s.station_id)}
        cameras={machines.camerasOf(s.station_id)}
        readAt={machinesState.data.readAt}
      />
      <h3 className="op-subtitle">{F.line}</h3>
      <StationLine station={s} floor={floor} busy={busy} />
      <StationActions station={s} floor={floor} busy={busy} onLog={onLog} />
    </article>
  );
}

function StationFacts({ station: s, readAt }: { station: FloorStation; readAt: number }) {
  return (
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
      {s.arm_strength !== undefined && s.play_price !== undefined ? (
        <>
          <dt>{F.settingsFacts}</dt>
          <dd data-testid="op-settings">
            {F.settingsNow(s.arm_strength, s.play_price, s.settings_version ?? 0)}
            {s.assist_misses !== undefined ? F.assistMissesNow(s.assist_misses) : null}
            {s.pending_settings ? (
              <span className="op-badge op-badge--warn" data-testid="op-settings-pending">
                {F.settingsPending(
                  s.pending_settings.changes.map(settingChangeText).join('、'),
                  SETTINGS_CHANGE_REASON_LABELS[s.pending_settings.reason],
                )}
              </span>
            ) : null}
          </dd>
        </>
      ) : null}
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
  );
}

/** The station's line, each player with a button that takes them out of it. */
function StationLine({ station: s, floor, busy }: { station: FloorStation; floor: OperatorFloor; busy: boolean }) {
  const ask = useAsk();
  if (s.line.length === 0) return <p className="op-note">{F.lineEmpty}</p>;
  return (
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
  );
}

/** A play's window counting down from the floor's `ms_left` as read at `readAt`. */
function WindowTimer({ msLeft, readAt }: { msLeft: number; readAt: number }) {
  const now = useNow(true);
  return (
    <span className="op-timer" role="timer" aria-live="off">
      {F.msLeft(countdownSeconds(msLeft, readAt, now))}
    </span>
  );
}
