import { StrictMode } from 'react';
import type { Container } from 'inversify';
import { matchRoutes, StaticRouter, type RouteObject } from 'react-router';
import type { Feature } from '../../application';
import type { PageHead } from '../../domain';
import { ContainerProvider } from '../di/container-context';
import { AppRoutes, routeIds, type PreloadedData } from '../router/app-routes';
import { routes } from '../routes';
import { RenderStatusProvider, type LeadImage, type RenderStatus, type RouteHandle } from './preload';

/** The id of the page's script element that carries the server render's data. */
export const HYDRATION_DATA_ID = 'onkure-hydration';

/** What a server render sends the browser in the page: the snapshot of each preloaded route, by route id. */
export interface HydrationData {
  readonly preloaded: PreloadedData;
}

/** A server render's routing answer: the page to render. */
export interface ServerRouting {
  readonly hydrationData: HydrationData;
  /** The pictures the page leads with (its LCP element), for preload links in the head. */
  readonly leadImages: readonly LeadImage[];
  /** The matched routes' page modules and features, whose chunks the browser loads to hydrate. */
  readonly pageModules: readonly string[];
  readonly features: readonly Feature[];
  /** The page's own title and link-preview tags (the deepest matched route that has them), or null. */
  readonly head: PageHead | null;
  /** No cache may keep the page (a route's `noStore`). */
  readonly noStore: boolean;
  readonly render: (status: RenderStatus) => React.JSX.Element;
}

/**
 * Routes one request on the server with its own container: runs the matched routes' preloads (all
 * at once; a failed one is null), loads the matched pages' code, and answers the element to render
 * and the data to send in the page. Never shares anything between requests.
 */
export async function routeOnServer(container: Container, request: Request): Promise<ServerRouting> {
  const url = new URL(request.url);
  const ids = routeIds(routes);
  const matches = matchRoutes(routes, url.pathname) ?? [];
  const handleOf = (route: RouteObject) => route.handle as RouteHandle | undefined;
  const preloaded: Record<string, unknown> = {};
  await Promise.all(
    matches.map(async ({ route, params }) => {
      const preload = handleOf(route)?.preload;
      const id = ids.get(route);
      if (!preload || id === undefined) return;
      try {
        preloaded[id] = (await preload({ container, url, params })) ?? null;
      } catch {
        preloaded[id] = null;
      }
    }),
  );
  const table = await routesLoadedFor(url.pathname);
  return {
    hydrationData: { preloaded },
    leadImages: matches.flatMap(({ route }) => handleOf(route)?.leadImages?.(preloaded[ids.get(route) ?? '']) ?? []),
    pageModules: matches.flatMap(({ route }) => handleOf(route)?.page ?? []),
    features: matches.flatMap(({ route }) => handleOf(route)?.features ?? []),
    head:
      matches
        .map(({ route }) => handleOf(route)?.head?.(preloaded[ids.get(route) ?? '']) ?? null)
        .filter((h) => h !== null)
        .at(-1) ?? null,
    noStore: matches.some(({ route }) => handleOf(route)?.noStore === true),
    render: (status) => (
      <StrictMode>
        <ContainerProvider container={container}>
          <RenderStatusProvider status={status}>
            <StaticRouter location={`${url.pathname}${url.search}`}>
              <AppRoutes routes={table} preloaded={preloaded} />
            </StaticRouter>
          </RenderStatusProvider>
        </ContainerProvider>
      </StrictMode>
    ),
  };
}

/**
 * In the browser, before hydrating: the route table with the lazily loaded pages the address
 * matches already loaded, so the first render is the server's page and not a fallback. The shared
 * table is left as it is (a copy along the matched branch).
 */
export async function routesLoadedFor(path: string, table: RouteObject[] = routes): Promise<RouteObject[]> {
  const loaded = new Map<RouteObject, RouteObject>();
  for (const { route } of matchRoutes(table, path) ?? []) {
    if (typeof route.lazy !== 'function') continue;
    const { lazy, ...rest } = route;
    loaded.set(route, { ...rest, ...(await lazy()) } as RouteObject);
  }
  const copy = (list: RouteObject[]): RouteObject[] =>
    list.map((route) => {
      const next = loaded.get(route) ?? route;
      return next.children ? ({ ...next, children: copy(next.children) } as RouteObject) : next;
    });
  return copy(table);
}

/** The server render's data from the page, or undefined when the page was not rendered on the server. */
export function readHydrationData(doc: Pick<Document, 'getElementById'>): HydrationData | undefined {
  const text = doc.getElementById(HYDRATION_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as Partial<HydrationData> | null;
    return data && typeof data.preloaded === 'object' && data.preloaded !== null
      ? { preloaded: data.preloaded }
      : undefined;
  } catch {
    return undefined;
  }
}

/** JSON for a `<script type="application/json">` element: nothing in it can end the element or the script. */
export function hydrationScript(data: HydrationData): string {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${HYDRATION_DATA_ID}">${json}</script>`;
}
