/** The analytics events the product sends, in the spec's order [R7-12]. */
export const SPEC_ANALYTICS_EVENT_NAMES = [
  'conversion',
  'carousel_click',
  'filtering_click',
  'crane_course',
  'play_game',
  'continue_game',
  'phone_auth',
  'regist_user',
  'support_click',
  'add_registration',
  'buy_tc',
  'search_word',
  'medal_recommend_modal_action',
] as const;

/** Events designed beside the spec's 13, for the fair-play actions (issue 45, docs/analytics.md "Designed events"). */
export const DESIGNED_ANALYTICS_EVENT_NAMES = [
  'staff_assist_request',
  'settings_history_view',
  'daily_free_play_use',
] as const;

/** Every event the product sends: the spec's, then the designed ones. */
export const ANALYTICS_EVENT_NAMES = [...SPEC_ANALYTICS_EVENT_NAMES, ...DESIGNED_ANALYTICS_EVENT_NAMES] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENT_NAMES)[number];

/**
 * Each event's own fields (spec §3 "Analytics payload fields") [R3-21]. The spec lists the fields
 * without assigning them to events; the assignment below is ours.
 */
export interface AnalyticsEventFields {
  readonly conversion: Record<never, never>;
  readonly carousel_click: {
    readonly carousel_id: number;
    readonly title: string;
    readonly type_id: number;
    readonly pc_img_url: string;
  };
  readonly filtering_click: { readonly title_all: string; readonly img: string; readonly filter_type_id: number };
  readonly crane_course: { readonly crane_type: string; readonly step: number };
  readonly play_game: { readonly crane_type: string; readonly play_money: number; readonly ticket_num: number };
  readonly continue_game: { readonly crane_type: string; readonly play_money: number; readonly ticket_num: number };
  readonly phone_auth: Record<never, never>;
  readonly regist_user: Record<never, never>;
  readonly support_click: { readonly support_id: number };
  readonly add_registration: Record<never, never>;
  readonly buy_tc: { readonly price: number };
  readonly search_word: { readonly search_word: string };
  readonly medal_recommend_modal_action: { readonly action_type: string };
  /** A player asks for a staff assist [R11-9]: the station's kind and their misses in a row. */
  readonly staff_assist_request: { readonly crane_type: string; readonly misses: number };
  /** Someone opens a station's published settings history [R11-6]. */
  readonly settings_history_view: { readonly station_id: number };
  /** A play is paid with the day's free play [R11-8]. */
  readonly daily_free_play_use: { readonly crane_type: string };
}

/** Fields every event carries. user_id is 0 for a guest. */
export interface AnalyticsContext {
  readonly user_id: number;
  readonly shop_id: number;
  /** The analytics ids: the main one, and the separate virtual-crane one. */
  readonly measurementIds: { readonly main: string; readonly virtualCrane: string };
}

/** One event ready for the analytics adapter. */
export interface AnalyticsPayload<N extends AnalyticsEventName = AnalyticsEventName> {
  readonly name: N;
  /** crane_course goes to the virtual-crane id, everything else to the main id [R7-12]. */
  readonly sendTo: string;
  readonly params: AnalyticsEventFields[N] & {
    readonly user_id: number;
    readonly shop_id: number;
    readonly is_pc: 0 | 1;
    readonly site_type?: 0 | 1;
  };
}

/** is_pc is 1 for every event except support_click and the medal-recommend modal (0) [R9-15]. */
export function isPcFlag(name: AnalyticsEventName): 0 | 1 {
  return name === 'support_click' || name === 'medal_recommend_modal_action' ? 0 : 1;
}

/** site_type: 1 for carousel and filtering events, 0 for the support event, absent otherwise [R9-15]. */
export function siteTypeFlag(name: AnalyticsEventName): 0 | 1 | undefined {
  if (name === 'carousel_click' || name === 'filtering_click') return 1;
  if (name === 'support_click') return 0;
  return undefined;
}

/** Builds an event's payload with the common fields and flags [R7-12, R9-15, R3-21]. */
export function analyticsEvent<N extends AnalyticsEventName>(
  name: N,
  fields: AnalyticsEventFields[N],
  context: AnalyticsContext,
): AnalyticsPayload<N> {
  const siteType = siteTypeFlag(name);
  return {
    name,
    sendTo: name === 'crane_course' ? context.measurementIds.virtualCrane : context.measurementIds.main,
    params: {
      ...fields,
      user_id: context.user_id,
      shop_id: context.shop_id,
      is_pc: isPcFlag(name),
      ...(siteType === undefined ? {} : { site_type: siteType }),
    },
  };
}
