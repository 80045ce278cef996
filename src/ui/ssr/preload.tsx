import type { Feature, Features } from '../../application';
import type { PageHead } from '../../domain';
import { createContext, useContext, type ReactNode } from 'react';
import type { Container } from 'inversify';
import type { Params, RouteObject } from 'react-router';
import { usePreloadedData } from '../router/app-routes';

/** What a route's preload gets: the request's container (one per request), its address and the route's params. */
export interface PreloadContext {
  readonly container: Container;
  readonly url: URL;
  readonly params: Params;
}

/**
 * A route's server-side data: loads what the page shows first with the request's container and
 * answers a JSON-safe snapshot the page adopts (`usePreloaded`), or null when there is nothing to
 * send (the browser then loads as without a server render). Never rejects: a failed call is null.
 */
export type RoutePreload = (context: PreloadContext) => Promise<unknown>;

/** A picture the page shows first and large (its LCP element), for the browser to fetch early. */
export interface LeadImage {
  /** The picture, or for a set of candidates the one a browser without `imagesrcset` takes. */
  readonly href: string;
  /** The media query it is shown for (a <picture> source), or none. */
  readonly media?: string;
  /** Candidates by width (`imagesrcset`) and the width shown (`imagesizes`), as the page's <picture> offers them. */
  readonly srcSet?: string;
  readonly sizes?: string;
  /** The candidates' format (a browser that cannot show it skips the preload, as its <picture> skips the source). */
  readonly type?: string;
}

/**
 * A route's `handle`: the layout it asks for [R2.1-4], its server-side preload, and the pictures
 * its preloaded data leads with (the server puts a preload link for each in the page's head).
 */
export interface RouteHandle {
  readonly layout?: string;
  readonly preload?: RoutePreload;
  readonly leadImages?: (preloaded: unknown) => readonly LeadImage[];
  /** A page whose controls must stay in reach (a play screen): no prompt banner above it. */
  readonly quiet?: boolean;
  /** The features (use-cases) the page takes from the container: loaded before its code runs. */
  readonly features?: readonly Feature[];
  /**
   * The page's module, from the project root (what its `lazy` imports): a server render links its
   * chunk for the browser to load with the entry instead of after it.
   */
  readonly page?: string;
  /**
   * The page's own title and link-preview tags from its preloaded data (a shared clip's page): the
   * server writes them into the head; the page keeps `document.title` itself in the browser.
   */
  readonly head?: (preloaded: unknown) => PageHead | null;
  /**
   * The page may change or go at once for everyone (a shared clip can be unshared): the server
   * neither keeps its render nor lets any cache keep it.
   */
  readonly noStore?: boolean;
}

/**
 * The route table with each page's features loaded before its code: a route whose handle names
 * features loads them (`Features.load`) before its lazily loaded page, on the first render and on
 * every navigation to it. A container that has every feature answers at once.
 */
export function withFeatures(routes: readonly RouteObject[], features: Features): RouteObject[] {
  return routes.map((route): RouteObject => {
    const needed = (route.handle as RouteHandle | undefined)?.features ?? [];
    const children = route.children ? withFeatures(route.children, features) : undefined;
    const { lazy } = route;
    const gated =
      needed.length > 0 && typeof lazy === 'function'
        ? {
            lazy: async () => {
              await features.load(needed);
              return lazy();
            },
          }
        : {};
    return { ...route, ...gated, ...(children ? { children } : {}) } as RouteObject;
  });
}

/**
 * The snapshot the server's render loaded for the current route, or undefined (no server render,
 * or the browser has navigated since). The page hands it to its use-case's `adopt`, so its first
 * render shows the loaded page and the use-case does not ask for it again.
 */
export function usePreloaded<T>(): T | undefined {
  const data = usePreloadedData();
  return data === null || data === undefined ? undefined : (data as T);
}

/** What a server render learns while it renders (the HTTP status). */
export interface RenderStatus {
  notFound(): void;
}

const RenderStatusContext = createContext<RenderStatus | null>(null);

/** Gives a server render's components a way to set the answer's status (the error page sets 404). */
export function RenderStatusProvider({ status, children }: { status: RenderStatus; children: ReactNode }) {
  return <RenderStatusContext.Provider value={status}>{children}</RenderStatusContext.Provider>;
}

/** Whether this render is the server's (a render status is given only there). */
export function useIsServerRender(): boolean {
  return useContext(RenderStatusContext) !== null;
}

/** The error page marks a server render as 404 [R2.1-5]; in the browser this does nothing. */
export function useMarkNotFound(): void {
  useContext(RenderStatusContext)?.notFound();
}
