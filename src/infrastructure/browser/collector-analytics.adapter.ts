import type { AnalyticsPort } from '../../application';
import { analyticsCollectBody } from '../../contract';
import type { AnalyticsPayload } from '../../domain';

type SendBeacon = (url: string, data: Blob) => boolean;

export interface CollectorAnalyticsOptions {
  /** Absolute address of the collector (VITE_ANALYTICS_COLLECT_URL), e.g. http://localhost:8080/api/dev/analytics/collect. */
  readonly url: string;
  /**
   * The API's Authorization header (VITE_API_AUTHORIZATION) when the collector sits behind it; then
   * every event goes by fetch, since a beacon cannot carry headers.
   */
  readonly authorization?: string;
  /** Default: the global fetch, looked up when an event is sent. */
  readonly fetch?: typeof fetch;
  /** Default: navigator.sendBeacon when the page has one; null sends by fetch only. */
  readonly sendBeacon?: SendBeacon | null;
}

function browserBeacon(): SendBeacon | null {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  return nav && typeof nav.sendBeacon === 'function' ? (url, data) => nav.sendBeacon(url, data) : null;
}

/**
 * Development only (docs/analytics.md): posts every analytics event, as the contract's
 * analyticsCollectRequestSchema, to the reference server's dev/analytics/collect, so e2e can read
 * back what the app sent [R7-12, R9-15]. One JSON body per event, by navigator.sendBeacon (a JSON
 * Blob) when there is one, else fetch with keepalive; both survive leaving the page. Best effort:
 * a failure is dropped, never thrown into the app.
 */
export class CollectorAnalytics implements AnalyticsPort {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: CollectorAnalyticsOptions) {}

  send(event: AnalyticsPayload): void {
    const body = JSON.stringify(analyticsCollectBody(event));
    if (!this.options.authorization && this.beacon(body)) return;
    const doFetch = this.options.fetch ?? (typeof fetch === 'function' ? fetch : undefined);
    if (!doFetch) return;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.authorization) headers.authorization = this.options.authorization;
    const sent = Promise.resolve()
      .then(() =>
        doFetch(this.options.url, { method: 'POST', keepalive: true, credentials: 'same-origin', headers, body }),
      )
      .then(async (response) => void (await response.body?.cancel()))
      .catch(() => undefined)
      .finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }

  /** Resolves once every event sent by fetch so far has been answered (or failed); for tests and page exit. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private beacon(body: string): boolean {
    const sendBeacon = this.options.sendBeacon === undefined ? browserBeacon() : this.options.sendBeacon;
    if (!sendBeacon) return false;
    try {
      return sendBeacon(this.options.url, new Blob([body], { type: 'application/json' }));
    } catch {
      return false;
    }
  }
}
