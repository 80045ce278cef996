import { inject, injectable } from 'inversify';
import {
  Subject,
  catchError,
  combineLatest,
  lastValueFrom,
  map,
  of,
  startWith,
  switchMap,
  type Observable,
} from 'rxjs';
import {
  catalogueBreadcrumb,
  cleanPathRedirect,
  pageOfItems,
  parseCataloguePath,
  PAGE_ITEMS_COUNT,
  type CatalogueNav,
  type CatalogueSelection,
  type Character,
  type Crumb,
  type PrizeItem,
  type StationLiveState,
  type TabListItem,
  type TopPageCatalogue,
  type WinnerAnnouncement,
} from '../../domain';
import { BehaviorSubject } from 'rxjs';
import type { RealtimePort } from '../ports/realtime.port';
import type { AppConfig } from '../app-config';
import type { PrizeCatalogPort } from '../ports/prize-catalog.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

/** A catalogue page with something chosen: a character, a sub-character, a tab or a keyword. */
export interface CatalogueListing {
  readonly selection: CatalogueSelection;
  readonly breadcrumb: readonly Crumb[];
  readonly title: string;
  readonly items: readonly PrizeItem[];
  readonly page: number;
  readonly pageCount: number;
  readonly totalCount: number;
}

/** What the real-time socket says about stations and winners while the page is open. */
/** A station's live numbers on the catalogue's cards: status, playing, and the lobby's viewers and line (issue 45). */
export interface LiveStation {
  readonly station_status: string;
  readonly playing?: 0 | 1;
  readonly visit_count?: number;
  readonly reserve_count?: number;
}

export interface CatalogueLive {
  readonly stations: Readonly<Record<number, LiveStation>>;
  /** The latest winning announcements, newest first (at most 5) [R9-5]. */
  readonly winners: readonly WinnerAnnouncement[];
}

export type CatalogueState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  /** The root: the top page's rows. */
  | { readonly kind: 'top'; readonly catalogue: TopPageCatalogue; readonly characters: readonly Character[] }
  | {
      readonly kind: 'listing';
      readonly listing: CatalogueListing;
      readonly tabs: readonly TabListItem[];
      readonly characters: readonly Character[];
    }
  /** A segment that is not a known character, sub-character or tab [R2.3-3, R2.3-5, R2.1-5]. */
  | { readonly kind: 'notFound'; readonly message: string }
  /** On web a path with a hash goes to the clean path [R2.3-4]. */
  | { readonly kind: 'redirect'; readonly to: string }
  | { readonly kind: 'error'; readonly error: unknown };

/** A catalogue page loaded by a server render, sent in the page for the browser to adopt. */
export interface CatalogueSnapshot {
  readonly url: string;
  readonly page: number;
  readonly state: CatalogueState;
}

const pageNumber = (page: number): number => Math.max(1, Math.floor(page) || 1);
const requestKey = (url: string, page: number): string => `${page} ${url}`;

/**
 * Catalogue navigation (§2.3): reads a path against the catalogue (characters and tabs from the
 * server, never hard-coded), answers the top page for the root, the matching stations for a
 * character / sub-character / tab / keyword path (PAGE_ITEMS_COUNT a page), the 404 for a bad
 * segment, and the redirect of a path with a hash. Scoped to the page that shows it.
 */
@injectable()
export class BrowseCatalogue extends StateStore<CatalogueState> {
  private readonly requests = new Subject<{ url: string; page: number }>();
  private readonly live = new BehaviorSubject<CatalogueLive>({ stations: {}, winners: [] });
  private listening = false;

  /** Station statuses, playing flags and winners pushed while the page is open (no reload needed). */
  readonly live$ = this.live.asObservable();

  constructor(
    @inject(TOKENS.PrizeCatalogPort)
    private readonly catalog: Pick<PrizeCatalogPort, 'topPage' | 'characters' | 'searchPrizes' | 'lobby'>,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
    @inject(TOKENS.RealtimePort) private readonly realtime: Pick<RealtimePort, 'channel'>,
  ) {
    super({ kind: 'idle' });
    this.own(
      this.requests
        .pipe(
          switchMap((r) => this.read(r.url, r.page)),
          this.untilDisposed(),
        )
        .subscribe((s) => this.setState(s)),
    );
    this.own(() => this.live.complete());
  }

  /** Shows the catalogue page of `url` (path, query and hash), at page `page` of a listing. */
  open(url: string, page = 1): void {
    this.listen();
    if (this.takeAdopted(requestKey(url, pageNumber(page)))) return;
    this.requests.next({ url, page: pageNumber(page) });
  }

  /**
   * Loads the catalogue page of `url` once, without showing it (a server render's data). A failed
   * load answers `{ kind: 'error' }`; it never rejects.
   */
  async load(url: string, page = 1): Promise<CatalogueSnapshot> {
    const p = pageNumber(page);
    return { url, page: p, state: await lastValueFrom(this.read(url, p)) };
  }

  /** Shows a page loaded by `load` (in the server's render); `open` for the same page then asks nothing. */
  adopt(snapshot: CatalogueSnapshot): void {
    this.adoptState(requestKey(snapshot.url, snapshot.page), snapshot.state);
  }

  /** The live catalogue: the top channel's maintenance, list and get updates [R7-11]. */
  private listen(): void {
    if (this.listening || this.disposed) return;
    this.listening = true;
    // The lobby's numbers as they are now; the channel's `list` updates follow (issue 45). A failed
    // read leaves the cards without numbers until an update comes.
    this.own(
      this.catalog
        .lobby()
        .pipe(this.untilDisposed())
        .subscribe({
          next: (lobby) => {
            const now = this.live.value;
            // What the channel said meanwhile is newer than this answer: it stays.
            const fresh = lobby.filter((s) => now.stations[s.station_id]?.visit_count === undefined);
            this.live.next({ ...now, stations: withLobby(now.stations, fresh) });
          },
          error: () => undefined,
        }),
    );
    this.own(
      this.realtime
        .channel({ kind: 'top' })
        .pipe(this.untilDisposed())
        .subscribe((event) => {
          const now = this.live.value;
          if (event.type === 'maintenance') {
            this.live.next({
              ...now,
              stations: {
                ...now.stations,
                [event.stationId]: { ...now.stations[event.stationId], station_status: event.stationStatus },
              },
            });
          } else if (event.type === 'list') {
            this.live.next({ ...now, stations: withLobby(now.stations, event.stations) });
          } else if (event.type === 'winner') {
            this.live.next({ ...now, winners: [event.announcement, ...now.winners].slice(0, 5) });
          }
        }),
    );
  }

  private read(url: string, page: number): Observable<CatalogueState> {
    const redirect = cleanPathRedirect(this.config.target, url);
    if (redirect !== null) return of<CatalogueState>({ kind: 'redirect', to: redirect });
    const shopId = this.config.shopId;
    return combineLatest([this.catalog.topPage({ shopId }), this.catalog.characters()]).pipe(
      switchMap(([top, characters]): Observable<CatalogueState> => {
        const nav: CatalogueNav = { characters, tabs: top.tab_list };
        const parsed = parseCataloguePath(this.config.target, nav, url);
        if (!parsed.ok) return of({ kind: 'notFound', message: parsed.message });
        const s = parsed.selection;
        if (s.character === undefined && s.tab === undefined && s.keyword === undefined)
          return of({ kind: 'top', catalogue: top, characters });
        const character = characters.find((c) => c.character_slug === s.character);
        const sub = character?.sub_character.find((x) => x.sub_character_slug === s.subCharacter);
        const tab = top.tab_list.find((t) => t.tab_slug === s.tab);
        // A sub-character is not a search param of the service: ask for every match and page here.
        const whole = sub !== undefined;
        const params = {
          ...(character ? { character_id: character.character_id } : {}),
          ...(tab && tab.tab_kind !== 'home' && tab.tab_kind !== 'all' ? { category_id: tab.tab_id } : {}),
          ...(s.keyword ? { keyword: s.keyword } : {}),
          ...(whole ? { is_all: 1 as const } : {}),
        };
        return this.catalog.searchPrizes({ shopId, params, page: whole ? 1 : page }).pipe(
          map((result): CatalogueState => {
            const matching = whole
              ? result.prize.list.filter((p) => p.sub_character === sub.sub_character_name)
              : result.prize.list;
            const totalCount = whole ? matching.length : result.prize.total_count;
            const pageCount = whole
              ? Math.max(1, Math.ceil(matching.length / PAGE_ITEMS_COUNT))
              : result.prize.page_count;
            const title = [character?.character_name, sub?.sub_character_name, tab?.tab_name, s.keyword]
              .filter(Boolean)
              .join(' / ');
            return {
              kind: 'listing',
              tabs: top.tab_list,
              characters,
              listing: {
                selection: s,
                breadcrumb: catalogueBreadcrumb(this.config.target, nav, s),
                title,
                items: whole ? pageOfItems(matching, page) : matching,
                page: whole ? Math.min(page, pageCount) : result.prize.page,
                pageCount,
                totalCount,
              },
            };
          }),
        );
      }),
      catchError((error: unknown) => of<CatalogueState>({ kind: 'error', error })),
      startWith<CatalogueState>({ kind: 'loading' }),
    );
  }
}

/** The cards' live stations with these stations' numbers put in. */
function withLobby(
  stations: Readonly<Record<number, LiveStation>>,
  update: readonly StationLiveState[],
): Record<number, LiveStation> {
  const next: Record<number, LiveStation> = { ...stations };
  for (const s of update)
    next[s.station_id] = {
      station_status: s.station_status,
      playing: s.playing,
      visit_count: s.visit_count,
      ...(s.reserve_count === undefined ? {} : { reserve_count: s.reserve_count }),
    };
  return next;
}
