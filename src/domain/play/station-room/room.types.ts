import type { DesignatedType, StationStatus, StationType } from '../../catalogue/prize.entity';
import type { CraneInput, CranePrize, CraneState, PrizeShape } from '../crane-machine';
import type { PlayCurrency } from '../play-loop.rule';
import type { CraneButton, CraneCommand } from '../play.entity';
import type { PendingSettings, SettingsChangeReason } from '../station-settings.rule';
import type { StaffAssistAnswer, StaffAssistOutcome } from '../staff-assist.rule';
import type { DrivenPlay, MachineCommand, MachineLink, MachineReport } from './room-machine.types';

/*
 * The state, events and effects of one station room (docs/play.md, "Station rooms"). A station is
 * one room: its line, its turn, its play and its deadlines are one value, `StationRoomState`, and
 * every change is `transition(state, event, now) → { state, effects, answer }` (transition.ts). The
 * server's room only feeds it events one at a time and carries the effects out; nothing here reads
 * a clock or a store. Instants are epoch milliseconds. The machine's types are in
 * room-machine.types.ts, the writes, effects and answers of a step in room-effects.types.ts.
 */

export * from './room-machine.types';
export * from './room-effects.types';

/** What the room knows of its station (the store's `stations` row; the room is its only writer). */
export interface RoomStation {
  readonly stationId: number;
  readonly shopId: number;
  readonly status: StationStatus;
  readonly stationType: StationType;
  readonly designatedType: DesignatedType;
  readonly stock: number;
  readonly playPrice: number;
  /** The base arm strength, 0…1 (the assist gauge adds to it per player). */
  readonly armStrength: number;
  readonly prizeName: string;
  readonly prizeShape: PrizeShape;
  /** Paused by the operator: the line is kept, but no turn is offered and no continue starts. */
  readonly paused: boolean;
  /** The operator's emergency stop holds the station until resumed (kept in the store across restarts). */
  readonly emergencyStopped?: boolean;
  /**
   * The number of the settings now in force (each published change adds one; 0 before the first):
   * every play records the one it ran with [R11-6].
   */
  readonly settingsVersion?: number;
  /** Misses in a row before a player may ask for a staff assist (0: none; absent: the default) [R11-9]. */
  readonly assistMisses?: number;
}

/** The prizes lying on the machine's field between plays, and the id the next new prize gets. */
export interface RoomField {
  readonly prizes: readonly CranePrize[];
  readonly nextPrizeId: number;
}

/** A place in the line behind the turn, in the order the places were taken. */
export interface Waiting {
  readonly reserveId: number;
  readonly userId: number;
  readonly settingId: number;
  /** "Your turn is near" was pushed for this place (once per reservation). */
  readonly nearNotified: boolean;
}

/** The player who holds the turn. */
export interface Holder {
  readonly reserveId: number;
  readonly userId: number;
  readonly settingId: number;
  /** The player has a live connection (a socket, or a call since the last one closed). */
  readonly present: boolean;
  /** Misses in a row in this turn, since its last win or staff assist (absent: none) [R11-9]. */
  readonly runMisses?: number;
}

/** What a play took from each half of the TC wallet (a ticket play's ticket is its price). */
export interface Charged {
  readonly free: number;
  readonly toll: number;
}

/** One paid (or free) play on the machine. */
export interface PlayRun {
  readonly playId: number;
  readonly currency: PlayCurrency;
  readonly price: number;
  readonly charged: Charged;
  readonly armStrength: number;
  readonly assistLevel: number;
  /** The player's consecutive misses at this station when the play started (the gauge moves at the result). */
  readonly gaugeMisses: number;
  readonly machine: CraneState;
  readonly inputs: readonly CraneInput[];
  /** The tick the claw dropped by itself when the grace window lapsed. */
  readonly dropAtTick: number | null;
  readonly ticksSinceSave: number;
  /**
   * The room's button rules for the play on the machine its agent drives: `machine` is a mirror of
   * what the agent reports (docs/agent-protocol.md).
   */
  readonly driven: DrivenPlay;
}

/** The turn of a starting play, to go back to when the start is refused (too little TC, sold out). */
export type StartResume = TurnOffered | Result;

export interface Idle {
  readonly phase: 'idle';
}
/** The head of the line has the turn and confirms within the window. */
export interface TurnOffered {
  readonly phase: 'turnOffered';
  readonly holder: Holder;
  readonly deadline: number;
}
/** A confirm (or a continue) is being charged and written; its outcome comes back as an event. */
export interface Starting {
  readonly phase: 'starting';
  readonly holder: Holder;
  /** When the claw reset of the new play ends. */
  readonly resetDeadline: number;
  readonly resume: StartResume;
  /** The station went down meanwhile: the play that starts is refunded at once. */
  readonly aborted: boolean;
}
/** The play is charged; the claw resets before the buttons wake. */
export interface Resetting {
  readonly phase: 'resetting';
  readonly holder: Holder;
  readonly play: PlayRun;
  readonly deadline: number;
}
/** The machine runs, tick by tick. */
export interface Playing {
  readonly phase: 'playing';
  readonly holder: Holder;
  readonly play: PlayRun;
  /** When the machine's next tick is due. */
  readonly nextTickAt: number;
}
/** The player's connection is gone while the claw waits for them: the machine pauses (grace window). */
export interface Away {
  readonly phase: 'away';
  readonly holder: Holder;
  readonly play: PlayRun;
  readonly graceDeadline: number;
}
/** The result is recorded; the same player may continue within the window. */
export interface Result {
  readonly phase: 'result';
  readonly holder: Holder;
  readonly play: PlayRun;
  readonly result: 'win' | 'miss';
  readonly wonPrizeName: string | null;
  /** The continue window's end; while a staff assist is asked, the end of its hold instead. */
  readonly deadline: number;
  /** A staff assist asked after this play, the turn held for it (null: none asked) [R11-9]. */
  readonly assist?: { readonly askedAt: number } | null;
  /** How this turn's last assist ended, shown to the player until the next play starts. */
  readonly assistOutcome?: StaffAssistOutcome | null;
}

export type Turn = Idle | TurnOffered | Starting | Resetting | Playing | Away | Result;
export type RoomPhase = Turn['phase'];
export const ROOM_PHASES: readonly RoomPhase[] = [
  'idle',
  'turnOffered',
  'starting',
  'resetting',
  'playing',
  'away',
  'result',
];

export interface StationRoomState {
  readonly station: RoomStation;
  /** null until the first play lays the field. */
  readonly field: RoomField | null;
  /** Everyone waiting behind the turn, first first. */
  readonly line: readonly Waiting[];
  readonly turn: Turn;
  /** The station's machine, as its agent connects and reports (docs/agent-protocol.md). */
  readonly machine: MachineLink;
  /** An operator's change waiting for the run of plays on the machine to end [R11-6]. */
  readonly pendingSettings?: PendingSettings | null;
}

/** A prize change by the operator. */
export interface PrizeChange {
  readonly prizeName: string;
  readonly prizeShape: PrizeShape;
  readonly stock: number;
  readonly armStrength?: number | undefined;
}

/** Who changed a station's settings and why (published with the change) [R11-6]. */
export interface ChangeReason {
  readonly reason?: SettingsChangeReason | undefined;
  /** The operator's login; absent: the service itself. */
  readonly operator?: string | null | undefined;
}

/** What a started play's write answered: its id and what the charge and the gauge decided. */
export interface StartedPlay {
  readonly playId: number;
  /** Who was charged, in what and how much: a charge the room no longer waits for is given back exactly. */
  readonly userId: number;
  readonly currency: PlayCurrency;
  readonly price: number;
  readonly seed: number;
  readonly armStrength: number;
  readonly assistLevel: number;
  readonly gaugeMisses: number;
  readonly charged: Charged;
}

/** Everything that can happen to a room. Requests carry the caller; `playStarted` and `startRefused` are the outcome of a `startPlay` effect. */
export type RoomEvent =
  // the line
  /** Takes a place; `shopId`, when given, must be the station's shop (a station of another shop is not found). */
  | { readonly type: 'join'; readonly userId: number; readonly shopId?: number | null }
  | { readonly type: 'joined'; readonly reserveId: number; readonly userId: number; readonly settingId: number }
  /** Gives up a place at a station setting; `shopId`, when given, must be the station's shop. */
  | { readonly type: 'leave'; readonly userId: number; readonly settingId: number; readonly shopId?: number }
  // the turn and the play
  | { readonly type: 'confirm'; readonly userId: number }
  | { readonly type: 'playStarted'; readonly started: StartedPlay }
  | { readonly type: 'startRefused' }
  | {
      readonly type: 'control';
      readonly userId: number;
      readonly playId: number;
      readonly button: CraneButton;
      readonly command: CraneCommand;
    }
  | { readonly type: 'continue'; readonly userId: number; readonly playId: number }
  | { readonly type: 'finish'; readonly userId: number; readonly playId: number }
  /** The holder asks for a staff assist after a miss (the turn is held for it) [R11-9]. */
  | { readonly type: 'askAssist'; readonly userId: number; readonly playId: number }
  /** The staff answer the assist asked after that play. */
  | {
      readonly type: 'answerAssist';
      readonly playId: number;
      readonly answer: StaffAssistAnswer;
      readonly operator?: string | null | undefined;
    }
  /** The caller asks for their play (`/v2/play/current`): a call is a sign of life. */
  | { readonly type: 'look'; readonly userId: number }
  /** A viewer asks for the play on the machine (changes nothing). */
  | { readonly type: 'view' }
  // presence
  | { readonly type: 'away'; readonly userId: number }
  | { readonly type: 'back'; readonly userId: number }
  // time: a deadline or the machine's next tick fell due
  | { readonly type: 'clock' }
  // the operator
  | { readonly type: 'setStatus'; readonly status: StationStatus }
  | { readonly type: 'restock'; readonly stock: number }
  /** A stray prize was given to a player: it has left the machine, the stock is one less. */
  | { readonly type: 'prizeOut' }
  /** The arm strength and the price: at once between runs, else when the run on the machine ends [R11-6]. */
  | ({
      readonly type: 'changeSettings';
      readonly patch: {
        readonly armStrength?: number | undefined;
        readonly playPrice?: number | undefined;
        readonly assistMisses?: number | undefined;
      };
    } & ChangeReason)
  | ({ readonly type: 'setArmStrength'; readonly armStrength: number } & ChangeReason)
  | ({ readonly type: 'changePrize'; readonly prize: PrizeChange } & ChangeReason)
  /**
   * Ends that play on the machine (refunded once when unfinished); the holder's place ends. Named by
   * its id, so two operators ending the same play never end the next player's too.
   */
  | { readonly type: 'endPlay'; readonly playId: number }
  /** Takes one player out of the line (or off the turn, as endPlay). */
  | { readonly type: 'removeFromLine'; readonly userId: number }
  | { readonly type: 'pause'; readonly paused: boolean }
  /**
   * Development only (the dev call behind ONKURE_DEV_CALLS): the next play takes `seed`; the
   * answer names the prizes lying on the field now, so that an end-to-end test can aim and win.
   */
  | { readonly type: 'rig'; readonly seed: number }
  /** The room was rebuilt from the store after a (re)start. */
  | { readonly type: 'resumed' }
  // the machine's agent (docs/agent-protocol.md)
  | { readonly type: 'machineConnected' }
  | { readonly type: 'machineReport'; readonly report: MachineReport }
  /** A command's outcome; `tick` is the simulated cabinet's tick it took effect at. */
  | {
      readonly type: 'machineAck';
      readonly command: MachineCommand;
      readonly ok: boolean;
      readonly reason: string | null;
      readonly tick: number | null;
    }
  | { readonly type: 'machinePrize'; readonly playId: number | null; readonly prizeId: number | null }
  | { readonly type: 'machineFault'; readonly code: string }
  /** The agent is gone (silent past its bound, closed, replaced, revoked). */
  | { readonly type: 'machineGone'; readonly reason: string }
  // the operator at the machine
  | { readonly type: 'emergencyStop' }
  | { readonly type: 'resumeMachine' }
  | { readonly type: 'homeMachine' };
export type RoomEventType = RoomEvent['type'];
/**
 * The events a caller may send a station room (a player, a viewer, the operator, another
 * instance); the rest are the room's own (outcomes of its effects, its clock, its restart).
 */
export type StationRequest = Exclude<
  RoomEvent,
  { readonly type: 'joined' | 'playStarted' | 'startRefused' | 'clock' | 'resumed' }
>;
/** The operator's events (room-operator.ts). */
export type OperatorEvent = Extract<
  RoomEvent,
  {
    readonly type:
      | 'setStatus'
      | 'restock'
      | 'prizeOut'
      | 'changeSettings'
      | 'setArmStrength'
      | 'changePrize'
      | 'endPlay'
      | 'removeFromLine'
      | 'pause';
  }
>;
export const ROOM_EVENT_TYPES: readonly RoomEventType[] = [
  'join',
  'joined',
  'leave',
  'confirm',
  'playStarted',
  'startRefused',
  'control',
  'continue',
  'finish',
  'askAssist',
  'answerAssist',
  'look',
  'view',
  'away',
  'back',
  'clock',
  'setStatus',
  'restock',
  'prizeOut',
  'changeSettings',
  'setArmStrength',
  'changePrize',
  'endPlay',
  'removeFromLine',
  'pause',
  'rig',
  'resumed',
  'machineConnected',
  'machineReport',
  'machineAck',
  'machinePrize',
  'machineFault',
  'machineGone',
  'emergencyStop',
  'resumeMachine',
  'homeMachine',
];

/** A room as the store holds it, to rebuild it after a (re)start (restore.ts). */
export interface RoomSnapshot {
  readonly station: RoomStation;
  readonly field: RoomField | null;
  /** An operator's change that was waiting for the run to end [R11-6]. */
  readonly pendingSettings?: PendingSettings | null;
  /** The station's active reservations, first first. */
  readonly reservations: readonly {
    readonly reserveId: number;
    readonly userId: number;
    readonly settingId: number;
    readonly status: 'reserve' | 'playTransition' | 'playWaiting';
    readonly deadline: number | null;
  }[];
  /** The play on the machine that has not ended, if any. */
  readonly play:
    | (Pick<
        PlayRun,
        | 'playId'
        | 'currency'
        | 'price'
        | 'charged'
        | 'armStrength'
        | 'assistLevel'
        | 'gaugeMisses'
        | 'inputs'
        | 'dropAtTick'
      > & {
        readonly reserveId: number;
        readonly userId: number;
        readonly phase: 'resetting' | 'playing' | 'result';
        readonly seed: number;
        readonly layout: readonly CranePrize[];
        /** The machine as last saved; null before it ran (rebuilt from the layout, strength and seed). */
        readonly machine: CraneState | null;
        readonly phaseDeadline: number | null;
        readonly graceDeadline: number | null;
        readonly result: 'win' | 'miss' | 'refunded' | null;
        /** The player's misses in a row in this turn, since its last win or staff assist [R11-9]. */
        readonly runMisses?: number;
        /** A staff assist asked after this play and not answered yet (its hold's end is `phaseDeadline`). */
        readonly assistAskedAt?: number | null;
      })
    | null;
}
