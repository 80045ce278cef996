/**
 * The contract between the reference server and the app's server-side composition root
 * (src/main/server-render.tsx, handed to the server by its process entry): one page request, and
 * what the render answers (docs/server-rendering.md).
 */
export interface PageRequest {
  /** The request's absolute address (its host is the server's own, never the client's Host header). */
  readonly url: string;
  /** The service API for this request, answered by the server in-process as this client's calls. */
  readonly fetch: typeof fetch;
}

/** A rendered page: its status and its HTML as it is rendered (a Node stream in the reference server). */
export interface RenderedPage {
  readonly status: number;
  readonly body: AsyncIterable<Uint8Array | string>;
  /** No cache may keep it (the server's rendered-page cache included): it can change or go at once for everyone. */
  readonly noStore?: boolean;
}

/** Renders one request's page into the built app's page. */
export type PageRenderer = (request: PageRequest) => Promise<RenderedPage>;

/** Makes a page renderer for the built page (dist/client/index.html as served). */
export type PageRendererFactory = (template: string) => PageRenderer;
