import { inject, injectable } from 'inversify';
import { BehaviorSubject, firstValueFrom, map, tap, type Observable } from 'rxjs';
import { refusalText, type FreeTcLot, type PlayLogEntry, type TcHistoryEntry } from '../../domain';
import type { PlayPort } from '../ports/play.port';
import type { SessionPort } from '../ports/session.port';
import type { WalletPort } from '../ports/wallet.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface PagedHistoryState<T> {
  readonly entries: readonly T[];
  /** The last page read (0 before the first). */
  readonly page: number;
  readonly hasMore: boolean;
  readonly loading: boolean;
  readonly error: string | null;
  /** Nobody is signed in: the history is the player's own. */
  readonly signedOut: boolean;
}

/**
 * A history the player pages through, newest first: the first page on `start`, the next on `more`
 * (appended; one request at a time). Scoped to the modal that shows it.
 */
abstract class PagedHistory<T> extends StateStore<PagedHistoryState<T>> {
  constructor(private readonly session: Pick<SessionPort, 'current'>) {
    super({ entries: [], page: 0, hasMore: false, loading: false, error: null, signedOut: false });
  }

  protected abstract fetch(page: number): Observable<{ entries: readonly T[]; page: number; hasMore: boolean }>;

  async start(): Promise<void> {
    if (this.session.current() === null) {
      this.setState((s) => ({ ...s, signedOut: true }));
      return;
    }
    this.setState({ entries: [], page: 0, hasMore: false, loading: false, error: null, signedOut: false });
    await this.more();
  }

  async more(): Promise<void> {
    const s = this.snapshot;
    if (s.loading || s.signedOut || (s.page > 0 && !s.hasMore)) return;
    this.setState({ ...s, loading: true, error: null });
    try {
      const next = await firstValueFrom(this.fetch(s.page + 1));
      this.setState((now) => ({
        ...now,
        entries: [...now.entries, ...next.entries],
        page: next.page,
        hasMore: next.hasMore,
        loading: false,
      }));
    } catch (error) {
      this.setState((now) => ({ ...now, loading: false, error: refusalText(error) }));
    }
  }
}

/**
 * The TC used history modal: every ledger operation of the player, free and paid apart, and the
 * free TC lots still held with their ends (`freeLots$`, as the first page answered) [R11-7].
 */
@injectable()
export class TcUsedHistory extends PagedHistory<TcHistoryEntry> {
  private readonly lots = new BehaviorSubject<readonly FreeTcLot[]>([]);
  /** The live free lots, the earliest end first. */
  readonly freeLots$: Observable<readonly FreeTcLot[]> = this.lots.pipe(this.untilDisposed());

  constructor(
    @inject(TOKENS.WalletPort) private readonly wallet: Pick<WalletPort, 'tcHistory'>,
    @inject(TOKENS.SessionPort) session: Pick<SessionPort, 'current'>,
  ) {
    super(session);
  }

  get freeLots(): readonly FreeTcLot[] {
    return this.lots.value;
  }

  protected fetch(page: number) {
    return this.wallet.tcHistory(page).pipe(tap((p) => page === 1 && this.lots.next(p.freeLots)));
  }
}

/** The play history modal: each finished play with its station, prize, result, charge and settings log. */
@injectable()
export class PlayHistory extends PagedHistory<PlayLogEntry> {
  constructor(
    @inject(TOKENS.PlayPort) private readonly play: Pick<PlayPort, 'history'>,
    @inject(TOKENS.SessionPort) session: Pick<SessionPort, 'current'>,
  ) {
    super(session);
  }

  protected fetch(page: number) {
    return this.play.history(page).pipe(map((p) => ({ entries: p.list, page: p.page, hasMore: p.hasMore })));
  }
}
