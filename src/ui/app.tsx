import { StrictMode, useMemo } from 'react';
import type { Container } from 'inversify';
import { BrowserRouter, MemoryRouter, type RouteObject } from 'react-router';
import { ContainerProvider } from './di/container-context';
import { AppRoutes } from './router/app-routes';
import { routes } from './routes';
import { TOKENS, type Features } from '../application';
import { withFeatures } from './ssr/preload';
import type { HydrationData } from './ssr/server-app';

export interface OnkureAppProps {
  readonly container: Container;
  /** Render at this path with an in-memory history (tests, other hosts); omit for the browser's. */
  readonly initialPath?: string;
  /**
   * The server's render data for the first page (the page's hydration data, `readHydrationData`):
   * the first render shows what the server rendered, and nothing is fetched twice.
   */
  readonly hydrationData?: HydrationData;
  /** The route table (default: the app's); hydration passes it with the current page loaded (`routesLoadedFor`). */
  readonly routeTable?: RouteObject[];
}

/** The whole React app for one container. */
export function OnkureApp({ container, initialPath, hydrationData, routeTable }: OnkureAppProps) {
  const table = useMemo(
    () =>
      routeTable ??
      (container.isBound(TOKENS.Features) ? withFeatures(routes, container.get<Features>(TOKENS.Features)) : routes),
    [container, routeTable],
  );
  const app = <AppRoutes routes={table} {...(hydrationData ? { preloaded: hydrationData.preloaded } : {})} />;
  return (
    <StrictMode>
      <ContainerProvider container={container}>
        {initialPath === undefined ? (
          <BrowserRouter>{app}</BrowserRouter>
        ) : (
          <MemoryRouter initialEntries={[initialPath]}>{app}</MemoryRouter>
        )}
      </ContainerProvider>
    </StrictMode>
  );
}
