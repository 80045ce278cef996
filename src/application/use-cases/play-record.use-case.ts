import { inject, injectable } from 'inversify';
import { Subject, switchMap } from 'rxjs';
import type { AssistGaugeView } from '../../domain';
import type { PlayHistoryPage, PlayPort } from '../ports/play.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface PlayRecordState {
  /** The player's assist gauge at the station (signed in). */
  readonly gauge: AssistGaugeView | null;
  /** The player's play log, once asked for. */
  readonly history: PlayHistoryPage | null;
}

/**
 * The player's record at a station (docs/play.md): the assist gauge and the play log (every
 * play's price, arm strength, assist level, seed and result). Both are read again after a result;
 * the newest read wins (`switchMap`). One per play screen.
 */
@injectable()
export class PlayRecord extends StateStore<PlayRecordState> {
  private stationId: number | null = null;
  private readonly gaugeReads = new Subject<number>();
  private readonly historyReads = new Subject<number>();

  constructor(
    @inject(TOKENS.PlayPort) private readonly plays: Pick<PlayPort, 'gauge' | 'history'>,
    @inject(TOKENS.SessionPort) private readonly session: SessionPort,
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
        .subscribe((history) => history && this.setState((s) => ({ ...s, history }))),
    );
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
    if (this.session.current() !== null) this.historyReads.next(page);
  }

  /** A play ended with a result: the gauge moved and the log (when shown) has a new row. */
  afterResult(): void {
    this.refreshGauge();
    if (this.snapshot.history) this.loadHistory();
  }
}
