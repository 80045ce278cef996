import {
  Component,
  createContext,
  lazy,
  useContext,
  useMemo,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';

/**
 * The app's route table rendered in React Router's declarative mode (issue 27): any router hosts it
 * (BrowserRouter, MemoryRouter, StaticRouter on the server), and the browser's bundle carries no
 * data router. What the app takes from a route object:
 * - `path`, `index`, `children`, `element` or `Component`;
 * - `lazy` (a function answering `{ Component }`): the page's code, loaded when the route is first
 *   rendered (the page suspends; a navigation keeps the old page until it is there, as React
 *   Router's location updates are transitions);
 * - `errorElement`: shown in place of the route's element when it or a route below fails to render
 *   or to load, until the next navigation [R8-11];
 * - `handle`: read by `useRouteHandles`.
 * Loaders, actions and the other data-router fields are ignored: a server render's data comes
 * through `preloaded` (`usePreloaded`).
 */

/** A server render's snapshots, by route id (`routeIds`); a JSON-safe value or null for each route with a preload. */
export type PreloadedData = Readonly<Record<string, unknown>>;

const RouteIdContext = createContext<string | null>(null);
const PreloadedContext = createContext<PreloadedData | null>(null);
const HandlesContext = createContext<readonly unknown[]>([]);

/**
 * Each route's id: its position in the table, '0', '0-3'… (the convention of React Router's data
 * routes). Ids are the same for any copy of a table with the same shape (`routesLoadedFor`).
 */
export function routeIds(table: readonly RouteObject[]): Map<RouteObject, string> {
  const ids = new Map<RouteObject, string>();
  const walk = (list: readonly RouteObject[], parent: string) =>
    list.forEach((route, index) => {
      const id = parent ? `${parent}-${index}` : String(index);
      ids.set(route, id);
      if (route.children) walk(route.children, id);
    });
  walk(table, '');
  return ids;
}

/** What a route's `lazy` answers (the app's tables answer `{ Component }`). */
interface LazyRoute {
  readonly Component?: ComponentType | null;
  readonly element?: ReactNode;
}

/** One React.lazy component per `lazy` function: its code is loaded once, whatever renders it. */
const lazyPages = new WeakMap<() => Promise<LazyRoute>, ComponentType>();
function lazyPage(load: () => Promise<LazyRoute>): ComponentType {
  let page = lazyPages.get(load);
  if (!page) {
    page = lazy(async () => {
      const loaded = await load();
      const Loaded = loaded.Component;
      return { default: Loaded ?? (() => loaded.element ?? null) };
    });
    lazyPages.set(load, page);
  }
  return page;
}

function routeElement(route: RouteObject): ReactNode {
  if (route.element !== undefined) return route.element;
  if (route.Component) return <route.Component />;
  if (typeof route.lazy === 'function') {
    const Page = lazyPage(route.lazy as () => Promise<LazyRoute>);
    return <Page />;
  }
  return null;
}

interface BoundaryProps {
  readonly fallback: ReactNode;
  /** The history entry the boundary shows: a new one clears a caught error. */
  readonly at: string;
  readonly children: ReactNode;
}

/** A route's `errorElement`: shown instead of what failed below it, until the next navigation. */
class RouteErrorBoundary extends Component<BoundaryProps, { failed: boolean; at: string }> {
  override state = { failed: false, at: this.props.at };

  static getDerivedStateFromError(): Partial<{ failed: boolean }> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { failed: boolean; at: string }) {
    return props.at === state.at ? null : { failed: false, at: props.at };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function ErrorBoundaryHere({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  // Every navigation is a new history entry with its own key (a link to the same address too).
  const { key } = useLocation();
  return (
    <RouteErrorBoundary fallback={fallback} at={key}>
      {children}
    </RouteErrorBoundary>
  );
}

/** The table as `useRoutes` takes it: each route's element with its id, its error boundary and its lazy page. */
function elementRoutes(table: readonly RouteObject[], ids: Map<RouteObject, string>): RouteObject[] {
  return table.map((route) => {
    const element = routeElement(route);
    const guarded =
      route.errorElement === undefined ? (
        element
      ) : (
        <ErrorBoundaryHere fallback={route.errorElement}>{element}</ErrorBoundaryHere>
      );
    const shaped = {
      path: route.path,
      caseSensitive: route.caseSensitive,
      element: <RouteIdContext.Provider value={ids.get(route) ?? null}>{guarded}</RouteIdContext.Provider>,
    };
    return (
      route.index
        ? { ...shaped, index: true }
        : { ...shaped, children: route.children ? elementRoutes(route.children, ids) : undefined }
    ) as RouteObject;
  });
}

export interface AppRoutesProps {
  readonly routes: readonly RouteObject[];
  /**
   * The server render's data (`HydrationData.preloaded`): the routes of the first address show it;
   * once the address changes it is spent, and pages load as without a server render.
   */
  readonly preloaded?: PreloadedData;
}

/** The route table at the router's address. */
export function AppRoutes({ routes, preloaded }: AppRoutesProps) {
  const location = useLocation();
  const elements = useMemo(() => elementRoutes(routes, routeIds(routes)), [routes]);
  const handles = useMemo(
    () => (matchRoutes(routes as RouteObject[], location) ?? []).map((match) => match.route.handle as unknown),
    [routes, location],
  );
  // The first address's key while the router is still there; null (spent) from its first move on,
  // so coming back to that entry does not bring old data back.
  const [preloadedAt, setPreloadedAt] = useState<string | null>(location.key);
  if (preloadedAt !== null && location.key !== preloadedAt) setPreloadedAt(null);
  const data = preloaded && preloadedAt === location.key ? preloaded : null;
  const rendered = useRoutes(elements, location);
  return (
    <PreloadedContext.Provider value={data}>
      <HandlesContext.Provider value={handles}>{rendered}</HandlesContext.Provider>
    </PreloadedContext.Provider>
  );
}

/** The `handle` of each route that matches the address, outermost first (a layout reads what its pages ask for). */
export function useRouteHandles(): readonly unknown[] {
  return useContext(HandlesContext);
}

/**
 * The snapshot the server's render loaded for the route this is rendered in, or undefined (no
 * server render, or the browser has navigated since).
 */
export function usePreloadedData(): unknown {
  const id = useContext(RouteIdContext);
  const data = useContext(PreloadedContext);
  return id === null || data === null ? undefined : data[id];
}
