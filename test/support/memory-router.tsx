import type { ReactElement } from 'react';
import { MemoryRouter, useLocation, useNavigate, type Location, type RouteObject } from 'react-router';
import { AppRoutes, type PreloadedData } from '../../src/ui';

/** A route table in a memory router, driven by the test as a browser's address bar would. */
export interface TestRouter {
  /** Goes to an address, or back and forward in the history (a number). */
  navigate(to: string | number): Promise<void>;
  /** The router's address now. */
  readonly state: { readonly location: Location };
}

/**
 * The app's route table (or a test's) rendered as the app renders it (`AppRoutes`, React Router's
 * declarative mode), at `path` in a memory history, with a server render's snapshots if given:
 * `element` goes into the test's providers.
 */
export function memoryRouter(
  table: readonly RouteObject[],
  path: string,
  preloaded?: PreloadedData,
): { router: TestRouter; element: ReactElement } {
  const seen: { navigate?: ReturnType<typeof useNavigate>; location?: Location } = {};
  function Probe() {
    seen.navigate = useNavigate();
    seen.location = useLocation();
    return null;
  }
  const router: TestRouter = {
    async navigate(to) {
      if (!seen.navigate) throw new Error('the router is not rendered yet');
      await (typeof to === 'number' ? seen.navigate(to) : seen.navigate(to));
    },
    get state() {
      if (!seen.location) throw new Error('the router is not rendered yet');
      return { location: seen.location };
    },
  };
  const element = (
    <MemoryRouter initialEntries={[path]}>
      <Probe />
      <AppRoutes routes={table} {...(preloaded ? { preloaded } : {})} />
    </MemoryRouter>
  );
  return { router, element };
}
