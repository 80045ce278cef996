import { StrictMode, useMemo } from 'react';
import type { Container } from 'inversify';
import { RouterProvider, createBrowserRouter, createMemoryRouter } from 'react-router';
import { ContainerProvider } from './di/container-context';
import { routes } from './routes';

export interface OnkureAppProps {
  readonly container: Container;
  /** Render at this path with an in-memory history (tests, other hosts); omit for the browser's. */
  readonly initialPath?: string;
}

/** The whole React app for one container. */
export function OnkureApp({ container, initialPath }: OnkureAppProps) {
  const router = useMemo(
    () => (initialPath === undefined ? createBrowserRouter(routes) : createMemoryRouter(routes, { initialEntries: [initialPath] })),
    [initialPath],
  );
  return (
    <StrictMode>
      <ContainerProvider container={container}>
        <RouterProvider router={router} />
      </ContainerProvider>
    </StrictMode>
  );
}
