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
  /**
   * The play screen's live feed mode: the serving page's `<meta name="onkure-feed">` (the server
   * sets it from ONKURE_FEED and whether it can encode video), else VITE_FEED_MODE; default jpg (§4.2).
   */
  readonly feedMode: 'jpg' | 'rtc';
  /** The websocket server (VITE_WEBSOCKET_URL; '' = this origin) [R7-10]. */
  readonly realtimeUrl: string;
  /** The configured real-time channel beside top (VITE_REALTIME_CHANNEL, default onkure). */
  readonly realtimeChannel: string;
  /** Analytics measurement ids (VITE_GA_MEASUREMENT_ID, VITE_GA_VIRTUAL_CRANE_ID) [R7-12]. */
  readonly analyticsIds: { readonly main: string; readonly virtualCrane: string };
  /**
   * The analytics tag script's address without its id (VITE_GA_SCRIPT_URL; no default, '' loads no
   * script). Production: https://www.googletagmanager.com/gtag/js (docs/analytics.md) [R7-12].
   */
  readonly analyticsScriptUrl?: string;
  /**
   * Development only: the reference server's analytics collector every event is also posted to
   * (VITE_ANALYTICS_COLLECT_URL, e.g. /api/dev/analytics/collect; '' = none). `npm start` sets it.
   */
  readonly analyticsCollectUrl?: string;
  /** The operating company's site (VITE_CORPORATE_URL) [R2.5-3]. */
  readonly corporateUrl: string;
  /** The page's origin (resolves a webrtc_url that is a path). */
  readonly origin: string;
}

declare const __ONKURE_TARGET__: string | undefined;

/**
 * Reads the public settings baked in by Vite (VITE_* variables) with their defaults. The API base
 * is resolved against the page's origin so ky gets an absolute address.
 */
export function readClientConfig(
  env: Record<string, string | undefined> = import.meta.env,
  origin = globalThis.location?.origin ?? 'http://localhost',
  servedFeedMode: string | null = globalThis.document
    ?.querySelector('meta[name="onkure-feed"]')
    ?.getAttribute('content') ?? null,
): ClientConfig {
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
    feedMode: feedMode(servedFeedMode || env.VITE_FEED_MODE),
    realtimeUrl: env.VITE_WEBSOCKET_URL ?? '',
    realtimeChannel: env.VITE_REALTIME_CHANNEL || 'onkure',
    analyticsIds: { main: env.VITE_GA_MEASUREMENT_ID ?? '', virtualCrane: env.VITE_GA_VIRTUAL_CRANE_ID ?? '' },
    analyticsScriptUrl: httpAddress(env.VITE_GA_SCRIPT_URL, origin, 'VITE_GA_SCRIPT_URL'),
    analyticsCollectUrl: httpAddress(env.VITE_ANALYTICS_COLLECT_URL, origin, 'VITE_ANALYTICS_COLLECT_URL'),
    corporateUrl: env.VITE_CORPORATE_URL || 'https://corp.onkure.example/',
    origin,
  };
}

const feedMode = (value: string | undefined): 'jpg' | 'rtc' => (value === 'rtc' ? 'rtc' : 'jpg');

/** An optional http(s) address setting, resolved against the page's origin ('' when unset). */
function httpAddress(value: string | undefined, origin: string, name: string): string {
  if (!value) return '';
  const url = new URL(value, origin);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${name} must be an http(s) address or a path (got "${value}").`);
  return url.toString();
}
