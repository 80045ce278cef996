import { inject, injectable } from 'inversify';
import { Subject, catchError, map, of, startWith, switchMap } from 'rxjs';
import type { TopPageCatalogue } from '../../domain';
import type { AppConfig } from '../app-config';
import type { PrizeCatalogPort } from '../ports/prize-catalog.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export type TopPageState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly catalogue: TopPageCatalogue }
  | { readonly kind: 'error'; readonly error: unknown };

/**
 * The top page's catalogue as a stream of states. `load()` (re)fetches; a newer load cancels an
 * older one still in flight, and `dispose()` cancels the one in flight. `state$` never errors: a
 * failure is the 'error' state. Scoped to the page that shows it (`useScopedUseCase`).
 */
@injectable()
export class BrowseTopPage extends StateStore<TopPageState> {
  private readonly requests = new Subject<void>();

  constructor(
    // Only the top page is read here; a narrower type keeps test doubles small.
    @inject(TOKENS.PrizeCatalogPort) private readonly catalog: Pick<PrizeCatalogPort, 'topPage'>,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
  ) {
    super({ kind: 'idle' });
    this.own(
      this.requests
        .pipe(
          switchMap(() =>
            this.catalog.topPage({ shopId: this.config.shopId }).pipe(
              map((catalogue): TopPageState => ({ kind: 'loaded', catalogue })),
              catchError((error: unknown) => of<TopPageState>({ kind: 'error', error })),
              startWith<TopPageState>({ kind: 'loading' }),
            ),
          ),
          this.untilDisposed(),
        )
        .subscribe((state) => this.setState(state)),
    );
  }

  /** Fetches the catalogue again, cancelling a fetch still in flight. */
  load(): void {
    this.requests.next();
  }

  /** Fetches only if nothing was fetched or is being fetched yet (a page mounting twice asks once). */
  ensureLoaded(): void {
    if (this.snapshot.kind === 'idle') this.load();
  }
}
