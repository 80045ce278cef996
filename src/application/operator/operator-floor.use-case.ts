import { inject, injectable } from 'inversify';
import { auditTime, filter, Subject, switchMap } from 'rxjs';
import type { StaffAssistAnswer, StationStatus } from '../../domain';
import type { ClockPort } from '../ports/clock.port';
import { StateStore } from '../use-cases/state-store';
import { failureInfo } from './operator-call-failed';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type {
  FloorStation,
  OperatorApiPort,
  OperatorFloorFeedPort,
  OperatorPlayClip,
  OperatorPlayLogEntry,
  PrizeChange,
  SettingsChangeAsk,
  StationChange,
  StraySettle,
} from './ports/operator-api.port';
import { replayLoggedPlay, type ReplayedPlay } from './play-replay';

export interface FloorData {
  readonly stations: readonly FloorStation[];
  /** When the floor was read (ClockPort): a play's ms_left counts down from here. */
  readonly readAt: number;
  /** Whether the live channel is connected (false: the floor is re-read only on demand). */
  readonly live: boolean;
}

export type FloorActionName =
  | 'status'
  | 'fault'
  | 'endPlay'
  | 'removeFromLine'
  | 'pause'
  | 'restock'
  | 'changePrize'
  | 'settings'
  | 'strayAward'
  | 'strayReturn'
  | 'assistDone'
  | 'assistDeclined';

/** Pushes closer together than this are read once (a play's phase change touches several rows). */
export const FLOOR_REREAD_MS = 300;

/**
 * The floor (right `floor`): every station with its line, play and viewers, kept live by the
 * operator floor channel (each `floor_change` reads the floor again, bursts read once), and the
 * station actions, each run once the operator confirmed it, showing the answer (the refunded play).
 */
@injectable()
export class OperatorFloor extends OperatorScreen<FloorData, FloorActionName> {
  private readonly changes = new Subject<void>();
  private started = false;

  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: OperatorApiPort,
    @inject(OPERATOR_TOKENS.OperatorFloorFeedPort) private readonly feed: OperatorFloorFeedPort,
    @inject(OPERATOR_TOKENS.OperatorSession)
    private readonly operatorSession: Pick<OperatorSession, 'refused' | 'token' | 'active'>,
    @inject(OPERATOR_TOKENS.ClockPort) private readonly clock: Pick<ClockPort, 'now'>,
  ) {
    super(operatorSession, { stations: [], readAt: 0, live: false });
  }

  /** Reads the floor and follows the live channel until disposed. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.refresh();
    const token = this.operatorSession.token();
    if (token) {
      this.own(
        this.feed
          .watch(token)
          .pipe(this.untilDisposed())
          .subscribe((event) => {
            if (event.kind === 'change') return this.changes.next();
            this.setState((s) => ({ ...s, data: { ...s.data, live: event.kind === 'connected' } }));
            // After a reconnection anything may have changed meanwhile.
            if (event.kind === 'connected') this.changes.next();
          }),
      );
    }
    this.own(
      this.changes
        .pipe(
          auditTime(FLOOR_REREAD_MS),
          filter(() => !this.disposed),
          switchMap(() => this.refresh()),
        )
        .subscribe(),
    );
  }

  refresh(): Promise<void> {
    return this.load(async () => {
      const stations = await this.api.floor();
      return { stations, readAt: this.clock.now(), live: this.snapshot.data.live };
    });
  }

  setStatus(stationId: number, status: StationStatus): Promise<StationChange | null> {
    return this.station('status', () => this.api.stationStatus(stationId, status));
  }
  fault(stationId: number): Promise<StationChange | null> {
    return this.station('fault', () => this.api.fault(stationId));
  }
  /** Ends that play with a refund (the play id names it, so a second click cannot end the next one). */
  endPlay(stationId: number, playId: number): Promise<StationChange | null> {
    return this.station('endPlay', () => this.api.endPlay(stationId, playId));
  }
  removeFromLine(stationId: number, userId: number): Promise<boolean | null> {
    return this.station('removeFromLine', () => this.api.removeFromLine(stationId, userId));
  }
  pause(stationId: number, paused: boolean): Promise<boolean | null> {
    return this.station('pause', () => this.api.pause(stationId, paused));
  }
  /** Settles a stray prize: the prize box entry made for the player (award), or null. */
  settleStrayPrize(stationId: number, strayId: number, settle: StraySettle): Promise<number | null> {
    return this.station(settle === 'award' ? 'strayAward' : 'strayReturn', () =>
      this.api.settleStrayPrize(stationId, strayId, settle),
    );
  }
  restock(stationId: number, stock: number): Promise<StationChange | null> {
    return this.station('restock', () => this.api.restock(stationId, stock));
  }
  changePrize(stationId: number, change: PrizeChange): Promise<StationChange | null> {
    return this.station('changePrize', () => this.api.changePrize(stationId, change));
  }
  /** The arm strength and the price, with a reason [R11-6]: the answer says whether it waits for a run to end. */
  stationSettings(stationId: number, change: SettingsChangeAsk): Promise<StationChange | null> {
    return this.station('settings', () => this.api.stationSettings(stationId, change));
  }

  /** Answers a player's staff assist [R11-9]: done (the prize put back within reach) or declined. */
  answerAssist(stationId: number, playId: number, answer: StaffAssistAnswer): Promise<true | null> {
    return this.station(answer === 'done' ? 'assistDone' : 'assistDeclined', async () => {
      await this.api.answerAssist(stationId, playId, answer);
      return true as const;
    });
  }

  private async station<R>(name: FloorActionName, run: () => Promise<R>): Promise<R | null> {
    const result = await this.act(name, run);
    // The channel will say so too; reading now shows the change without waiting for it.
    if (result !== null) this.changes.next();
    return result;
  }
}

export interface PlayLogState {
  readonly status: 'idle' | 'loading' | 'ready' | 'error';
  readonly stationId: number | null;
  readonly entries: readonly OperatorPlayLogEntry[];
  readonly error: string | null;
  /** Replays computed in the browser, by play id. */
  readonly replays: Readonly<Record<number, ReplayedPlay>>;
  /** The play whose clip is shown beside its settings, or null. */
  readonly clip: PlayClipView | null;
}

/** A play's clip as the play log shows it: loading, its files' addresses, or why it cannot be shown. */
export type PlayClipView =
  | { readonly playId: number; readonly status: 'loading' }
  | { readonly playId: number; readonly status: 'ready'; readonly clip: OperatorPlayClip }
  | { readonly playId: number; readonly status: 'error'; readonly error: string };

/** The play log of one station (right `floor`), each play replayable in the browser. */
@injectable()
export class OperatorPlayLog extends StateStore<PlayLogState> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: Pick<OperatorApiPort, 'playLog' | 'playClip'>,
    @inject(OPERATOR_TOKENS.OperatorSession) private readonly session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super({ status: 'idle', stationId: null, entries: [], error: null, replays: {}, clip: null });
  }

  async open(stationId: number, limit = 20): Promise<void> {
    this.setState({ status: 'loading', stationId, entries: [], error: null, replays: {}, clip: null });
    try {
      const entries = await this.api.playLog(stationId, limit);
      if (this.snapshot.stationId === stationId) this.setState((s) => ({ ...s, status: 'ready', entries }));
    } catch (error) {
      this.setState((s) => ({ ...s, status: 'error', error: failureInfo(error) ?? '' }));
      void this.session.refused(error);
    }
  }

  /**
   * Loads a logged play's clip (right `floor`: any play's) with addresses of its files, to show it
   * beside the play's settings; a later call for another play replaces it.
   */
  async showClip(playId: number): Promise<void> {
    this.setState((s) => ({ ...s, clip: { playId, status: 'loading' } }));
    try {
      const clip = await this.api.playClip(playId);
      this.setState((s) => (s.clip?.playId === playId ? { ...s, clip: { playId, status: 'ready', clip } } : s));
    } catch (error) {
      this.setState((s) =>
        s.clip?.playId === playId ? { ...s, clip: { playId, status: 'error', error: failureInfo(error) ?? '' } } : s,
      );
      void this.session.refused(error);
    }
  }

  /** Closes the clip shown. */
  hideClip(): void {
    this.setState((s) => ({ ...s, clip: null }));
  }

  /** Replays one logged play with the domain's crane machine. */
  replay(playId: number): ReplayedPlay | null {
    const entry = this.snapshot.entries.find((e) => e.play_id === playId);
    if (!entry) return null;
    const replayed = replayLoggedPlay(entry);
    this.setState((s) => ({ ...s, replays: { ...s.replays, [playId]: replayed } }));
    return replayed;
  }
}
