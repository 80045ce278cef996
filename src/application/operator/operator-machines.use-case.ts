import { inject, injectable } from 'inversify';
import { BehaviorSubject, distinctUntilChanged, EMPTY, exhaustMap, switchMap, timer } from 'rxjs';
import type { ClockPort } from '../ports/clock.port';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type {
  MachineAction,
  OperatorApiPort,
  StationAgentView,
  StationCameraView,
  StationChange,
  StationFeedView,
} from './ports/operator-api.port';

export interface MachinesData {
  /** The agents driving stations now, one per station. */
  readonly agents: readonly StationAgentView[];
  /** The stations' cameras that are published or watched now. */
  readonly cameras: readonly StationCameraView[];
  /** Each station's spectators by kind and its last plays' clips. */
  readonly feeds: readonly StationFeedView[];
  /** When they were last read (ClockPort; null before the first read): a heartbeat's age counts on from here. */
  readonly readAt: number | null;
  /** The station of the last machine action (its outcome is shown there), or null. */
  readonly target: number | null;
}

export type MachineActionName = 'emergencyStop' | 'resume' | 'home';

/**
 * How often the agents are read while the page is visible. Nothing pushes an agent's heartbeat or
 * its sensor reports to the consoles (the floor channel tells of lines, plays and statuses), and
 * the server counts an agent silent after 3 s: a read every 2 s shows a silence before it ends.
 */
export const MACHINES_POLL_MS = 2_000;

/**
 * The stations' machines on the floor (docs/operator-console.md, issue 42): every connected agent
 * with its version, driver, heartbeat and round trip and the machine's last report (the sensor
 * view) and each station's spectators and recordings, read every MACHINES_POLL_MS while the page
 * is visible; and the machine's controls: an
 * emergency stop (never held back by another action [R11-3]), its end, the claw home, and the
 * driver (admins).
 */
@injectable()
export class OperatorMachines extends OperatorScreen<MachinesData, MachineActionName> {
  private readonly visible = new BehaviorSubject(true);
  private started = false;
  private target: number | null = null;

  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort)
    private readonly api: Pick<OperatorApiPort, 'stationAgents' | 'stationCameras' | 'stationFeeds' | 'stationMachine'>,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
    @inject(OPERATOR_TOKENS.ClockPort) private readonly clock: Pick<ClockPort, 'now'>,
  ) {
    super(session, { agents: [], cameras: [], feeds: [], readAt: null, target: null });
  }

  /** Reads the agents now and every MACHINES_POLL_MS while visible, until disposed. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.own(
      this.visible
        .pipe(
          distinctUntilChanged(),
          switchMap((visible) => (visible ? timer(0, MACHINES_POLL_MS) : EMPTY)),
          // A slow answer is not queued behind: the next tick after it reads again.
          exhaustMap(() => this.refresh()),
          this.untilDisposed(),
        )
        .subscribe(),
    );
  }

  /** The page is shown or hidden: a hidden page reads nothing, a page shown again reads at once. */
  setVisible(visible: boolean): void {
    this.visible.next(visible);
  }

  refresh(): Promise<void> {
    return this.load(async () => {
      const [agents, cameras, feeds] = await Promise.all([
        this.api.stationAgents(),
        this.api.stationCameras(),
        this.api.stationFeeds(),
      ]);
      return { agents, cameras, feeds, readAt: this.clock.now(), target: this.target };
    });
  }

  /** The station's cameras that are published or watched now (front first). */
  camerasOf(stationId: number): readonly StationCameraView[] {
    return this.snapshot.data.cameras
      .filter((c) => c.station_id === stationId)
      .sort((a, b) => a.camera.localeCompare(b.camera));
  }

  /** The station's spectators and recordings as last read, or null before the first read. */
  feedOf(stationId: number): StationFeedView | null {
    return this.snapshot.data.feeds.find((f) => f.station_id === stationId) ?? null;
  }

  /** The agent driving `stationId` now, or null. */
  agentOf(stationId: number): StationAgentView | null {
    return this.snapshot.data.agents.find((a) => a.station_id === stationId) ?? null;
  }

  /** Stops the machine at once: every output released, the play under way refunded once, out of service until resumed. */
  emergencyStop(stationId: number): Promise<StationChange | null> {
    return this.machine(stationId, 'emergencyStop', 'emergency_stop', true);
  }
  /** Ends the emergency stop: the station takes turns again once its machine reports home and clear. */
  resume(stationId: number): Promise<StationChange | null> {
    return this.machine(stationId, 'resume', 'resume');
  }
  /** Brings the claw home (refused while a play runs). */
  home(stationId: number): Promise<StationChange | null> {
    return this.machine(stationId, 'home', 'home');
  }

  private machine(
    stationId: number,
    name: MachineActionName,
    action: MachineAction,
    urgent = false,
  ): Promise<StationChange | null> {
    return this.acting(stationId, name, () => this.api.stationMachine(stationId, action), urgent);
  }

  private async acting(
    stationId: number,
    name: MachineActionName,
    run: () => Promise<StationChange>,
    urgent = false,
  ): Promise<StationChange | null> {
    if (this.snapshot.action.status === 'running' && !urgent) return null;
    // The call goes out before the state changes: nothing the page redraws delays a stop.
    const call = run();
    this.target = stationId;
    this.setState((s) => ({ ...s, data: { ...s.data, target: stationId } }));
    const done = await this.act(name, () => call, urgent);
    // The agent reports the change within moments: read it now rather than at the next tick.
    if (done !== null) void this.refresh();
    return done;
  }

  override dismissAction(): void {
    super.dismissAction();
    this.target = null;
    this.setState((s) => ({ ...s, data: { ...s.data, target: null } }));
  }
}
