import type { CranePrize } from '../crane-machine';
import type { CraneButton } from '../play.entity';

/* The station's machine as its agent reports it, and the commands the room sends it (docs/agent-protocol.md). */

/**
 * Where a machine's claw is in its cycle, as its agent reports it (docs/agent-protocol.md): `idle`
 * at home between plays, `ready` when a play started and → waits; the crane's phases after that.
 */
export const MACHINE_PHASES = [
  'idle',
  'ready',
  'movingRight',
  'waitBack',
  'movingBack',
  'dropping',
  'closing',
  'lifting',
  'returning',
  'opening',
] as const;
export type MachinePhase = (typeof MACHINE_PHASES)[number];

/** What a machine's agent last said it is doing. */
export interface MachineReport {
  /** The play the machine runs, or null between plays. */
  readonly playId: number | null;
  readonly phase: MachinePhase;
  /** The chute sensor: blocked between plays means a prize or a hand is in the chute. */
  readonly sensor: 'clear' | 'blocked';
  /** Emergency-stopped at the machine: every output released. */
  readonly stopped: boolean;
  readonly position: { readonly x: number; readonly z: number; readonly h: number; readonly grip: number } | null;
  /** The simulated cabinet's tick and field. */
  readonly sim: { readonly tick: number; readonly prizes: readonly CranePrize[] } | null;
}

/**
 * A station's machine as its room knows it through its agent. The machine takes a turn only when
 * connected, idle, its chute sensor clear, not stopped, no fault, and no emergency stop of the
 * operator's holds it.
 */
export interface MachineLink {
  readonly connected: boolean;
  readonly report: MachineReport | null;
  /** Why the machine cannot play (a fault it reported, its agent gone); cleared when it reports idle and clear. */
  readonly fault: string | null;
  /** The operator's emergency stop: out of service until the operator resumes it. */
  readonly emergencyStopped: boolean;
  /**
   * A play the room stopped while its start was sent and not yet answered: the machine may still
   * take it (a report sent before the start reached it says idle all the same), so it takes no turn
   * until the start's answer comes (or its agent goes).
   */
  readonly endedStart?: number | null;
}

/** What a machine-driven play holds besides the mirror of the machine: the button rules the room keeps. */
export interface DrivenPlay {
  /** The machine took the play's start (its credit). */
  readonly startAcked: boolean;
  /** A waiting button fires by itself at this instant (the published button limit). */
  readonly buttonDeadline: number | null;
  /** A button that fired by itself is let go at this instant. */
  readonly autoStopAt: number | null;
  /** A button the player holds is let go by the server at this instant (the server's hold bound). */
  readonly holdUntil: number | null;
  /** When the claw dropped (the chute is watched from here). */
  readonly droppedAt: number | null;
  /** When the machine reported its claw home after the drop. */
  readonly homeAt: number | null;
  /** The chute sensor saw a prize during this play (the win). */
  readonly prizeSeen: boolean;
  readonly wonPrizeId: number | null;
}

/** A command to the station's machine (docs/agent-protocol.md, "Commands"). */
export type MachineCommand =
  | {
      readonly type: 'start';
      readonly playId: number;
      readonly armStrength: number;
      readonly sim: { readonly seed: number; readonly layout: readonly CranePrize[] };
    }
  | { readonly type: 'press' | 'release'; readonly playId: number; readonly button: CraneButton }
  | { readonly type: 'drop'; readonly playId: number }
  | { readonly type: 'home' | 'stop' | 'resume' };
