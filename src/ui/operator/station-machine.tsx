import type {
  FloorStation,
  MachineActionName,
  MachinesData,
  OperatorFloor,
  OperatorMachines,
  ScreenState,
  StationAgentView,
  StationCameraView,
  StationChange,
  ActionState,
} from '../../application/operator';
import { ActionOutcome } from './common';
import { OP } from './operator.messages';
import { useAsk } from './station-actions';

const M = OP.machine;
const F = OP.floor;

/** A heartbeat older than this is drawn as a warning (pings go every 500 ms; silent at 3 s). */
const LATE_HEARTBEAT_MS = 1_500;

export interface MachineProps {
  readonly station: FloorStation;
  readonly machines: OperatorMachines;
  readonly machinesState: ScreenState<MachinesData, MachineActionName>;
  readonly floor: OperatorFloor;
  /** A floor action is running (the pause waits for it; the emergency stop never does). */
  readonly floorBusy: boolean;
}

function describeMachineAction(action: ActionState<MachineActionName>): string {
  if (!action.name) return '';
  if (action.name !== 'emergencyStop') return M.done[action.name];
  const change = action.result as StationChange;
  const refund = change.refunded_play_id === null ? F.done.noRefund : F.done.refunded(change.refunded_play_id);
  return `${M.done.emergencyStop} ${refund}`;
}

/**
 * A station's machine controls, at the top of its card: the emergency stop (one click, no dialog: it
 * must never wait for a confirmation [R11-3]), and once stopped a banner until an operator resumes it
 * (confirmed); the claw home; "finish this play, then stop" (the floor's pause).
 */
export function MachineControls(props: MachineProps) {
  const { station: s, machines, machinesState, floor, floorBusy } = props;
  const ask = useAsk();
  const machineBusy = machinesState.action.status === 'running';
  // The floor shows the stop at once (its channel says so too; this does not wait for it).
  const thenFloor = (run: () => Promise<unknown>) => async () => {
    await run();
    await floor.refresh();
  };
  const stop = thenFloor(() => machines.emergencyStop(s.station_id));
  return (
    <div className="op-machine" data-testid="op-machine">
      {s.emergency_stopped ? (
        <p className="op-machine__stopped" data-testid="op-machine-stopped">
          {M.stoppedLead}
        </p>
      ) : null}
      <div className="op-actions__row">
        <button
          type="button"
          className="op-button op-button--estop"
          aria-label={M.emergencyStopLabel(s.station_id)}
          onClick={() => void stop()}
        >
          {M.emergencyStop}
        </button>
        {s.emergency_stopped ? (
          <button
            type="button"
            className="op-button op-button--primary"
            disabled={machineBusy}
            onClick={() =>
              void ask(
                M.confirm.resume(s.station_id),
                thenFloor(() => machines.resume(s.station_id)),
              )
            }
          >
            {M.resume}
          </button>
        ) : null}
        <button
          type="button"
          className="op-button"
          disabled={machineBusy || s.play !== null}
          onClick={() => void ask(M.confirm.home(s.station_id), () => machines.home(s.station_id))}
        >
          {M.home}
        </button>
        <button
          type="button"
          className="op-button"
          disabled={floorBusy}
          onClick={() =>
            void ask(
              s.paused ? M.confirm.finishThenStopOff(s.station_id) : M.confirm.finishThenStop(s.station_id),
              () => floor.pause(s.station_id, !s.paused),
            )
          }
        >
          {s.paused ? M.finishThenStopOff : M.finishThenStop}
        </button>
      </div>
      {machinesState.data.target === s.station_id ? (
        <ActionOutcome
          action={machinesState.action}
          describe={describeMachineAction}
          onDismiss={() => machines.dismissAction()}
        />
      ) : null}
    </div>
  );
}

/** The machine's facts: its agent's driver, its connection and heartbeat, and the sensor view. */
export function MachineFacts({
  station: s,
  agent,
  cameras,
  readAt,
}: {
  station: FloorStation;
  agent: StationAgentView | null;
  /** The station's cameras that are published or watched now. */
  cameras: readonly StationCameraView[];
  /** When the agents were read; null before the first read ("not connected" would be a guess then). */
  readAt: number | null;
}) {
  return (
    <div className="op-machine__facts">
      <h3 className="op-subtitle">
        {M.title}
        {s.emergency_stopped ? <span className="op-badge op-badge--stop">{M.stopped}</span> : null}
      </h3>
      <dl className="op-facts" data-testid="op-machine-facts">
        <dt>{M.driver}</dt>
        <dd>{agent ? M.agentDriver(agent.driver) : M.noDriver}</dd>
        <AgentFacts agent={agent} readAt={readAt} />
        {readAt === null
          ? null
          : (['front', 'side'] as const).map((name) => (
              <CameraFacts key={name} name={name} camera={cameras.find((c) => c.camera === name) ?? null} />
            ))}
      </dl>
    </div>
  );
}

/** One camera: publishing or not, from what, its codec, bitrate, frame rate and last keyframe. */
function CameraFacts({ name, camera }: { name: 'front' | 'side'; camera: StationCameraView | null }) {
  return (
    <>
      <dt>{M.cameraName[name]}</dt>
      <dd data-testid={`op-camera-${name}`}>
        {camera === null ? (
          M.cameraUnwatched
        ) : (
          <>
            <span className={camera.publishing ? 'op-badge op-badge--ok' : 'op-badge op-badge--warn'}>
              {camera.publishing ? M.cameraPublishing : M.cameraSilent}
            </span>{' '}
            {M.cameraLine(
              camera.source,
              camera.codec,
              camera.kbps,
              camera.fps,
              camera.last_keyframe_at === null ? null : OP.at(camera.last_keyframe_at),
              camera.viewers,
              camera.stills,
            )}
          </>
        )}
      </dd>
    </>
  );
}

function AgentFacts({ agent, readAt }: { agent: StationAgentView | null; readAt: number | null }) {
  if (!agent || readAt === null)
    return (
      <>
        <dt>{M.connection}</dt>
        <dd data-testid="op-machine-connection">
          <span className="op-badge op-badge--warn">{readAt !== null ? M.notConnected : M.notRead}</span>
        </dd>
      </>
    );
  const outputs = agent.outputs.map((o) => M.outputNames[o]).join(M.outputSeparator) || M.noOutputs;
  return (
    <>
      <dt>{M.connection}</dt>
      <dd data-testid="op-machine-connection">
        <span className="op-badge op-badge--ok">{M.connected}</span> {M.connectedSince(OP.at(agent.connected_at))}
      </dd>
      <dt>{M.agent}</dt>
      <dd>{M.agentName(agent.agent_name, agent.agent_version)}</dd>
      <dt>{M.key}</dt>
      <dd>{M.keyName(agent.key_name, agent.key_id)}</dd>
      <dt>{M.heartbeat}</dt>
      <dd>
        <HeartbeatAge msAgo={agent.last_heard_ms_ago} />
      </dd>
      <dt>{M.roundTrip}</dt>
      <dd data-testid="op-machine-rtt">{M.roundTripMs(agent.round_trip_ms)}</dd>
      <dt>{M.claw}</dt>
      <dd data-testid="op-machine-claw">{agent.claw ? M.claws[agent.claw] : M.noReport}</dd>
      <dt>{M.chute}</dt>
      <dd data-testid="op-machine-chute">
        {agent.sensor === null ? (
          M.noReport
        ) : (
          <span className={agent.sensor === 'clear' ? 'op-badge op-badge--ok' : 'op-badge op-badge--warn'}>
            {M.chutes[agent.sensor]}
          </span>
        )}
      </dd>
      <dt>{M.outputs}</dt>
      <dd data-testid="op-machine-outputs">
        {outputs}
        {agent.stopped ? <span className="op-badge op-badge--stop">{M.agentStopped}</span> : null}
      </dd>
      <dt>{M.machinePlay}</dt>
      <dd>{agent.play_id === null ? M.noMachinePlay : `#${agent.play_id}`}</dd>
    </>
  );
}

/**
 * How long ago the agent was heard, as the server measured it at the last read. Not counted on by
 * this page: the agent has pinged since, and the next read (2 s) says so.
 */
function HeartbeatAge({ msAgo }: { msAgo: number }) {
  return (
    <span className={msAgo > LATE_HEARTBEAT_MS ? 'op-badge op-badge--warn' : undefined} data-testid="op-machine-heard">
      {M.heardAgo((msAgo / 1000).toFixed(1))}
    </span>
  );
}
