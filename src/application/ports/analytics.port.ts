import type { AnalyticsPayload } from '../../domain';

/** The web analytics tag service (spec §7 analytics events) [R7-12]. */
export interface AnalyticsPort {
  send(event: AnalyticsPayload): void;
}
