import { StrictMode, useMemo } from 'react';
import type { Container } from 'inversify';
import {
  RouterProvider,
  createBrowserRouter,
  createMemoryRouter,
  type HydrationState,
  type RouteObject,
} from 'react-router';
import { ContainerProvider } from './di/container-context';
import { routes } from './routes';

export interface OnkureAppProps {
  readonly container: Container;
  /** Render at this path with an in-memory history (tests, other hosts); omit for the browser's. */
  readonly initialPath?: string;
  /**
   * The server's render data for the first page (the page's hydration data, `readHydrationData`):
   * the first render shows what the server rendered, and nothing is fetched twice.
   */
  readonly hydrationData?: HydrationState;
  /** The route table (default: the app's); hydration passes it with the current page loaded (`routesLoadedFor`). */
  readonly routeTable?: RouteObject[];
}

/** The whole React app for one container. */
export function OnkureApp({ container, initialPath, hydrationData, routeTable = routes }: OnkureAppProps) {
  const router = useMemo(
    () =>
      initialPath === undefined
        ? createBrowserRouter(routeTable, hydrationData ? { hydrationData } : {})
        : createMemoryRouter(routeTable, {
            initialEntries: [initialPath],
            ...(hydrationData ? { hydrationData } : {}),
          }),
    [initialPath, hydrationData, routeTable],
  );
  return (
    <StrictMode>
      <ContainerProvider container={container}>
        <RouterProvider router={router} />
      </ContainerProvider>
    </StrictMode>
  );
}
