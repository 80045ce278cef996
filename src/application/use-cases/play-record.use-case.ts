import { inject, injectable } from 'inversify';
import { Subject, switchMap } from 'rxjs';
import type { AssistGaugeView } from '../../domain';
import type { ClockPort, ScheduledTask } from '../ports/clock.port';
import type { PlayHistoryPage, PlayPort } from '../ports/play.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

/**
 * While a play of the shown log has its video still being written (a clip is ready about 3 s after
 * the result), the log is read again this often, at most this many times in a row.
 */
export const HISTORY_CLIP_POLL_MS = 2_000;
export const HISTORY_CLIP_POLL_LIMIT = 5;

export interface PlayRecordState {
  /** The player's assist gauge at the station (signed in). */
  readonly gauge: AssistGaugeView | null;
  /** The player's play log, once asked for. */
  readonly history: PlayHistoryPage | null;
}

/**
 * The player's record at a station (docs/play.md): the assist gauge and the play log (every
 * play's price, arm strength, assist level, seed and result). Both are read again after a result;
 * the newest read wins (`switchMap`); a page with a video still being written is read again until
 * it is ready (HISTORY_CLIP_POLL_MS, at most HISTORY_CLIP_POLL_LIMIT times). One per play screen.
 */
@injectable()
export class PlayRecord extends StateStore<PlayRecordState> {
  private stationId: number | null = null;
  private readonly gaugeReads = new Subject<number>();
  private readonly historyReads = new Subject<number>();
  private clipPoll: ScheduledTask | null = null;
  private clipPolls = 0;

  constructor(
    @inject(TOKENS.PlayPort) private readonly plays: Pick<PlayPort, 'gauge' | 'history'>,
    @inject(TOKENS.SessionPort) private readonly session: SessionPort,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
  ) {
    super({ gauge: null, history: null });
    this.own(
      this.gaugeReads
        .pipe(switchMap((stationId) => this.firstOrNull(() => this.plays.gauge(stationId))))
        .subscribe((gauge) => gauge && this.setState((s) => ({ ...s, gauge }))),
    );
    this.own(
      this.historyReads
        .pipe(switchMap((page) => this.firstOrNull(() => this.plays.history(page))))
        .subscribe((history) => {
          if (!history) return;
          this.setState((s) => ({ ...s, history }));
          this.pollClips(history);
        }),
    );
    this.own(() => this.clipPoll?.cancel());
  }

  /** A clip of the page still being written: the page is read again shortly (its row then says 動画). */
  private pollClips(history: PlayHistoryPage): void {
    this.clipPoll?.cancel();
    this.clipPoll = null;
    const recording = history.list.some((entry) => entry.clip?.status === 'recording');
    if (!recording || this.clipPolls >= HISTORY_CLIP_POLL_LIMIT || this.disposed) return;
    this.clipPolls += 1;
    this.clipPoll = this.clock.setTimeout(() => {
      this.clipPoll = null;
      if (this.session.current() !== null) this.historyReads.next(history.page);
    }, HISTORY_CLIP_POLL_MS);
  }

  start(stationId: number): void {
    this.stationId = stationId;
    this.setState({ gauge: null, history: null });
  }

  /** Reads the gauge (signed in). */
  refreshGauge(): void {
    if (this.stationId !== null && this.session.current() !== null) this.gaugeReads.next(this.stationId);
  }

  /** Loads a page of the player's own play log. */
  loadHistory(page = 1): void {
    this.clipPolls = 0;
    if (this.session.current() !== null) this.historyReads.next(page);
  }

  /** A play ended with a result: the gauge moved and the log (when shown) has a new row. */
  afterResult(): void {
    this.refreshGauge();
    if (this.snapshot.history) this.loadHistory();
  }
}
