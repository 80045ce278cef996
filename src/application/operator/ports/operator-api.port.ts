import type { Observable } from 'rxjs';
import type {
  ChatMessage,
  DeliveryView,
  KujiBoxStatus,
  KujiFairnessRecord,
  OperatorRight,
  OperatorRole,
  PlayClip,
  PlayLogEntry,
  ReconciliationReport,
  SettingChange,
  SettingsChangeReason,
  StaffAssistAnswer,
  StationStatus,
  AgentClawPhase,
} from '../../../domain';

/**
 * The operator console's view of the service (docs/operator-console.md). Records keep the wire's
 * field names (as the domain's PlayLogEntry and DeliveryView do): the console shows them as they are
 * stored, and the adapter validates each against the contract before it gets here.
 */

/** The operator's role and rights, as the domain lists them (the console names them through this module). */
export type { OperatorRight, OperatorRole };

/** The signed-in operator, with the rights the server gives their role. */
export interface OperatorIdentity {
  readonly login: string;
  readonly display_name: string;
  readonly role: OperatorRole;
  readonly rights: readonly OperatorRight[];
}

/** A session opened by `login`: the bearer token and when it ends. */
export interface OperatorSignIn {
  readonly token: string;
  readonly expiresAt: string;
  readonly operator: OperatorIdentity;
}

export const PLAY_PHASE_NAMES = ['resetting', 'playing', 'result', 'ended'] as const;
export type FloorPlayPhase = (typeof PLAY_PHASE_NAMES)[number];

/** One station as the floor shows it. */
export interface FloorStation {
  readonly station_id: number;
  readonly station_name: string;
  readonly prize_name: string;
  readonly station_status: StationStatus;
  readonly stock: number;
  readonly paused: boolean;
  /** Held out of service by an operator's emergency stop until resumed [R11-3]. */
  readonly emergency_stopped: boolean;
  /** The settings in force and their published version [R11-6] (absent from older servers). */
  readonly arm_strength?: number | undefined;
  readonly play_price?: number | undefined;
  readonly settings_version?: number | undefined;
  /** A change waiting for the player's run to end [R11-6]. */
  readonly pending_settings?:
    | {
        readonly changes: readonly SettingChange[];
        readonly reason: SettingsChangeReason;
        readonly requested_at: string;
      }
    | null
    | undefined;
  /** Misses in a row before a staff assist may be asked (0: none) [R11-9] (absent from older servers). */
  readonly assist_misses?: number | undefined;
  /** A staff assist asked and not answered: the turn is held until `ms_left` runs out [R11-9]. */
  readonly assist?: FloorAssist | null | undefined;
  readonly viewers: number;
  readonly line: readonly {
    readonly user_id: number;
    readonly nickname: string;
    readonly place: number;
    readonly reserve_status: string;
  }[];
  readonly play: {
    readonly play_id: number;
    readonly user_id: number;
    readonly nickname: string;
    readonly phase: FloorPlayPhase;
    readonly ms_left: number | null;
    readonly price: number;
    readonly currency: string;
  } | null;
  /** Prizes the chute saw that no running play took, oldest first, until settled. */
  readonly stray_prizes: readonly StrayPrize[];
  readonly still_url: string;
}

/** A player's staff assist waiting for the staff [R11-9]. */
export interface FloorAssist {
  readonly play_id: number;
  readonly user_id: number;
  readonly nickname: string;
  /** Their misses in a row when they asked. */
  readonly misses: number;
  readonly asked_at: string;
  /** The hold's time left when the floor was read. */
  readonly ms_left: number;
}

/** A prize out of the machine that no running play took (after its result, between plays). */
export interface StrayPrize {
  readonly stray_id: number;
  /** The play the machine named and its player (null: none named, or no such play at the station). */
  readonly play_id: number | null;
  readonly user_id: number | null;
  readonly nickname: string | null;
  /** That play's result (win, miss, refunded); null while none. */
  readonly play_result: string | null;
  readonly seen_at: string;
}

/** How an operator settles a stray prize: to the named play's player, or back into the machine. */
export type StraySettle = 'award' | 'return';

/** Where an agent's claw is in its cycle (docs/agent-protocol.md; the list is the domain's). */
export type ClawPhaseName = AgentClawPhase;
export type MachineOutputName = 'right' | 'back' | 'drop' | 'credit';

/**
 * A station an agent drives now: the agent, its heartbeat, and its last report of the machine (the
 * sensor view: claw, chute sensor, stopped, outputs energised; null before its first report).
 */
export interface StationAgentView {
  readonly station_id: number;
  readonly key_id: string;
  readonly key_name: string;
  readonly agent_name: string;
  readonly agent_version: string;
  readonly driver: string;
  readonly remote: string;
  readonly connected_at: string;
  readonly last_heard_at: string;
  /** By the server's clock when it answered. */
  readonly last_heard_ms_ago: number;
  readonly round_trip_ms: number | null;
  readonly claw: ClawPhaseName | null;
  readonly sensor: 'clear' | 'blocked' | null;
  readonly stopped: boolean | null;
  readonly outputs: readonly MachineOutputName[];
  readonly play_id: number | null;
}

/** A station camera now: publishing or not, its codec, bitrate, frames a second, last keyframe. */
export interface StationCameraView {
  readonly station_id: number;
  readonly camera: 'front' | 'side';
  readonly publishing: boolean;
  readonly source: 'whip' | null;
  readonly codec: string | null;
  readonly kbps: number;
  readonly fps: number;
  readonly last_keyframe_at: string | null;
  readonly viewers: number;
  /** Whether its jpg stills are being made from the video now. */
  readonly stills: boolean;
  readonly live: boolean;
  /** Whether a play's recording takes its video now, and why its last one failed (docs/clips.md; absent from older servers). */
  readonly recording?: boolean | undefined;
  readonly recording_error?: string | null | undefined;
  /** Whether its spectators' HLS is encoded now, and the HLS and still requests a second reaching the origin. */
  readonly hls?: boolean | undefined;
  readonly hls_requests_per_s?: number | undefined;
  readonly stills_requests_per_s?: number | undefined;
}

/**
 * A station's audience and recordings (operator/station_feeds): the pages showing its cameras by
 * kind, counted over every instance (docs/spectators.md "Counting spectators"), and the clips of its
 * last `window` plays (docs/clips.md "Console health").
 */
export interface StationFeedView {
  readonly station_id: number;
  readonly spectators: { readonly hls: number; readonly rtc: number; readonly jpg: number };
  readonly clips: {
    readonly window: number;
    readonly plays: number;
    readonly ready: number;
    readonly failed: number;
    readonly recording: number;
    readonly removed: number;
    readonly none: number;
    readonly last_failure: { readonly play_id: number; readonly reason: string | null; readonly at: string } | null;
  };
}

/** A play log entry as the console gets it: the play and its clip (domain PlayLogEntry carries it). */
export type OperatorPlayLogEntry = PlayLogEntry;

/** Any play's clip as operators see it (operator/play_clip): the player's view plus whose play it was. */
export interface OperatorPlayClip extends PlayClip {
  readonly user_id: number;
}

/** What an operator does at a station's machine: stop it at once, end the stop, bring the claw home. */
export type MachineAction = 'emergency_stop' | 'resume' | 'home';

/** A station after a change: its status, stock, and the play refunded by it (or null). */
export interface StationChange {
  readonly station_id: number;
  readonly station_status: StationStatus;
  readonly stock: number;
  readonly refunded_play_id: number | null;
  /** 1: the settings change waits for the player's run to end [R11-6]. */
  readonly settings_pending?: 0 | 1 | undefined;
}

/** A change of a station's settings as the console asks it [R11-6]: at least one value, and why. */
export interface SettingsChangeAsk {
  readonly armStrength?: number;
  readonly playPrice?: number;
  /** Misses in a row before a staff assist may be asked (0: none) [R11-9]. */
  readonly assistMisses?: number;
  readonly reason: SettingsChangeReason;
}

export const PRIZE_SHAPES = ['box', 'plush', 'capsule'] as const;
export type PrizeShapeName = (typeof PRIZE_SHAPES)[number];

export interface PrizeChange {
  readonly prize_name: string;
  readonly prize_shape: PrizeShapeName;
  readonly stock: number;
  readonly arm_strength?: number;
}

export const SERVICE_MESSAGE_CODES = ['emergency', 'reloaderror', 'cancellation'] as const;
export type ServiceMessageCode = (typeof SERVICE_MESSAGE_CODES)[number];

/** The emergency maintenance in force, or null. */
export interface EmergencyState {
  readonly info: string;
  readonly since: string;
  readonly by: string;
}

/** One user as support sees them. */
export interface OperatorUserView {
  readonly user_id: number;
  readonly nickname: string;
  readonly user_status: number;
  readonly suspended: boolean;
  readonly created_at: string;
  readonly tc_balance: number;
}

export interface KujiRankLine {
  readonly rank: string;
  readonly quantity: number;
  readonly remaining: number;
}

/** A kuji box with its stock per rank and its fairness record. */
export interface KujiBoxView {
  readonly kuji_id: number;
  readonly kuji_name: string;
  readonly box_id: number;
  readonly box_status: KujiBoxStatus;
  readonly prizes: readonly KujiRankLine[];
  readonly commitment: string | null;
  readonly seed: string | null;
}

/** A delivery request on the fulfilment queue: the player's view plus whose it is. */
export interface OperatorDelivery extends DeliveryView {
  readonly user_id: number;
}

export interface ContactRecord {
  readonly contact_id: number;
  readonly user_id: number;
  readonly category: string;
  readonly text: string;
  readonly plays:
    | readonly {
        readonly play_id: number;
        readonly station_id: number;
        readonly prize_name: string;
        readonly result: string;
        readonly played_at: string;
      }[]
    | null;
  readonly status: 'open' | 'closed';
  readonly created_at: string;
}

export interface SupportThreadSummary {
  readonly user_id: number;
  readonly nickname: string;
  readonly last_message: ChatMessage;
  readonly waiting: number;
}

/** A day's money side by side and its mismatches (the domain's report, as the server keeps it). */
export type ReconciliationReportView = ReconciliationReport;

/** A day's kept reconciliation (null: never run) and the latest runs. */
export interface ReconciliationView {
  readonly day: string;
  readonly ranAt: string | null;
  readonly report: ReconciliationReportView | null;
  readonly runs: readonly { readonly day: string; readonly ranAt: string; readonly mismatches: number }[];
}

export interface NumbersRow {
  readonly day: string;
  readonly station_id: number;
  readonly station_name: string;
  readonly plays: number;
  readonly wins: number;
  readonly win_rate: number;
  readonly tc_taken: number;
  readonly refunds: number;
  readonly refunded_tc: number;
  readonly assist_payouts: number;
}

export interface AuditRow {
  readonly audit_id: number;
  readonly operator_login: string;
  readonly action: string;
  readonly target: unknown;
  readonly before: unknown;
  readonly after: unknown;
  readonly at: string;
}

export const STATION_KEY_STATES = ['active', 'rotating', 'expired', 'revoked'] as const;
/** active; rotating: replaced, still working until `expires_at`; expired: its overlap ended; revoked. */
export type StationKeyState = (typeof STATION_KEY_STATES)[number];

/** A station agent's key as the console lists it (never its secret). */
export interface StationKeyView {
  readonly key_id: string;
  readonly name: string;
  readonly station_ids: readonly number[];
  readonly created_at: string;
  readonly created_by: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  readonly last_used_at: string | null;
  readonly rotated_to: string | null;
  readonly state: StationKeyState;
}

/** A key just made: `key` is shown once, then forgotten. */
export interface IssuedStationKeyView {
  readonly key: string;
  readonly entry: StationKeyView;
}

/**
 * Every operator call (POST under the API base with the session's bearer token). Each resolves with
 * the validated answer or rejects with an `OperatorCallFailed` (a refusal with the server's Japanese
 * error_info, a transport failure, or an answer that breaks the contract).
 */
export interface OperatorApiPort {
  login(login: string, password: string): Promise<OperatorSignIn>;
  logout(): Promise<void>;
  me(): Promise<OperatorIdentity>;

  floor(): Promise<readonly FloorStation[]>;
  stationStatus(stationId: number, status: StationStatus): Promise<StationChange>;
  fault(stationId: number): Promise<StationChange>;
  /** Ends that play (refunded once when unfinished); refused 409 when it is no longer on the machine. */
  endPlay(stationId: number, playId: number): Promise<StationChange>;
  removeFromLine(stationId: number, userId: number): Promise<boolean>;
  pause(stationId: number, paused: boolean): Promise<boolean>;
  /** Settles a stray prize; the prize box entry made for the player (award), else null. */
  settleStrayPrize(stationId: number, strayId: number, settle: StraySettle): Promise<number | null>;
  restock(stationId: number, stock: number): Promise<StationChange>;
  changePrize(stationId: number, change: PrizeChange): Promise<StationChange>;
  /** The arm strength and the price with a reason; waits for a player's run to end [R11-6]. */
  stationSettings(stationId: number, change: SettingsChangeAsk): Promise<StationChange>;
  /** Answers the staff assist asked after that play: done or declined [R11-9]. */
  answerAssist(stationId: number, playId: number, answer: StaffAssistAnswer): Promise<void>;
  playLog(stationId: number | null, limit: number): Promise<readonly OperatorPlayLogEntry[]>;
  /** Any play's clip with its files' addresses (right `floor`); 404 when the play has none. */
  playClip(playId: number): Promise<OperatorPlayClip>;

  broadcast(code: ServiceMessageCode, info: string | null): Promise<number>;
  serviceState(): Promise<EmergencyState | null>;
  emergencyEnd(): Promise<void>;
  user(userId: number): Promise<OperatorUserView>;
  userMessage(userId: number, code: ServiceMessageCode, info: string | null): Promise<number>;
  userStatus(userId: number, suspended: boolean): Promise<OperatorUserView>;

  kujiBoxes(): Promise<readonly KujiBoxView[]>;
  kujiBoxStatus(boxId: number, status: KujiBoxStatus): Promise<KujiBoxStatus>;
  kujiBoxStock(boxId: number, prizes: readonly { rank: string; quantity: number }[]): Promise<void>;
  /**
   * A box's published fairness record (the players' own public call): the stock it opened with, the
   * commitment, the draws, and the seed once the box ended.
   */
  kujiFairness(boxId: number): Promise<KujiFairnessRecord>;

  deliveries(status: DeliveryView['delivery_status'] | null): Promise<readonly OperatorDelivery[]>;
  ship(deliveryId: number, trackingNumber: string): Promise<void>;
  cancelDelivery(deliveryId: number, reason: string): Promise<void>;

  contacts(status: 'open' | 'closed'): Promise<readonly ContactRecord[]>;
  closeContact(contactId: number): Promise<void>;
  threads(): Promise<readonly SupportThreadSummary[]>;
  thread(userId: number): Promise<readonly ChatMessage[]>;
  reply(userId: number, text: string, clientId: string): Promise<void>;

  numbers(from: string, to: string): Promise<readonly NumbersRow[]>;
  /** A day's money reconciliation (right `money`): the kept run (yesterday's without a day), or a new run. */
  reconciliation(day: string | null, run: boolean): Promise<ReconciliationView>;
  audit(operatorLogin: string | null): Promise<readonly AuditRow[]>;

  /** The station agents' keys (right `machines`), newest first. */
  stationKeys(): Promise<readonly StationKeyView[]>;
  issueStationKey(name: string, stationIds: readonly number[]): Promise<IssuedStationKeyView>;
  /** A successor for the same stations; the old key works on for `overlapMinutes`. */
  rotateStationKey(keyId: string, overlapMinutes: number): Promise<IssuedStationKeyView>;
  revokeStationKey(keyId: string): Promise<StationKeyView>;

  /** The agents driving stations now (right `floor`). */
  stationAgents(): Promise<readonly StationAgentView[]>;
  /** The stations' cameras that are published or watched (right `floor`). */
  stationCameras(): Promise<readonly StationCameraView[]>;
  /** Each station's spectators by kind and its last plays' clips (right `floor`). */
  stationFeeds(): Promise<readonly StationFeedView[]>;
  /** An emergency stop (the play under way refunded once), its end, or a claw brought home (right `floor`). */
  stationMachine(stationId: number, action: MachineAction): Promise<StationChange>;
}

/** Where the console keeps its session token between reloads of the tab (never a cookie). */
export interface OperatorTokenStorePort {
  read(): string | null;
  write(token: string): void;
  clear(): void;
}

export type FloorFeedEvent =
  | { readonly kind: 'connected' }
  | { readonly kind: 'disconnected' }
  | { readonly kind: 'change'; readonly stationId: number };

/** The live floor: a socket joined to the operator floor channel with the session token. */
export interface OperatorFloorFeedPort {
  /** Opens on subscribe, closes on unsubscribe; never errors (a lost connection is an event). */
  watch(token: string): Observable<FloorFeedEvent>;
}
