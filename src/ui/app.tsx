import { StrictMode, useMemo } from 'react';
import type { Container } from 'inversify';
import { RouterProvider, createBrowserRouter, createMemoryRouter, type HydrationState } from 'react-router';
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
}

/** The whole React app for one container. */
export function OnkureApp({ container, initialPath, hydrationData }: OnkureAppProps) {
  const router = useMemo(
    () => (initialPath === undefined
      ? createBrowserRouter(routes, hydrationData ? { hydrationData } : {})
      : createMemoryRouter(routes, { initialEntries: [initialPath], ...(hydrationData ? { hydrationData } : {}) })),
    [initialPath, hydrationData],
  );
  return (
    <StrictMode>
      <ContainerProvider container={container}>
        <RouterProvider router={router} />
      </ContainerProvider>
    </StrictMode>
  );
}
