import type { StaffAssistStatus, StaffAssistView } from './staff-assist.rule';
import type { PlayClipRef } from './play-clip.entity';
/**
 * The play on a station's machine as the client sees it (docs/play.md). The wire schemas
 * (src/contract/play.schema.ts) produce exactly these shapes.
 */

export type CraneButton = 'right' | 'back';
export type CraneCommand = 'press' | 'release';
export type CranePhase =
  | 'ready' // waiting for button ①
  | 'movingRight'
  | 'waitBack' // waiting for button ②
  | 'movingBack'
  | 'dropping'
  | 'closing'
  | 'lifting'
  | 'returning'
  | 'opening'
  | 'done';
/** resetting: the claw resets before play; result: the continue window is open; ended: the turn is over. */
export type PlayPhase = 'resetting' | 'playing' | 'result' | 'ended';
export type PlayResult = 'win' | 'miss' | 'refunded';

/** Where the claw is, as every viewer of a station sees it. */
export interface MachineView {
  readonly tick: number;
  readonly phase: CranePhase;
  readonly x: number;
  readonly z: number;
  readonly h: number;
  readonly grip: number;
  /** The button the player may use now; null when none. */
  readonly button: CraneButton | null;
  /** Until that button fires by itself; null while held or none waits. */
  readonly button_ms_left: number | null;
}

/** One play on a machine. */
export interface PlayView {
  readonly play_id: number;
  readonly play_reserve_id: number;
  readonly station_id: number;
  readonly phase: PlayPhase;
  readonly machine: MachineView;
  /** Until the current window ends: the reset before play or the continue window after a result. */
  readonly window_ms_left: number | null;
  /** While the player is away mid-play: until the claw drops by itself. */
  readonly grace_ms_left: number | null;
  readonly result: PlayResult | null;
  readonly won_prize_name: string | null;
  readonly currency: 'tc' | 'ticket' | 'free';
  readonly price: number;
  readonly arm_strength: number;
  readonly assist_level: number;
  /** Staff assist in this turn [R11-9]: null where the station offers none; absent from older servers. */
  readonly staff_assist?: StaffAssistView | null;
}

/** The assist gauge as the server answers it. */
export interface AssistGaugeView {
  readonly misses: number;
  readonly level: number;
  readonly strength_bonus: number;
  readonly misses_to_next_level: number;
  readonly fill: number;
}

/** One row of a player's play log. */
export interface PlayLogEntry {
  readonly play_id: number;
  readonly station_id: number;
  readonly prize_name: string;
  readonly currency: 'tc' | 'ticket' | 'free';
  readonly price: number;
  readonly base_arm_strength: number;
  readonly assist_level: number;
  readonly arm_strength: number;
  readonly seed: number;
  readonly layout: readonly {
    readonly id: number;
    readonly x: number;
    readonly z: number;
    readonly radius: number;
    readonly shape: 'box' | 'plush' | 'capsule';
    readonly hue: number;
  }[];
  readonly inputs: readonly { readonly tick: number; readonly button: CraneButton; readonly command: CraneCommand }[];
  readonly drop_at_tick: number | null;
  readonly result: PlayResult | null;
  readonly started_at: string;
  readonly ended_at: string | null;
  /** The play's video (docs/clips.md): absent where the server records none, null for a play without one. */
  readonly clip?: PlayClipRef | null;
  /** The station's settings version the play ran with [R11-6] (null: before versions existed). */
  readonly settings_version?: number | null;
  /** Paid with the day's free play [R11-8] (absent on older servers). */
  readonly daily_free?: boolean;
  /** The staff assist asked after this play [R11-9]: null when none was; absent on older servers. */
  readonly staff_assist?: PlayLogAssist | null;
}

/** A staff assist as the play log shows it [R11-9]. */
export interface PlayLogAssist {
  readonly status: StaffAssistStatus;
  /** The player's misses in a row when they asked. */
  readonly misses: number;
  readonly asked_at: string;
  readonly ended_at: string | null;
}

/** A notice for one user from the real-time socket. */
export interface PushNotice {
  readonly title: string;
  readonly message: string;
  readonly kind: 'turnNear' | 'turnNow' | 'reserveCancel' | 'notice';
  readonly station_id?: number;
  readonly reserve_num?: number;
  /** For a kuji turn: the kuji and the box. */
  readonly kuji_id?: number;
  readonly box_id?: number;
}

/** A winning announcement for the marquee. */
export interface WinnerAnnouncement {
  readonly station_id: number;
  readonly prize_name: string;
  readonly message: string;
}

/** A station's live state in the catalogue. */
export interface StationLiveState {
  readonly station_id: number;
  readonly station_status: string;
  readonly playing: 0 | 1;
  readonly visit_count: number;
  /** Places taken in its line (the lobby's numbers, issue 45); absent from older servers. */
  readonly reserve_count?: number;
}

/** What a control command answers. */
export type ControlAnswer =
  | { readonly ok: true; readonly tick: number; readonly machine: MachineView }
  | { readonly ok: false; readonly error_code: number; readonly error_info: string };
