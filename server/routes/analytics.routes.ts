import type { FastifyReply } from 'fastify';
import { z } from 'zod/mini';
import {
  ANALYTICS_ENDPOINTS as E,
  ANALYTICS_ISSUES,
  analyticsCollectRequestSchema,
  analyticsEventsRequestSchema,
  japaneseIssue,
  type AnalyticsCollectRequest,
  type AnalyticsIssue,
  type CollectedAnalyticsEvent,
} from '../../src/contract';
import { replyError } from '../http/reply';
import { SERVER_MESSAGES } from '../messages';
import type { ApiDeps } from './deps';

/** How many collected events the development server keeps; the oldest go first. */
export const ANALYTICS_RING_CAPACITY = 500;

/** The last `capacity` events, in arrival order, each numbered from 1 (seq never repeats). */
export class AnalyticsRing {
  private readonly events: CollectedAnalyticsEvent[] = [];
  private lastSeq = 0;

  constructor(
    readonly capacity: number = ANALYTICS_RING_CAPACITY,
    private readonly now: () => Date = () => new Date(),
  ) {}

  push(event: AnalyticsCollectRequest): CollectedAnalyticsEvent {
    const collected: CollectedAnalyticsEvent = { seq: ++this.lastSeq, received_at: this.now().toISOString(), ...event };
    this.events.push(collected);
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    return collected;
  }

  list(
    filter: { readonly name?: string | undefined; readonly since?: number | undefined } = {},
  ): CollectedAnalyticsEvent[] {
    return this.events.filter(
      (e) =>
        (filter.name === undefined || e.name === filter.name) && (filter.since === undefined || e.seq > filter.since),
    );
  }
}

const ISSUE_TEXTS: Readonly<Record<AnalyticsIssue, string>> = {
  [ANALYTICS_ISSUES.unknownEvent]: SERVER_MESSAGES.analyticsUnknownEvent,
  [ANALYTICS_ISSUES.badSendTo]: SERVER_MESSAGES.analyticsBadSendTo,
  [ANALYTICS_ISSUES.badParamName]: SERVER_MESSAGES.analyticsBadParamName,
  [ANALYTICS_ISSUES.badParamValue]: SERVER_MESSAGES.analyticsBadParamValue,
  [ANALYTICS_ISSUES.tooManyParams]: SERVER_MESSAGES.analyticsTooManyParams,
  [ANALYTICS_ISSUES.paramsTooLarge]: SERVER_MESSAGES.analyticsParamsTooLarge,
  [ANALYTICS_ISSUES.badCommonFields]: SERVER_MESSAGES.analyticsBadCommonFields,
  [ANALYTICS_ISSUES.badFlags]: SERVER_MESSAGES.analyticsBadFlags,
};

/** The Japanese error_info for a refused analytics body: the issue's own text, else the contract's. */
export function analyticsIssueText(error: z.core.$ZodError): string {
  for (const issue of error.issues) {
    const text = ISSUE_TEXTS[issue.message as AnalyticsIssue];
    if (text) return text;
    // A record key or union member that failed inside the params: the nested issue carries our code.
    const nested =
      'issues' in issue && Array.isArray(issue.issues)
        ? issue.issues
        : 'errors' in issue && Array.isArray(issue.errors)
          ? issue.errors.flat()
          : [];
    for (const inner of nested as { message?: unknown }[]) {
      const innerText = typeof inner.message === 'string' ? ISSUE_TEXTS[inner.message as AnalyticsIssue] : undefined;
      if (innerText) return innerText;
    }
  }
  return japaneseIssue(error);
}

function parse<S extends z.ZodMiniType>(schema: S, body: unknown, reply: FastifyReply): z.output<S> | null {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  void replyError(reply, 400, analyticsIssueText(result.error));
  return null;
}

/**
 * The development analytics collector (docs/analytics.md) [R7-12, R9-15]: `dev/analytics/collect`
 * keeps each event the client's CollectorAnalytics posts, `dev/analytics/events` hands them to e2e.
 * Registered only with the development-only calls (ONKURE_DEV_CALLS=1, never in production), so
 * elsewhere both answer 404 as any unknown call does: fail closed, the same switch as the debug login.
 * The server keeps the last ANALYTICS_RING_CAPACITY events in memory, per server instance.
 */
export async function analyticsRoutes(
  { config, route }: ApiDeps,
  ring: AnalyticsRing = new AnalyticsRing(),
): Promise<void> {
  if (!config.devCalls) return;

  // The body is checked here rather than by route.open, to answer the collector's own Japanese texts.
  route.open(`/${E.devCollect}`, z.unknown(), async (raw, _user, { reply }) => {
    const body = parse(analyticsCollectRequestSchema, raw, reply);
    if (body === null) return reply;
    const collected = ring.push(body);
    return { seq: collected.seq };
  });

  route.open(`/${E.devEvents}`, z.unknown(), async (raw, _user, { reply }) => {
    const filter = parse(analyticsEventsRequestSchema, raw, reply);
    if (filter === null) return reply;
    return { list: ring.list(filter), capacity: ring.capacity };
  });
}
