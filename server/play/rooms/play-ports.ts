import type { PlayState, PushMessage, WinnerAnnouncement } from '../../../src/contract';
import type {
  Charged,
  PlayCurrency,
  RoomEffect,
  RoomSnapshot,
  RoomWrite,
  StartedPlay,
  StationStatus,
} from '../../../src/domain';
import type { SqlExecutor } from '../../store/store';
import type { KujiBoxEvents } from '../../kuji/kuji-kind';

/** The `startPlay` effect a room carries out. */
export type StartPlay = Extract<RoomEffect, { type: 'startPlay' }>;

/**
 * Where a station room keeps what must outlive the process: its station row, its line, its plays.
 * Every method is one transaction; the implementation is the only writer of reservation statuses
 * (server/play/rooms/sql-play-store.ts).
 */
export interface PlayStore {
  /** The rooms as stored: every station's, or only those named. */
  loadRooms(stationIds?: readonly number[]): Promise<RoomSnapshot[]>;
  /** The writes of one step, in order, in one transaction (refunds go through the ledger in it). */
  commit(stationId: number, writes: readonly RoomWrite[]): Promise<void>;
  /**
   * A new place in a station's line, after the player's own checks (VIP gate, TC for one play, one
   * place at a time); throws the refusal and writes nothing.
   */
  addToLine(stationId: number, userId: number): Promise<{ reserveId: number; settingId: number }>;
  /** Charges a play and writes it; throws the refusal (too little TC, …) and writes nothing. */
  startPlay(stationId: number, start: StartPlay, seed: number): Promise<StartedPlay>;
  /** The name a winner is announced by. */
  nickname(userId: number): Promise<string | null>;
}

/** The money of a play, taken and given back inside the store's transaction. */
export interface PlayLedger {
  /** Takes the price of play `playId` (idempotent per play); throws InsufficientFundsError. */
  charge(tx: SqlExecutor, userId: number, playId: number, currency: PlayCurrency, price: number): Promise<Charged>;
  /** Gives back exactly what the play took (idempotent per play: a second refund changes nothing). */
  refund(tx: SqlExecutor, refund: Extract<RoomWrite, { kind: 'refund' }>): Promise<void>;
}

/** What the rooms tell the world; the realtime hub implements it (tests may record it). */
export interface PlayEvents {
  /** A station's line changed (reserve_change=1 on its channel). */
  lineChanged(stationId: number): void;
  /** The play on a station's machine, for everyone watching it. */
  playState(stationId: number, state: PlayState): void;
  /** A notice to one user (turn near, turn now, cancellation). */
  push(userId: number, push: PushMessage): void;
  /** A user's crane reservation was cancelled (user channel). */
  reserveCancelled(userId: number, stationId: number, reason: string): void;
  /** A station's status changed. */
  stationStatus(stationId: number, status: StationStatus): void;
  /** Someone won a prize. */
  winner(announcement: WinnerAnnouncement): void;
  /** The operators' floors read a station again (a stray prize to settle). */
  floorChanged(stationId: number): void;
}

/** What a station room tells the plays' recorder (server/clips/play-clips.ts, docs/clips.md). */
export interface PlayRecording {
  /** A play was charged and written: its cameras are recorded from now. */
  playStarted(start: { stationId: number; playId: number; userId: number; prizeName: string }): void;
  /** A play has its result, or ended without one (refunded): its clip ends a moment later. */
  playEnded(playId: number): void;
}

/** No recorder (before the clips are wired, or tests of the rooms alone). */
export const NO_RECORDING: PlayRecording = { playStarted: () => undefined, playEnded: () => undefined };

/** Events nobody hears (before the realtime hub is wired). */
export const SILENT_PLAY_EVENTS: PlayEvents & KujiBoxEvents = {
  kujiLineChanged: () => undefined,
  kujiBoxEnded: () => undefined,
  lineChanged: () => undefined,
  playState: () => undefined,
  push: () => undefined,
  reserveCancelled: () => undefined,
  stationStatus: () => undefined,
  winner: () => undefined,
  floorChanged: () => undefined,
};
