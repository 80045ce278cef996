import { inject, injectable } from 'inversify';
import { Subject, catchError, map, of, switchMap } from 'rxjs';
import { refusalText, type SettingsVersion } from '../../domain';
import type { PlayPort, StationAssistRecord } from '../ports/play.port';
import type { TrackEvent } from './track-event.use-case';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export type SettingsHistoryState =
  | { readonly kind: 'loading' }
  | {
      readonly kind: 'loaded';
      readonly stationId: number;
      /** The version in force now (0: never changed since versions began). */
      readonly currentVersion: number;
      /** Every version read so far, newest first. */
      readonly list: readonly SettingsVersion[];
      /** The staff assists answered at the station, newest first [R11-9]. */
      readonly assists: readonly StationAssistRecord[];
      readonly hasMore: boolean;
      /** A further page is being read. */
      readonly more: boolean;
    }
  | { readonly kind: 'error'; readonly message: string };

/**
 * A station's published settings history (docs/fair-play.md) [R11-6]: every change of its arm
 * power, price and prize, when and why, newest first, read a page at a time. Anyone may read it.
 * Scoped to the dialog that shows it.
 */
@injectable()
export class StationSettingsHistory extends StateStore<SettingsHistoryState> {
  private readonly reads = new Subject<{ stationId: number; page: number }>();
  private page = 1;

  constructor(
    @inject(TOKENS.PlayPort) private readonly plays: Pick<PlayPort, 'settingsHistory'>,
    @inject(TOKENS.TrackEvent) private readonly events: Pick<TrackEvent, 'track'>,
  ) {
    super({ kind: 'loading' });
    this.own(
      this.reads
        .pipe(
          switchMap(({ stationId, page }) =>
            this.plays.settingsHistory(stationId, page).pipe(
              map((answer) => ({ answer, page })),
              catchError((error: unknown) => of({ error: refusalText(error) })),
            ),
          ),
          this.untilDisposed(),
        )
        .subscribe((read) => {
          if ('error' in read) {
            this.setState({ kind: 'error', message: read.error });
            return;
          }
          const { answer, page } = read;
          this.page = page;
          this.setState((s) => ({
            kind: 'loaded',
            stationId: answer.stationId,
            currentVersion: answer.currentVersion,
            list: page > 1 && s.kind === 'loaded' ? [...s.list, ...answer.list] : answer.list,
            assists: page > 1 && s.kind === 'loaded' ? s.assists : answer.assists,
            hasMore: answer.hasMore,
            more: false,
          }));
        }),
    );
  }

  open(stationId: number): void {
    this.events.track('settings_history_view', { station_id: stationId });
    this.page = 1;
    this.setState({ kind: 'loading' });
    this.reads.next({ stationId, page: 1 });
  }

  /** The next page (older versions). */
  loadMore(): void {
    const s = this.snapshot;
    if (s.kind !== 'loaded' || !s.hasMore || s.more) return;
    this.setState({ ...s, more: true });
    this.reads.next({ stationId: s.stationId, page: this.page + 1 });
  }
}
