import { firstValueFrom } from 'rxjs';
import { TOKENS, type AppConfig, type Disposable, type PrizeCatalogPort, type Token } from '../../application';
import { parsePlayPath } from '../../domain';
import type { PreloadContext, RoutePreload } from './preload';

/** `?page=` as the pages read it. */
const pageOf = (url: URL): number => Number(url.searchParams.get('page') ?? 1) || 1;

/** Runs `load` on a fresh page-scoped use-case and disposes it, whatever happens. */
async function withUseCase<T extends Disposable, R>(context: PreloadContext, token: Token<T>, load: (useCase: T) => Promise<R>): Promise<R> {
  const useCase = context.container.get<T>(token);
  try {
    return await load(useCase);
  } finally {
    useCase.dispose();
  }
}

/** The catalogue (top page, character, tab and keyword paths): what BrowseCatalogue shows first. */
export const preloadCatalogue: RoutePreload = async (context) => {
  const snapshot = await withUseCase(context, TOKENS.BrowseCatalogue, (browse) => browse.load(`${context.url.pathname}${context.url.search}`, pageOf(context.url)));
  return snapshot.state.kind === 'error' ? null : snapshot;
};

/** A play screen: the station's card (its name and pictures); the machine, the queue and the feed come live. */
export const preloadStation: RoutePreload = async (context) => {
  const { target } = context.container.get<AppConfig>(TOKENS.AppConfig);
  const raw = context.params.stationId;
  const stationId = raw !== undefined ? (/^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null) : parsePlayPath(target, context.url.pathname)?.stationId ?? null;
  if (stationId === null) return null;
  return withUseCase(context, TOKENS.StationPlay, (play) => play.loadStation(stationId));
};

/** /information: one page of the list. */
export const preloadInformationList: RoutePreload = async (context) => {
  const snapshot = await withUseCase(context, TOKENS.ReadInformation, (info) => info.load({ kind: 'list', page: pageOf(context.url) }));
  return snapshot.state.kind === 'error' ? null : snapshot;
};

/** /information/{tag}: the item. */
export const preloadInformationDetail: RoutePreload = async (context) => {
  const snapshot = await withUseCase(context, TOKENS.ReadInformation, (info) => info.load({ kind: 'detail', tag: context.params.tag ?? '' }));
  return snapshot.state.kind === 'error' ? null : snapshot;
};

/** /kuji: the kuji on sale. */
export const preloadKujiList: RoutePreload = async (context) => firstValueFrom(context.container.get<PrizeCatalogPort>(TOKENS.PrizeCatalogPort).kujiOnSale());
