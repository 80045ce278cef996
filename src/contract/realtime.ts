import { z } from 'zod/mini';
import { WATCH_KINDS } from '../domain/stream/watch-kind.rule';
import type {
  ControlAnswer,
  CraneButton,
  CraneCommand,
  PushNotice,
  StationLiveState,
  WinnerAnnouncement as DomainWinnerAnnouncement,
} from '../domain';
import type { PlayState } from './play.schema';
import type { ChatMessageWire } from './chat-message.schema';

/**
 * The real-time socket's channels and events, shared by the reference server and the client
 * (spec §7 "Real-time channels in use"; the names are ours: the spec does not show them). socket.io
 * is typed with these maps on both ends, so a renamed event or a changed payload breaks the build.
 */

/** socket.io path [R7-10]. */
export const REALTIME_PATH = '/socket.io';

/** Channel names. A client joins the ones it wants; the user channel only for its own user. */
export const CHANNELS = {
  top: 'top',
  user: (userId: number) => `user:${userId}`,
  station: (stationId: number) => `station:${stationId}`,
  kujiBox: (kujiId: number, boxId: number) => `kuji:${kujiId}:${boxId}`,
  /** The console's live floor: only a connection whose handshake carried an operator session may join. */
  operatorFloor: 'operator:floor',
} as const;

/** The handshake's auth: the identity every authenticated call carries; guests send nothing. */
export interface RealtimeAuth {
  readonly user_id?: number;
  readonly access_token?: string;
  /** The console's operator session token (instead of a user identity). */
  readonly operator_token?: string;
}

/**
 * A service message pushed to open clients (§8, §4.6): the same error_code and error_info an answer
 * would carry (emergency, invaliduser, reloaderror, cancellation), handled as if a call had answered it.
 */
export interface ServiceMessagePush {
  readonly error_code: number;
  readonly error_info: string;
}
/** The client checks a pushed service message at the border like any answer. */
export const serviceMessagePushSchema = z.object({
  error_code: z.int(),
  error_info: z.string().check(z.maxLength(1_000)),
});

/** A winning announcement (update `get`) for the marquee. */
export type WinnerAnnouncement = DomainWinnerAnnouncement;

/** Updates on the top and configured channels [R7-11]. */
export interface RealtimeUpdate {
  readonly channel: string;
  /** A station's status changed (maintenance or back). */
  readonly maintenance?: { readonly station_id: number; readonly station_status: string };
  /** The station list changed: statuses, viewers, playing flags. */
  readonly list?: readonly StationLiveState[];
  /** Someone won a prize. */
  readonly get?: WinnerAnnouncement;
}

/** A notice for one user (shown as a browser notification where permitted, and in the page). */
export type PushMessage = PushNotice;

export type ControlAck = ControlAnswer;

export type JoinAck =
  { readonly ok: true } | { readonly ok: false; readonly error_code: number; readonly error_info: string };

export interface ControlMessage {
  readonly play_id: number;
  readonly button: CraneButton;
  readonly command: CraneCommand;
}

/**
 * What a page shows of a station's cameras (docs/spectators.md "Counting spectators"): the server
 * counts one kind per connection, for the consoles. `null` withdraws the connection's report.
 */
export const watchingMessageSchema = z.strictObject({
  station_id: z.int().check(z.positive()).check(z.lte(2_147_483_647)),
  kind: z.enum(WATCH_KINDS),
});
export type WatchingMessage = z.infer<typeof watchingMessageSchema>;

/** Events the server sends. */
export interface ServerToClientEvents {
  update: (update: RealtimeUpdate) => void;
  push: (push: PushMessage) => void;
  /** On a station channel: its line changed; fetch get_reserve [R7-11]. */
  reserve_change: (message: { readonly station_id: number; readonly reserve_change: 1 }) => void;
  /** On a kuji box channel: its line changed (a holder's window lapsed, someone left or joined); poll again. */
  kuji_reserve_change: (message: {
    readonly kuji_id: number;
    readonly box_id: number;
    readonly reserve_change: 1;
  }) => void;
  /** On a kuji box channel: the box ended [R7-11]. */
  play_end: (message: { readonly kuji_id: number; readonly box_id: number; readonly play_end: 1 }) => void;
  /** On the user channel: a crane reservation was cancelled (sets cancelled-from-kuji on kuji pages) [R7-11]. */
  crane_reserve_cancel: (message: { readonly station_id: number; readonly reason: string }) => void;
  /** On a station channel: the play on the machine (everyone watching sees the claw). */
  play_state: (state: PlayState) => void;
  /** On the user channel: a support-chat message (an operator's reply, or the player's own from another device). */
  chat: (message: ChatMessageWire) => void;
  /** To every connection, or one user's: a maintenance-class code (not sent to status-3 users) [R8-5, R8-6, R4.6-2]. */
  service: (message: ServiceMessagePush) => void;
  /** On the operator floor channel: a station's floor changed (line, play, status, viewers); read operator/floor again. */
  floor_change: (message: { readonly station_id: number }) => void;
}

/** Events the client sends; each answers through its acknowledgement. */
export interface ClientToServerEvents {
  join: (channel: string, ack: (answer: JoinAck) => void) => void;
  leave: (channel: string, ack: (answer: JoinAck) => void) => void;
  control: (message: ControlMessage, ack: (answer: ControlAck) => void) => void;
  /** What this page shows of a station's cameras now (one report per connection; null: none). */
  watching: (message: WatchingMessage | null, ack: (answer: JoinAck) => void) => void;
}
