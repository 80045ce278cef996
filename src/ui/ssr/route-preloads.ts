import { firstValueFrom } from 'rxjs';
import {
  loadExtras,
  TOKENS,
  type AppConfig,
  type CatalogueSnapshot,
  type Disposable,
  type ExtraRow,
  type PrizeCatalogPort,
  type SharedClipSnapshot,
  type StationSnapshot,
  type Token,
  type TopPageExtrasState,
} from '../../application';
import { clipPageHead, playScreenStationId, stationPosters, type KujiOnSale, type PageHead } from '../../domain';
import { leadPicture, PICTURE_LAYOUTS } from '../components/picture';
import { SLIDE_MEDIA } from '../components/slide-media';
import type { LeadImage, PreloadContext, RoutePreload } from './preload';

/** `?page=` as the pages read it. */
const pageOf = (url: URL): number => Number(url.searchParams.get('page') ?? 1) || 1;

/** Runs `load` on a fresh page-scoped use-case and disposes it, whatever happens. */
async function withUseCase<T extends Disposable, R>(
  context: PreloadContext,
  token: Token<T>,
  load: (useCase: T) => Promise<R>,
): Promise<R> {
  const useCase = context.container.get<T>(token);
  try {
    return await load(useCase);
  } finally {
    useCase.dispose();
  }
}

/** A catalogue page's data: the catalogue, and on the top page its editorial rows. */
export interface CataloguePreload extends CatalogueSnapshot {
  readonly extras?: TopPageExtrasState;
}

/**
 * The top page's editorial rows (carousel, news, new arrivals) as the page first shows them: a row
 * that failed here is sent as still loading, so the browser asks for it again.
 */
async function preloadExtras(context: PreloadContext, rows?: readonly ExtraRow[]): Promise<TopPageExtrasState> {
  const state = await withUseCase(context, TOKENS.TopPageExtras, (extras) => loadExtras(extras, rows));
  const retry = <R extends TopPageExtrasState[ExtraRow]>(row: R): R =>
    row.kind === 'error' ? ({ kind: 'loading' } as R) : row;
  return { ...state, carousels: retry(state.carousels), news: retry(state.news), arrivals: retry(state.arrivals) };
}

/** The catalogue (top page, character, tab and keyword paths): what BrowseCatalogue shows first. */
export const preloadCatalogue: RoutePreload = async (context) => {
  const [snapshot, extras] = await Promise.all([
    withUseCase(context, TOKENS.BrowseCatalogue, (browse) =>
      browse.load(`${context.url.pathname}${context.url.search}`, pageOf(context.url)),
    ),
    context.url.pathname === '/' ? preloadExtras(context) : Promise.resolve(undefined),
  ]);
  if (snapshot.state.kind === 'error') return null;
  return { ...snapshot, ...(extras && snapshot.state.kind === 'top' ? { extras } : {}) } satisfies CataloguePreload;
};

/**
 * The top page leads with its carousel's first slide (its narrow picture on phones, its wide one
 * above), for a guest (every server render is a guest's) the new-user banner below it, and the
 * festival's banner heading the first row: on a phone all three are in the first screen. A listing (a character, a
 * tab, a search) leads with its first two cards' pictures.
 */
export function catalogueLeadImages(preloaded: unknown): readonly LeadImage[] {
  const data = preloaded as CataloguePreload | null | undefined;
  const carousels = data?.extras?.carousels;
  const first = carousels?.kind === 'loaded' ? carousels.items[0] : undefined;
  const newUser = data?.state.kind === 'top' ? data.state.catalogue.new_user.img : '';
  // The festival's banner heads the first row, still in a phone's first screen.
  const festival =
    data?.state.kind === 'top' && data.state.catalogue.fes.list.length > 0 ? data.state.catalogue.fes.img : '';
  if (data?.state.kind === 'listing') {
    // A listing leads with its first cards (two to a row on a phone).
    return data.state.listing.items.slice(0, 2).map((item) => leadPicture(item.img_url, PICTURE_LAYOUTS.card));
  }
  return [
    ...(first
      ? [
          leadPicture(first.sp_img_url, PICTURE_LAYOUTS.carousel, SLIDE_MEDIA.narrow),
          leadPicture(first.pc_img_url, PICTURE_LAYOUTS.carousel, SLIDE_MEDIA.wide),
        ]
      : []),
    ...(newUser ? [leadPicture(newUser, PICTURE_LAYOUTS.banner)] : []),
    ...(festival ? [leadPicture(festival, PICTURE_LAYOUTS.banner)] : []),
  ];
}

/** /arrival-items: the new arrivals. */
export const preloadArrivals: RoutePreload = async (context) => preloadExtras(context, ['arrivals']);

/** A play screen: the station's card (its name and pictures); the machine, the queue and the feed come live. */
export const preloadStation: RoutePreload = async (context) => {
  const { target } = context.container.get<AppConfig>(TOKENS.AppConfig);
  const stationId = playScreenStationId(target, context.params.stationId, context.url.pathname);
  if (stationId === null) return null;
  return withUseCase(context, TOKENS.StationPlay, (play) => play.loadStation(stationId));
};

/** A play screen leads with its front camera's latest picture, when the server sent the station's feed. */
export function stationLeadImages(preloaded: unknown): readonly LeadImage[] {
  const info = (preloaded as StationSnapshot | null | undefined)?.info;
  const posters = info ? stationPosters(info) : null;
  return posters ? [{ href: posters.front }] : [];
}

/** /information: one page of the list. */
export const preloadInformationList: RoutePreload = async (context) => {
  const snapshot = await withUseCase(context, TOKENS.ReadInformation, (info) =>
    info.load({ kind: 'list', page: pageOf(context.url) }),
  );
  return snapshot.state.kind === 'error' ? null : snapshot;
};

/** /information/{tag}: the item. */
export const preloadInformationDetail: RoutePreload = async (context) => {
  const snapshot = await withUseCase(context, TOKENS.ReadInformation, (info) =>
    info.load({ kind: 'detail', tag: context.params.tag ?? '' }),
  );
  return snapshot.state.kind === 'error' ? null : snapshot;
};

/** /kuji: the kuji on sale. */
export const preloadKujiList: RoutePreload = async (context) =>
  firstValueFrom(context.container.get<PrizeCatalogPort>(TOKENS.PrizeCatalogPort).kujiOnSale());

/** The kuji list leads with its first draw's picture (a wide banner, the first screen's largest). */
export function kujiListLeadImages(preloaded: unknown): readonly LeadImage[] {
  const first = (preloaded as readonly KujiOnSale[] | null | undefined)?.[0]?.kuji_img_urls[0];
  return first ? [leadPicture(first, PICTURE_LAYOUTS.kujiCard)] : [];
}

/** /clip/{clip_id}: a shared clip's public view (a clip nobody may see is sent as such: the page answers 404). */
export const preloadSharedClip: RoutePreload = async (context) => {
  const snapshot = await withUseCase(context, TOKENS.SharedClip, (clip) => clip.load(context.params.clipId ?? ''));
  return snapshot.state.kind === 'error' ? null : snapshot;
};

/** A shared clip's title and link-preview tags (OGP): the prize, the station, its picture and the video. */
export function sharedClipHead(preloaded: unknown): PageHead | null {
  const state = (preloaded as SharedClipSnapshot | null | undefined)?.state;
  return state?.kind === 'clip' ? clipPageHead(state.clip) : null;
}
