import { parseBuildTarget, type BuildTarget } from '../domain';

/** Everything the browser app is configured with (public, build-time settings). */
export interface ClientConfig {
  readonly target: BuildTarget;
  readonly apiBase: string;
  readonly authorization: string;
  readonly timeoutMs: number;
  readonly shopId: number;
  readonly topPageBaseUrl: string;
  readonly yahooTopUrl: string;
}

declare const __ONKURE_TARGET__: string | undefined;

/**
 * Reads the public settings baked in by Vite (VITE_* variables) with their defaults. The API base
 * is resolved against the page's origin so ky gets an absolute address.
 */
export function readClientConfig(env: Record<string, string | undefined> = import.meta.env, origin = globalThis.location?.origin ?? 'http://localhost'): ClientConfig {
  const target = parseBuildTarget(typeof __ONKURE_TARGET__ === 'string' ? __ONKURE_TARGET__ : env.VITE_ONKURE_TARGET);
  if (!target.ok) throw new Error(target.message);
  return {
    target: target.target,
    apiBase: new URL(env.VITE_API_BASE || '/api', origin).toString(),
    authorization: env.VITE_API_AUTHORIZATION ?? '',
    timeoutMs: Number(env.VITE_API_TIMEOUT_MS ?? 15000) || 0,
    shopId: Number(env.VITE_SHOP_ID ?? 1) || 1,
    topPageBaseUrl: env.VITE_TOP_PAGE_BASE_URL ?? '',
    yahooTopUrl: env.VITE_YAHOO_TOP_URL || '/',
  };
}
