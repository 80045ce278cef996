import { StrictMode } from 'react';
import type { Container } from 'inversify';
import { matchRoutes, type HydrationState, type RouteObject } from 'react-router';
import { StaticRouterProvider, createStaticHandler, createStaticRouter, type StaticHandlerContext } from 'react-router';
import type { Feature } from '../../application';
import { ContainerProvider } from '../di/container-context';
import { routes } from '../routes';
import {
  RenderStatusProvider,
  withPreloadLoaders,
  type LeadImage,
  type RenderStatus,
  type RouteHandle,
} from './preload';

/** The id of the page's script element that carries the server render's data. */
export const HYDRATION_DATA_ID = 'onkure-hydration';

/** A server render's routing answer: the page to render, or a redirect. */
export type ServerRouting =
  | {
      readonly kind: 'page';
      readonly context: StaticHandlerContext;
      readonly hydrationData: HydrationState;
      /** The pictures the page leads with (its LCP element), for preload links in the head. */
      readonly leadImages: readonly LeadImage[];
      /** The matched routes' page modules and features, whose chunks the browser loads to hydrate. */
      readonly pageModules: readonly string[];
      readonly features: readonly Feature[];
      readonly render: (status: RenderStatus) => React.JSX.Element;
    }
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string };

/**
 * Routes one request on the server with its own container: runs the matched routes' preloads
 * (react-router's static handler) and answers the element to render and the data to send in the
 * page. Never shares anything between requests.
 */
export async function routeOnServer(container: Container, request: Request): Promise<ServerRouting> {
  const handler = createStaticHandler(withPreloadLoaders(routes, container));
  const context = await handler.query(request);
  if (context instanceof Response) {
    return { kind: 'redirect', status: context.status, location: context.headers.get('Location') ?? '/' };
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  return {
    kind: 'page',
    context,
    hydrationData: { loaderData: context.loaderData, actionData: null, errors: null },
    leadImages: context.matches.flatMap(
      (match) =>
        (match.route.handle as RouteHandle | undefined)?.leadImages?.(context.loaderData[match.route.id]) ?? [],
    ),
    pageModules: context.matches.flatMap((match) => (match.route.handle as RouteHandle | undefined)?.page ?? []),
    features: context.matches.flatMap((match) => (match.route.handle as RouteHandle | undefined)?.features ?? []),
    render: (status) => (
      <StrictMode>
        <ContainerProvider container={container}>
          <RenderStatusProvider status={status}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
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
export function readHydrationData(doc: Pick<Document, 'getElementById'>): HydrationState | undefined {
  const text = doc.getElementById(HYDRATION_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as HydrationState;
    return data && typeof data === 'object' ? data : undefined;
  } catch {
    return undefined;
  }
}

/** JSON for a `<script type="application/json">` element: nothing in it can end the element or the script. */
export function hydrationScript(data: HydrationState): string {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${HYDRATION_DATA_ID}">${json}</script>`;
}
