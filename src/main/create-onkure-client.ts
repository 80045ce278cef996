// The lite build (no Map/Set polyfills), the one inversify itself imports: one copy in the bundle.
import 'reflect-metadata/lite';
import type { Container } from 'inversify';
import type { NavigatorPort, Token } from '../application';
import type { BuildTarget } from '../domain';
import type { SessionStorageLike } from '../infrastructure';
import { createAppContainer, type Override } from './container';

/** How to reach the service and what host facilities to use; everything but `apiBase` has a default. */
export interface OnkureClientOptions {
  /** Absolute base address of the service API, e.g. `https://onkure.example/api/`. */
  readonly apiBase: string;
  /** `Authorization` header sent with every call (when the server requires one). */
  readonly authorization?: string;
  /** Abort a call after this long (ms); 0 for none. Default 15000. */
  readonly timeoutMs?: number;
  /** Shop whose catalogue to read. Default 1. */
  readonly shopId?: number;
  /** Build target [R1-1]. Default 'web'. */
  readonly target?: BuildTarget;
  readonly topPageBaseUrl?: string;
  readonly yahooTopUrl?: string;
  /** The play screen's live feed mode. Default 'jpg'. */
  readonly feedMode?: 'jpg' | 'rtc';
  /** The real-time socket's server; default: the API's origin. */
  readonly realtimeUrl?: string;
  /** The configured real-time channel. Default 'onkure'. */
  readonly realtimeChannel?: string;
  /** The fetch to call the service with (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /** Where the signed-in identity is kept (e.g. localStorage); default: memory only. */
  readonly storage?: SessionStorageLike | null;
  /** What "reload" and "go to" mean for this host (default: nothing happens). */
  readonly navigator?: NavigatorPort;
  /** Rebind any port, e.g. to a scripted double from onkure/testing. */
  readonly overrides?: readonly Override[];
}

/** The core wired with the real adapters, for a UI of one's own (or none): `client.get(TOKENS.X)`. */
export interface OnkureClient {
  get<T>(token: Token<T>): T;
  readonly container: Container;
}

/**
 * The onkure core with its real adapters (ky over HTTP, stored session, system clock) and no React:
 * runs in Node or any browser UI. Page-scoped use-cases (`TOKENS.BrowseTopPage`, …) come new from
 * each `get` — call `dispose()` on them when done.
 *
 * @example
 * const client = createOnkureClient({ apiBase: 'https://onkure.example/api/' });
 * await firstValueFrom(client.get(TOKENS.AuthPort).logIn('hanako@example.jp', 'secret123'));
 * const top = client.get(TOKENS.BrowseTopPage);
 * top.state$.subscribe(render);
 * top.load();
 */
export function createOnkureClient(options: OnkureClientOptions): OnkureClient {
  const container = createAppContainer(
    {
      apiBase: options.apiBase,
      authorization: options.authorization ?? '',
      timeoutMs: options.timeoutMs ?? 15_000,
      shopId: options.shopId ?? 1,
      target: options.target ?? 'web',
      topPageBaseUrl: options.topPageBaseUrl ?? '',
      yahooTopUrl: options.yahooTopUrl ?? '/',
      feedMode: options.feedMode ?? 'jpg',
      realtimeUrl: options.realtimeUrl ?? new URL(options.apiBase).origin,
      realtimeChannel: options.realtimeChannel ?? 'onkure',
      analyticsIds: { main: '', virtualCrane: '' },
      origin: new URL(options.apiBase).origin,
      corporateUrl: 'https://corp.onkure.example/',
    },
    options.overrides ?? [],
    {
      storage: options.storage ?? null,
      cookies: () => '',
      navigator: options.navigator ?? { reload: () => undefined, goTo: () => undefined },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  );
  return { container, get: <T>(token: Token<T>) => container.get<T>(token) };
}
