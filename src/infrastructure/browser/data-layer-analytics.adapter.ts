import type { AnalyticsPort } from '../../application';
import type { AnalyticsPayload } from '../../domain';

/**
 * The web analytics tag's data layer [R7-12]: each event is pushed as the tag's `event` command
 * with its `send_to` id. Nothing is sent when no measurement id is configured.
 *
 * @deprecated The app binds GtagAnalytics, which loads the tag script and configures both ids;
 * gtag.js itself reads Arguments objects from the data layer, so arrays pushed here reach only a
 * page script that reads them as arrays. Kept for library users who bound it themselves.
 */
export class DataLayerAnalytics implements AnalyticsPort {
  constructor(private readonly target: { dataLayer?: unknown[] } = globalThis as { dataLayer?: unknown[] }) {}

  send(event: AnalyticsPayload): void {
    if (!event.sendTo) return;
    (this.target.dataLayer ??= []).push(['event', event.name, { send_to: event.sendTo, ...event.params }]);
  }
}
