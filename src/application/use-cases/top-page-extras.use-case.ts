import { inject, injectable } from 'inversify';
import { catchError, filter, firstValueFrom, map, of, startWith, type Observable } from 'rxjs';
import {
  NEW_ARRIVALS_LIMIT,
  NEWS_PAGE_SIZE,
  sideBannerCarousels,
  type CarouselSlide,
  type InformationItem,
  type NewArrival,
} from '../../domain';
import type { AppConfig } from '../app-config';
import type { PrizeCatalogPort } from '../ports/prize-catalog.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

/** One row of the top page that loads by itself: a failure hides that row only. */
export type Row<T> =
  { readonly kind: 'loading' } | { readonly kind: 'loaded'; readonly items: readonly T[] } | { readonly kind: 'error' };

export interface TopPageExtrasState {
  /** Every running slide, for the carousel. */
  readonly carousels: Row<CarouselSlide>;
  /** The first 3 slides, for the side banner [R9-2]. */
  readonly sideBanner: readonly CarouselSlide[];
  /** The start news flagged for the top page (100 a page) [R9-2]. */
  readonly news: Row<InformationItem>;
  /** The prize store's new arrivals (50) [R7-7, R9-2]. */
  readonly arrivals: Row<NewArrival>;
}

const LOADING = { kind: 'loading' } as const;

export type ExtraRow = 'carousels' | 'news' | 'arrivals';

const ALL_ROWS: readonly ExtraRow[] = ['carousels', 'news', 'arrivals'];

/**
 * The top page's editorial rows around the catalogue (§7 carousel, start news, new arrivals). Each
 * row is asked for by itself, so a slow or failing one never holds the others or the catalogue.
 * Page-scoped; `load()` asks once per instance.
 */
@injectable()
export class TopPageExtras extends StateStore<TopPageExtrasState> {
  private loaded = false;
  private adopted: readonly ExtraRow[] = [];

  constructor(
    @inject(TOKENS.PrizeCatalogPort)
    private readonly catalog: Pick<PrizeCatalogPort, 'carousels' | 'startNews' | 'newArrivals'>,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
  ) {
    super({ carousels: LOADING, sideBanner: [], news: LOADING, arrivals: LOADING });
  }

  /** Asks for the rows named (every row when omitted), once per instance. */
  load(asked: readonly ExtraRow[] = ALL_ROWS): void {
    if (this.loaded || this.disposed) return;
    this.loaded = true;
    const rows = asked.filter((r) => !this.adopted.includes(r));
    const shopId = this.config.shopId;
    if (rows.includes('carousels')) {
      this.own(
        row(this.catalog.carousels({ shopId }))
          .pipe(this.untilDisposed())
          .subscribe((carousels) => {
            this.setState((s) => ({
              ...s,
              carousels,
              sideBanner: carousels.kind === 'loaded' ? sideBannerCarousels(carousels.items) : [],
            }));
          }),
      );
    }
    if (rows.includes('news')) {
      this.own(
        row(this.catalog.startNews({ shopId, only: 'topPage', page: 1, num: NEWS_PAGE_SIZE }).pipe(map((n) => n.list)))
          .pipe(this.untilDisposed())
          .subscribe((news) => this.setState((s) => ({ ...s, news }))),
      );
    }
    if (rows.includes('arrivals')) {
      this.own(
        row(this.catalog.newArrivals(NEW_ARRIVALS_LIMIT))
          .pipe(this.untilDisposed())
          .subscribe((arrivals) => this.setState((s) => ({ ...s, arrivals }))),
      );
    }
  }

  /**
   * Shows rows loaded elsewhere (the server's render, `loadExtras`); `load()` then asks only for
   * the rows that were not loaded there.
   */
  adopt(state: TopPageExtrasState): void {
    if (this.disposed) return;
    this.setState(state);
    this.adopted = ALL_ROWS.filter((r) => state[r].kind === 'loaded');
  }
}

/**
 * Loads the rows named and answers once each has arrived or failed (a server render's data); the
 * rows not named stay 'loading'.
 */
export async function loadExtras(
  extras: TopPageExtras,
  rows: readonly ExtraRow[] = ALL_ROWS,
): Promise<TopPageExtrasState> {
  extras.load(rows);
  return firstValueFrom(extras.state$.pipe(filter((s) => rows.every((r) => s[r].kind !== 'loading'))));
}

function row<T>(source: Observable<readonly T[]>): Observable<Row<T>> {
  return source.pipe(
    map((items): Row<T> => ({ kind: 'loaded', items })),
    catchError(() => of<Row<T>>({ kind: 'error' })),
    startWith<Row<T>>(LOADING),
  );
}
