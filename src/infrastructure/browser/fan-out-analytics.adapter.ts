import type { AnalyticsPort } from '../../application';
import type { AnalyticsPayload } from '../../domain';
import { isStartableAnalytics, type StartableAnalytics } from './gtag-analytics.adapter';

/**
 * One AnalyticsPort binding for several adapters (the tag, and in development the collector):
 * each event goes to every one of them, in order. One adapter failing never stops the others or
 * reaches the app.
 */
export class FanOutAnalytics implements StartableAnalytics {
  constructor(readonly targets: readonly AnalyticsPort[]) {}

  start(): void {
    for (const target of this.targets) {
      try {
        if (isStartableAnalytics(target)) target.start();
      } catch {
        // Analytics is best effort.
      }
    }
  }

  send(event: AnalyticsPayload): void {
    for (const target of this.targets) {
      try {
        target.send(event);
      } catch {
        // Analytics is best effort.
      }
    }
  }
}
