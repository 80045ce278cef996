import type { AgentClawPhase, AgentCommand, AgentRefusal, StationCapabilities } from '../../src/contract/agent.schema';
import {
  CRANE,
  command as craneCommand,
  dropNow,
  layPrizes,
  letGo,
  startPlay,
  tick as craneTick,
  type CranePhase,
  type CranePrize,
  type CraneState,
} from '../../src/domain/play/crane-machine';
import type { CameraScene } from '../../media/cameras/camera-renderer';
import type { AgentClock, AgentTimer } from '../agent-clock';
import type { CommandOutcome, MachineDriver, MachineEvents, MachineOutput, MachineStatus } from '../machine-driver';

/*
 * Driver `sim`: one simulated cabinet per station on the pure crane physics of
 * src/domain/play/crane-machine.ts, run with manual buttons (the server keeps the button limit and
 * presses for an absent player, as it would on a real cabinet). It reports through the same events a
 * real cabinet's driver does: the win is its chute sensor's `prize`, not the physics' outcome.
 */

/** How long a falling prize keeps the simulated chute sensor blocked. */
export const SIM_SENSOR_HOLD_MS = 300;
/** Prizes on a field laid without the server's `sim` parameters. */
const DEFAULT_FIELD_PRIZES = 3;
const DEFAULT_SEED = 1;

const PHASES: Readonly<Record<CranePhase, AgentClawPhase>> = {
  ready: 'ready',
  movingRight: 'moving_right',
  waitBack: 'wait_back',
  movingBack: 'moving_back',
  dropping: 'dropping',
  closing: 'closing',
  lifting: 'lifting',
  returning: 'returning',
  opening: 'opening',
  done: 'idle',
};

/** What a simulated cabinet's cameras see now: the scene to paint, a key that changes with it, the tick. */
export interface SimView {
  readonly scene: CameraScene;
  readonly key: string;
  readonly tick: number;
}

/** The sim driver, with a test-only hand on the chute sensor. */
export interface SimDriver extends MachineDriver {
  /** Holds the chute sensor blocked (a hand or a stuck prize in the chute), or lets it go. Tests only. */
  blockSensor(stationId: number, blocked: boolean): void;
  /** What the station's cameras see now (agent/sim-cameras.ts paints it); null for a station not served. */
  view(stationId: number): SimView | null;
  /** Tells `listener` after each tick of a station's machine (its cameras send the new picture at once). */
  onTick(listener: (stationId: number) => void): void;
}

interface Cabinet {
  readonly stationId: number;
  /** The running play's machine; null while idle (claw home, no play). */
  crane: CraneState | null;
  playId: number | null;
  /** The field while no play runs (a play starts from the layout it is given). */
  field: readonly CranePrize[];
  stopped: boolean;
  /** A prize passing the chute sensor: blocked until this timer fires. */
  sensorHold: AgentTimer | null;
  /** The test's hand in the chute. */
  sensorForced: boolean;
  ticker: AgentTimer | null;
  /** When the next tick is due on the clock: ticks keep their pace however late a timer fires. */
  nextTickAt: number;
}

type PlayCommand = Extract<AgentCommand, { type: 'press' | 'release' | 'drop' }>;

const refuse = (reason: AgentRefusal): CommandOutcome => ({ ok: false, reason });

/** The button the claw moves on: what a cabinet's relay would have energised. */
function heldOutputs(crane: CraneState | null): MachineOutput[] {
  if (!crane) return [];
  if (crane.phase === 'movingRight') return ['right'];
  if (crane.phase === 'movingBack') return ['back'];
  return [];
}

function statusOf(c: Cabinet): MachineStatus {
  const s = c.crane;
  return {
    playId: c.playId,
    claw: s ? PHASES[s.phase] : 'idle',
    sensor: c.sensorForced || c.sensorHold ? 'blocked' : 'clear',
    stopped: c.stopped,
    outputs: c.stopped ? [] : heldOutputs(s),
    clawPosition: s ? { x: s.x, z: s.z, h: s.h, grip: s.grip } : { ...CRANE.home, h: 0, grip: 0 },
    sim: { tick: s?.tick ?? 0, prizes: s ? s.prizes : c.field },
  };
}

const moved = (a: CraneState, b: CraneState): boolean => a.x !== b.x || a.z !== b.z || a.h !== b.h || a.grip !== b.grip;

/**
 * Creates the simulated cabinets of `stations`, ticking on `clock` while a play runs. With `cameras`
 * it announces that it publishes their cameras (the agent paints them, agent/sim-cameras.ts).
 */
export function createSimDriver(
  stations: readonly { readonly station_id: number }[],
  clock: AgentClock,
  options: { readonly cameras?: boolean } = {},
): SimDriver {
  const tickListeners: ((stationId: number) => void)[] = [];
  const cabinets = new Map<number, Cabinet>();
  for (const { station_id } of stations) {
    cabinets.set(station_id, {
      stationId: station_id,
      crane: null,
      playId: null,
      field: defaultField(station_id),
      stopped: false,
      sensorHold: null,
      sensorForced: false,
      ticker: null,
      nextTickAt: 0,
    });
  }
  let events: MachineEvents | null = null;

  const report = (c: Cabinet): void => events?.status(c.stationId, statusOf(c));

  const schedule = (c: Cabinet): void => {
    if (c.ticker || !c.crane || c.stopped) return;
    c.ticker = clock.setTimeout(
      () => {
        c.ticker = null;
        step(c);
        schedule(c);
      },
      Math.max(0, c.nextTickAt - clock.now()),
    );
  };
  const restartTicks = (c: Cabinet): void => {
    c.nextTickAt = clock.now() + CRANE.tickMs;
    schedule(c);
  };
  const stopTicks = (c: Cabinet): void => {
    c.ticker?.cancel();
    c.ticker = null;
  };

  /** One tick of the physics, and what the cabinet's sensors would see of it. */
  const step = (c: Cabinet): void => {
    const prev = c.crane;
    if (!prev) return;
    const next = craneTick(prev);
    c.crane = next;
    for (const listener of tickListeners) listener(c.stationId);
    // A timer fired late (a busy event loop): start the pace again rather than tick in a burst.
    c.nextTickAt = Math.max(c.nextTickAt + CRANE.tickMs, clock.now());
    const won = next.outcome?.wonPrizeId ?? null;
    if (won !== null && (prev.outcome?.wonPrizeId ?? null) === null) prizeFell(c, won);
    if (next.phase === 'done') {
      c.field = next.prizes;
      c.crane = null;
      c.playId = null;
      report(c);
      return;
    }
    if (won !== null || next.phase !== prev.phase || moved(prev, next)) report(c);
  };

  /** The prize passes the chute sensor: it blocks for a moment, and that edge is the win. */
  const prizeFell = (c: Cabinet, prizeId: number): void => {
    c.sensorHold?.cancel();
    c.sensorHold = clock.setTimeout(() => {
      c.sensorHold = null;
      report(c);
    }, SIM_SENSOR_HOLD_MS);
    events?.prize(c.stationId, c.playId, prizeId);
  };

  /** Lets go of the held button, as a release would; true when one was held. */
  const release = (c: Cabinet): boolean => {
    if (!c.crane) return false;
    const { state, input } = letGo(c.crane);
    c.crane = state;
    return input !== null;
  };

  const toHome = (c: Cabinet): void => {
    if (c.crane) c.field = c.crane.prizes;
    c.crane = null;
    c.playId = null;
    stopTicks(c);
  };

  const startOn = (c: Cabinet, command: Extract<AgentCommand, { type: 'start' }>): CommandOutcome => {
    if (c.crane) return refuse('not_ready');
    if (statusOf(c).sensor === 'blocked') return refuse('sensor_blocked');
    const layout = command.sim?.layout ?? defaultField(c.stationId);
    const seed = command.sim?.seed ?? DEFAULT_SEED;
    c.crane = startPlay(layout, command.arm_strength, seed, true);
    c.playId = command.play_id;
    restartTicks(c);
    return { ok: true, tick: 0 };
  };

  /** press, release and drop: only on the running play. */
  const onPlay = (c: Cabinet, command: PlayCommand): CommandOutcome => {
    const s = c.crane;
    if (!s || command.play_id !== c.playId) return refuse('not_ready');
    const next = command.type === 'drop' ? dropNow(s) : craneCommand(s, command.button, command.type);
    if (!next) return refuse('not_ready');
    c.crane = next;
    return { ok: true, tick: s.tick };
  };

  const carryOut = (stationId: number, command: AgentCommand): CommandOutcome => {
    const c = cabinets.get(stationId);
    if (!c) return refuse('unknown_station');
    const outcome = dispatch(c, command);
    if (outcome.ok) report(c);
    return outcome;
  };

  const dispatch = (c: Cabinet, command: AgentCommand): CommandOutcome => {
    switch (command.type) {
      case 'stop':
        // Outputs off first, then freeze the claw where it is.
        release(c);
        stopTicks(c);
        c.stopped = true;
        return { ok: true, tick: c.crane?.tick ?? 0 };
      case 'resume':
        c.stopped = false;
        if (c.crane) restartTicks(c);
        return { ok: true, tick: c.crane?.tick ?? 0 };
      case 'home':
        if (c.crane && !c.stopped) return refuse('not_ready');
        toHome(c);
        return { ok: true };
    }
    if (c.stopped) return refuse('stopped');
    return command.type === 'start' ? startOn(c, command) : onPlay(c, command);
  };

  return {
    name: 'sim',
    stations: [...cabinets.keys()].map((station_id): StationCapabilities => ({
      station_id,
      position: true,
      phases: true,
      chute_sensor: true,
      arm_strength: true,
      ...(options.cameras ? { cameras: true } : {}),
    })),
    view(stationId) {
      const c = cabinets.get(stationId);
      if (!c) return null;
      const s = c.crane;
      const scene: CameraScene = s
        ? {
            x: s.x,
            z: s.z,
            h: s.h,
            grip: s.grip,
            prizes: s.prizes,
            carryingPrizeId: s.carrying?.prizeId ?? null,
            dimmed: false,
          }
        : { ...CRANE.home, h: 0, grip: 0, prizes: c.field, carryingPrizeId: null, dimmed: false };
      // What the picture shows, not the tick: a machine waiting for a button is drawn once.
      const key = `${c.playId ?? 'idle'}:${scene.x}:${scene.z}:${scene.h}:${scene.grip}:${scene.carryingPrizeId ?? ''}:${scene.prizes.map((p) => `${p.id},${p.x},${p.z}`).join(';')}`;
      return { scene, key, tick: s?.tick ?? 0 };
    },
    onTick(listener) {
      tickListeners.push(listener);
    },
    start(machineEvents) {
      events = machineEvents;
      return Promise.resolve();
    },
    status(stationId) {
      const c = cabinets.get(stationId);
      if (!c) throw new RangeError(`sim driver: station ${stationId} is not served`);
      return statusOf(c);
    },
    carryOut,
    releaseAll() {
      for (const c of cabinets.values()) if (release(c)) report(c);
    },
    release(stationId) {
      const c = cabinets.get(stationId);
      if (c && release(c)) report(c);
    },
    blockSensor(stationId, blocked) {
      const c = cabinets.get(stationId);
      if (!c) return;
      c.sensorForced = blocked;
      report(c);
    },
    close() {
      for (const c of cabinets.values()) {
        release(c);
        stopTicks(c);
        c.sensorHold?.cancel();
        c.sensorHold = null;
      }
      events = null;
      return Promise.resolve();
    },
  };
}

/** The field a station's cabinet lays without the server's `sim` parameters (as the server seeds it). */
function defaultField(stationId: number): CranePrize[] {
  return layPrizes(stationId * 7919, DEFAULT_FIELD_PRIZES, 1);
}
