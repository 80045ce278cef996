import { z } from 'zod/mini';
import { ANALYTICS_EVENT_NAMES, isPcFlag, siteTypeFlag, type AnalyticsPayload } from '../domain';
import { errorResponseSchema } from './envelope';

/**
 * The development analytics collector (docs/analytics.md): the client's CollectorAnalytics posts
 * every event it sends to the tag to `devCollect`, and e2e reads them back from `devEvents`. Both
 * exist only on a server with ONKURE_DEV_CALLS=1 (elsewhere: 404).
 */
export const ANALYTICS_ENDPOINTS = {
  devCollect: 'dev/analytics/collect',
  devEvents: 'dev/analytics/events',
} as const;

/** Size bounds of one collected event: generous for the spec's payloads, far below anything abusive. */
export const ANALYTICS_LIMITS = {
  /** Parameters per event (the spec's events carry at most 8). */
  maxParams: 32,
  /** A parameter name: the tag's own rule (a letter, then letters, digits or _), at most 40 characters. */
  maxParamNameLength: 40,
  /** A string value (an image URL is the longest the spec sends). */
  maxStringLength: 1024,
  /** All parameters serialised as JSON. */
  maxParamsJsonLength: 4096,
  /** A measurement id (send_to); '' when none is configured. */
  maxSendToLength: 64,
} as const;

/**
 * Codes of the issues the collector schemas raise. They are not user text: the server maps them to
 * its Japanese error_info (server/messages.ts), as the contract's other messages are.
 */
export const ANALYTICS_ISSUES = {
  unknownEvent: 'analytics.unknown_event',
  badSendTo: 'analytics.bad_send_to',
  badParamName: 'analytics.bad_param_name',
  badParamValue: 'analytics.bad_param_value',
  tooManyParams: 'analytics.too_many_params',
  paramsTooLarge: 'analytics.params_too_large',
  badCommonFields: 'analytics.bad_common_fields',
  badFlags: 'analytics.bad_flags',
} as const;
export type AnalyticsIssue = (typeof ANALYTICS_ISSUES)[keyof typeof ANALYTICS_ISSUES];

const I = ANALYTICS_ISSUES;
const L = ANALYTICS_LIMITS;

/** One of the product's events: the spec's 13 [R7-12] and the designed ones (docs/analytics.md). */
export const analyticsEventNameSchema = z.enum(ANALYTICS_EVENT_NAMES, { error: I.unknownEvent });

const paramNameSchema = z
  .string()
  .check(z.regex(new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${L.maxParamNameLength - 1}}$`), I.badParamName));
const paramValueSchema = z.union(
  [z.string().check(z.maxLength(L.maxStringLength, I.paramsTooLarge)), z.number(), z.boolean()],
  {
    error: I.badParamValue,
  },
);
const isCount = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647;

/** A flat object of strings, numbers and booleans with bounded sizes. */
export const analyticsParamsSchema = z
  .record(paramNameSchema, paramValueSchema)
  .check(z.refine((params) => Object.keys(params).length <= L.maxParams, I.tooManyParams))
  .check(z.refine((params) => JSON.stringify(params).length <= L.maxParamsJsonLength, I.paramsTooLarge))
  // The fields every event carries (spec §3 "Analytics payload fields") [R3-21].
  .check(z.refine((params) => isCount(params.user_id) && isCount(params.shop_id), I.badCommonFields));

/**
 * One event as the client sends it to the collector: the tag's event name, the measurement id it
 * went to ('' when no id is configured) and its parameters. The is_pc and site_type flags must be
 * the event's own [R9-15].
 */
export const analyticsCollectRequestSchema = z
  .strictObject({
    name: analyticsEventNameSchema,
    send_to: z
      .string()
      .check(z.maxLength(L.maxSendToLength, I.badSendTo))
      .check(z.regex(/^[A-Za-z0-9_/-]*$/, I.badSendTo)),
    params: analyticsParamsSchema,
  })
  .check(
    z.refine(({ name, params }) => params.is_pc === isPcFlag(name) && params.site_type === siteTypeFlag(name), {
      message: I.badFlags,
      path: ['params'],
    }),
  );
export type AnalyticsCollectRequest = z.infer<typeof analyticsCollectRequestSchema>;

/** What the client posts for one event (the payload the tag adapter sends, as one JSON object). */
export function analyticsCollectBody(event: AnalyticsPayload): AnalyticsCollectRequest {
  return {
    name: event.name,
    send_to: event.sendTo,
    params: { ...event.params } as Record<string, string | number | boolean>,
  };
}

/** Reading the collected events back (e2e): all of them, one event's, or those after a seq. */
export const analyticsEventsRequestSchema = z.strictObject({
  name: z.optional(analyticsEventNameSchema),
  since: z.optional(z.int().check(z.gte(0)).check(z.lte(Number.MAX_SAFE_INTEGER))),
});
export type AnalyticsEventsRequest = z.infer<typeof analyticsEventsRequestSchema>;

/** One collected event: its number in arrival order (from 1), when it arrived, and what was sent. */
export const collectedAnalyticsEventSchema = z.object({
  seq: z.int().check(z.positive()),
  received_at: z.string(),
  name: analyticsEventNameSchema,
  send_to: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type CollectedAnalyticsEvent = z.infer<typeof collectedAnalyticsEventSchema>;

export const analyticsEventsResponseSchema = z.extend(errorResponseSchema, {
  list: z.array(collectedAnalyticsEventSchema),
  /** How many events the server keeps; older ones are dropped first. */
  capacity: z.int().check(z.positive()),
});
export type AnalyticsEventsResponse = z.infer<typeof analyticsEventsResponseSchema>;
