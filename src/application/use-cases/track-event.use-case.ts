import { inject, injectable } from 'inversify';
import { analyticsEvent, type AnalyticsEventFields, type AnalyticsEventName } from '../../domain';
import type { AppConfig } from '../app-config';
import type { AnalyticsPort } from '../ports/analytics.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';

/**
 * Sends one of the spec's analytics events from a screen [R7-12, R9-15]: the domain builds the
 * payload with the signed-in user (0 for a guest), the shop and the right measurement id; the
 * analytics port delivers it. Sending never throws into the screen that reports it.
 */
@injectable()
export class TrackEvent {
  constructor(
    @inject(TOKENS.AnalyticsPort) private readonly analytics: AnalyticsPort,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
  ) {}

  track<N extends AnalyticsEventName>(name: N, fields: AnalyticsEventFields[N]): void {
    try {
      this.analytics.send(
        analyticsEvent(name, fields, {
          user_id: this.session.current()?.user_id ?? 0,
          shop_id: this.config.shopId,
          measurementIds: this.config.analyticsIds,
        }),
      );
    } catch (error) {
      // Analytics is never worth breaking a screen for; the failure is only logged (§8).
      console.warn('analytics: could not send', name, error);
    }
  }
}
