import type {
  AgentClawPhase,
  AgentCommand,
  AgentFaultCode,
  AgentRefusal,
  SimPrize,
  StationCapabilities,
} from '../src/contract/agent.schema';

/*
 * The port between the reference agent's protocol side (agent-connection.ts) and a cabinet
 * (docs/agent-protocol.md, "The reference agent"). A driver serves one or more stations; the
 * connection hands it each command once (sequence numbers and the interlock are checked before),
 * and reports what the driver tells it. Drivers: `sim` (the simulated cabinet), `gpio` (relays and
 * a chute sensor on a Linux GPIO chip).
 */

/** The outputs a cabinet's controls are wired to. */
export type MachineOutput = 'right' | 'back' | 'drop' | 'credit';

/** What one station's machine is doing, as the driver knows it. */
export interface MachineStatus {
  readonly playId: number | null;
  readonly claw: AgentClawPhase;
  readonly sensor: 'clear' | 'blocked';
  readonly stopped: boolean;
  readonly outputs: readonly MachineOutput[];
  readonly clawPosition?: { readonly x: number; readonly z: number; readonly h: number; readonly grip: number };
  /** Driver `sim`: its tick and its field. */
  readonly sim?: { readonly tick: number; readonly prizes: readonly SimPrize[] };
}

/** The outcome of one command: carried out (with the sim's tick), or refused and nothing changed. */
export type CommandOutcome =
  { readonly ok: true; readonly tick?: number } | { readonly ok: false; readonly reason: AgentRefusal };

/** What a driver tells the connection. Every callback is synchronous and never throws. */
export interface MachineEvents {
  /** The station's status changed (phase, sensor, outputs, position). */
  status(stationId: number, status: MachineStatus): void;
  /** The chute sensor saw a prize fall (after its debounce). */
  prize(stationId: number, playId: number | null, prizeId?: number): void;
  fault(stationId: number, code: AgentFaultCode, text: string): void;
}

export interface MachineDriver {
  /** `sim`, `gpio`: announced in the hello. */
  readonly name: string;
  /** The stations it serves, with what each can do. */
  readonly stations: readonly StationCapabilities[];
  /** Starts the driver (opens lines, starts timers); the events go to `events` from now on. */
  start(events: MachineEvents): Promise<void>;
  status(stationId: number): MachineStatus;
  /** Carries one command out on one station. */
  carryOut(stationId: number, command: AgentCommand): Promise<CommandOutcome> | CommandOutcome;
  /**
   * Releases every output of every station at once, synchronously as far as the device allows
   * (the watchdog, an emergency stop, exit). Never throws.
   */
  releaseAll(): void;
  /**
   * Releases every output of one station at once, synchronously as far as the device allows (an
   * emergency stop of that station: the other stations an agent drives keep their players' buttons).
   * Never throws.
   */
  release(stationId: number): void;
  /** Releases every output and frees the device. */
  close(): Promise<void>;
}
