import type { StationStatus } from '../../catalogue/prize.entity';
import type { CraneInput, CranePrize, CraneState } from '../crane-machine';
import type { PlayCurrency } from '../play-loop.rule';
import type { MachineView, PlayView } from '../play.entity';
import type { PendingSettings, SettingChange, SettingsChangeReason } from '../station-settings.rule';
import type { MachineCommand } from './room-machine.types';
import type { Charged, PrizeChange, RoomField, StationRoomState } from './room.types';

/* What a station room's step yields: the store writes and effects it asks for, and its answer (docs/play.md, "Station rooms"). */

/** Why a reservation ended (the store's `end_reason`). */
export type EndReason = 'timeout' | 'maintenance' | 'prize_change' | 'operator' | 'played' | 'user_cancel';

/** A store write. The writes of one `commit` are done in one transaction, in order. */
export type RoomWrite =
  | { readonly kind: 'offerTurn'; readonly reserveId: number; readonly deadline: number }
  /** An offered turn taken back (the machine went down before it was confirmed): the place waits in line again. */
  | { readonly kind: 'withdrawTurn'; readonly reserveId: number }
  | {
      readonly kind: 'endReservations';
      readonly reserveIds: readonly number[];
      readonly status: 'cancel' | 'change';
      readonly reason: EndReason;
    }
  /** The reset is over: the play runs (its reservation's window closes). */
  | { readonly kind: 'playRunning'; readonly playId: number; readonly reserveId: number; readonly machine: CraneState }
  | {
      readonly kind: 'checkpoint';
      readonly playId: number;
      readonly machine: CraneState;
      readonly inputs: readonly CraneInput[];
      readonly dropAtTick: number | null;
      readonly graceDeadline: number | null;
    }
  | {
      readonly kind: 'recordResult';
      readonly playId: number;
      readonly reserveId: number;
      readonly userId: number;
      readonly result: 'win' | 'miss';
      /** A won prize goes into the player's prize box (not for practice). */
      readonly prizeWon: { readonly productName: string } | null;
      /** A VIP or exclusive station's win counts toward the weekly VIP limit. */
      readonly vipWin: boolean;
      /** The player's gauge after this play; null for practice (it neither uses nor fills it). */
      readonly gaugeMisses: number | null;
      readonly machine: CraneState;
      readonly inputs: readonly CraneInput[];
      readonly dropAtTick: number | null;
      readonly continueDeadline: number;
    }
  /** The play is over for good (its turn ended, or it was stopped); `refunded` marks a stopped unfinished one. */
  | {
      readonly kind: 'closePlay';
      readonly playId: number;
      readonly refunded: boolean;
      /** The machine where it stopped; null keeps what the store has (a play that never ran here). */
      readonly machine: CraneState | null;
      readonly inputs: readonly CraneInput[];
    }
  /** Gives back exactly what a play took (a ledger credit keyed by the play: a second one changes nothing). */
  | {
      readonly kind: 'refund';
      readonly playId: number;
      readonly userId: number;
      readonly currency: PlayCurrency;
      readonly price: number;
      readonly charged: Charged;
    }
  | { readonly kind: 'field'; readonly field: RoomField }
  | { readonly kind: 'stationStatus'; readonly status: StationStatus }
  | { readonly kind: 'stock'; readonly stock: number }
  /**
   * The chute sensor saw a prize no running play takes (it fell after its play's result, between
   * plays, or as a second prize of one play): kept for the operator to settle. `playId` is the play
   * the machine named, if any.
   */
  | { readonly kind: 'strayPrize'; readonly playId: number | null; readonly prizeId: number | null }
  | { readonly kind: 'armStrength'; readonly armStrength: number }
  | { readonly kind: 'playPrice'; readonly price: number }
  /** The change waiting for the run to end (null: none waits): kept across restarts [R11-6]. */
  | { readonly kind: 'pendingSettings'; readonly pending: PendingSettings | null }
  /** A change in force from now on, published in the station's settings history as `version` [R11-6]. */
  | {
      readonly kind: 'settingsChanged';
      readonly version: number;
      readonly changes: readonly SettingChange[];
      readonly reason: SettingsChangeReason;
      readonly operator: string | null;
      /** When it was asked (epoch ms); it is in force from the commit (`appliedAt`). */
      readonly requestedAt: number;
      readonly appliedAt: number;
    }
  /** The misses in a row before a staff assist may be asked, in force from now [R11-9]. */
  | { readonly kind: 'assistMisses'; readonly misses: number }
  /** A staff assist asked after a play: the turn is held until `deadline` (the play's window) [R11-9]. */
  | {
      readonly kind: 'assistAsked';
      readonly playId: number;
      readonly userId: number;
      readonly reserveId: number;
      readonly misses: number;
      readonly askedAt: number;
      readonly deadline: number;
    }
  /** The assist asked after a play ended; the continue window runs again until `continueDeadline`. */
  | {
      readonly kind: 'assistEnded';
      readonly playId: number;
      readonly outcome: 'done' | 'declined' | 'lapsed';
      readonly operator: string | null;
      readonly at: number;
      readonly continueDeadline: number;
    }
  | { readonly kind: 'paused'; readonly paused: boolean }
  | { readonly kind: 'emergencyStopped'; readonly stopped: boolean }
  /** A new prize: name, shape, stock, strength; a new station setting, visits end, the field is laid again. */
  | { readonly kind: 'prize'; readonly prize: PrizeChange };

/** What the room must carry out, in order. */
export type RoomEffect =
  /** A command to the machine's agent; a machine nobody drives answers `machineGone`. */
  | { readonly type: 'machineCommand'; readonly command: MachineCommand }
  /** Writes to the store in one transaction; the next event waits for it. */
  | { readonly type: 'commit'; readonly writes: readonly RoomWrite[] }
  /** The running machine saved; ordered with the commits but nothing waits for it. */
  | { readonly type: 'checkpoint'; readonly write: Extract<RoomWrite, { kind: 'checkpoint' }> }
  /** Take a place in the line (the store checks the player: VIP gate, TC for one play, one place at a time); answers `joined`. */
  | { readonly type: 'addToLine'; readonly userId: number }
  /**
   * Charge a play and write it (its play row, the reservation's new window, the field; a continue
   * closes the previous play); answers `playStarted` or `startRefused`.
   */
  | {
      readonly type: 'startPlay';
      readonly reserveId: number;
      readonly userId: number;
      readonly settingId: number;
      readonly currency: PlayCurrency;
      readonly price: number;
      readonly baseArmStrength: number;
      /** The station's settings version the play runs with [R11-6]. */
      readonly settingsVersion: number;
      /** Practice plays neither use nor fill the assist gauge. */
      readonly practice: boolean;
      readonly layout: readonly CranePrize[];
      readonly field: RoomField;
      readonly resetDeadline: number;
      readonly closesPlayId: number | null;
    }
  // what the room tells the world
  | { readonly type: 'lineChanged' }
  /** The operators' floors should read the station again (something only the console shows changed). */
  | { readonly type: 'floorChanged' }
  | { readonly type: 'playState'; readonly view: PlayView }
  | { readonly type: 'turnNow'; readonly userId: number }
  | { readonly type: 'turnNear'; readonly userId: number; readonly place: number }
  | { readonly type: 'reserveCancelled'; readonly userId: number; readonly reason: EndReason }
  | { readonly type: 'stationStatus'; readonly status: StationStatus }
  | { readonly type: 'winner'; readonly userId: number; readonly prizeName: string }
  /** Development only: the seed the next play takes (the `rig` event). */
  | { readonly type: 'rigSeed'; readonly seed: number };

/** Why a request was refused; the server words each in Japanese with its status. */
export type RoomRefusal =
  | 'notYourTurn'
  | 'notYourPlay'
  | 'buttonNotReady'
  | 'continueClosed'
  | 'playingNow'
  | 'stationMaintenance'
  | 'prizeChanging'
  | 'soldOut'
  | 'alreadyInLine'
  | 'reservationNotFound'
  /** The operator paused the station: no new play starts. */
  | 'stationPaused'
  /** The operator asked to end a play, and none runs. */
  | 'noPlay'
  /** A place asked for at a station of another shop. */
  | 'stationNotFound'
  /** The station's machine cannot play now (its agent gone, a fault, an emergency stop). */
  | 'machineDown'
  /** An operator's machine command that does not fit (home while a play runs, resume with no stop). */
  | 'machineBusy'
  /** A staff assist asked for when the player may not ask (too few misses, not after a miss, none at this station). */
  | 'assistNotAvailable'
  /** A continue while the staff assist asked is not answered yet. */
  | 'assistPending'
  /** The staff answer an assist that is not (or no longer) asked. */
  | 'noAssist';

/** The answer to the event's caller. */
export type RoomAnswer =
  | { readonly kind: 'ok' }
  | { readonly kind: 'refused'; readonly refusal: RoomRefusal }
  /** The caller's play as it is after the step (null: none); `stationReply` fills it in. */
  | { readonly kind: 'play' }
  /** The play on the machine, for a viewer; `stationReply` fills it in. */
  | { readonly kind: 'view' }
  | { readonly kind: 'control'; readonly tick: number; readonly machine: MachineView }
  /** An operator's change; the play it stopped and refunded, if any. */
  /** `pending`: the change waits for the run on the machine to end [R11-6]. */
  | { readonly kind: 'operator'; readonly refundedPlayId: number | null; readonly pending?: boolean }
  /** The place a player gave up. */
  | { readonly kind: 'left'; readonly reserveId: number }
  /** The development rig: the prizes lying on the field now. */
  | { readonly kind: 'rigged'; readonly prizes: readonly CranePrize[] };

/**
 * What the caller of an event gets, as data (it may travel from the instance running the room):
 * the answer, with the play it names filled in from the room as it is once the event (and every
 * outcome it led to) has been taken.
 */
export type RoomReply =
  | Exclude<RoomAnswer, { readonly kind: 'play' } | { readonly kind: 'view' }>
  | { readonly kind: 'play'; readonly play: PlayView | null };

export interface RoomStep {
  readonly state: StationRoomState;
  readonly effects: readonly RoomEffect[];
  readonly answer: RoomAnswer;
}
