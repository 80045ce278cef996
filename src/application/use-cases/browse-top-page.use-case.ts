import { inject, injectable } from 'inversify';
import { BehaviorSubject, Subject, catchError, map, of, startWith, switchMap, takeUntil, type Observable } from 'rxjs';
import type { TopPageCatalogue } from '../../domain';
import type { AppConfig } from '../app-config';
import type { PrizeCatalogPort } from '../ports/prize-catalog.port';
import { TOKENS } from '../tokens';

export type TopPageState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly catalogue: TopPageCatalogue }
  | { readonly kind: 'error'; readonly error: unknown };

/**
 * The top page's catalogue as a stream of states. `load()` (re)fetches; a newer load cancels an
 * older one still in flight. `state$` never errors: a failure is the 'error' state.
 */
@injectable()
export class BrowseTopPage {
  private readonly state = new BehaviorSubject<TopPageState>({ kind: 'idle' });
  private readonly requests = new Subject<void>();
  private readonly disposed = new Subject<void>();

  readonly state$: Observable<TopPageState> = this.state.asObservable();

  constructor(
    // Only the top page is read here; a narrower type keeps test doubles small.
    @inject(TOKENS.PrizeCatalogPort) private readonly catalog: Pick<PrizeCatalogPort, 'topPage'>,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
  ) {
    this.requests
      .pipe(
        switchMap(() =>
          this.catalog.topPage({ shopId: this.config.shopId }).pipe(
            map((catalogue): TopPageState => ({ kind: 'loaded', catalogue })),
            catchError((error: unknown) => of<TopPageState>({ kind: 'error', error })),
            startWith<TopPageState>({ kind: 'loading' }),
          ),
        ),
        takeUntil(this.disposed),
      )
      .subscribe(this.state);
  }

  get snapshot(): TopPageState {
    return this.state.value;
  }

  /** Fetches the catalogue again, cancelling a fetch still in flight. */
  load(): void {
    this.requests.next();
  }

  /** Fetches only if nothing was fetched or is being fetched yet (a page mounting twice asks once). */
  ensureLoaded(): void {
    if (this.state.value.kind === 'idle') this.load();
  }

  /** Cancels any request in flight and completes `state$`. */
  dispose(): void {
    this.disposed.next();
    this.disposed.complete();
  }
}
