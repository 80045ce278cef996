import { z } from 'zod/mini';
import { DESIGNATED_TYPES, INFORMATION_TAG_PATTERN, STATION_TYPES, type StationLiveState } from '../domain';
import { prizeItemSchema, tabListItemSchema } from './catalogue.schema';
import { errorResponseSchema } from './envelope';
import { identitySchema, idSchema } from './user-identity.schema';
import { CONTRACT_MESSAGES as M } from './messages';

/**
 * Bodies and answers of the /contents/*, /virtualcrane/list and /store/new_arrivals calls (spec §7),
 * named after the §3 entities. See docs/api/contents.md.
 */

const contentFlag = z.union([z.literal(0), z.literal(1)]);
const positiveIdSchema = idSchema;
const nonNegativeId = z.int().check(z.nonnegative()).check(z.lte(2_147_483_647));

/**
 * Identity on a call guests may make too [R3-1]: when present it must be well-formed; a valid pair
 * makes the caller signed in, anything else counts as a guest.
 */
export const optionalIdentitySchema = z.partial(identitySchema);

const shopId = z.int().check(z.nonnegative()).check(z.lte(1_000_000));

/** Items a prize listing page shows at once (spec §9 PAGE_ITEMS_COUNT) [R9-3]. */
export const PAGE_ITEMS_COUNT = 30;
/** Information and news: at most this many per page [R9-2]. */
export const INFORMATION_PAGE_MAX = 100;
/** The public new-arrivals listing answers at most this many items [R7-7]. */
export const NEW_ARRIVALS_LIMIT = 50;
/** The side banner shows this many carousels [R9-2]; the carousel call answers them all. */
export const SIDE_BANNER_CAROUSELS = 3;

const keyword = z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(100));

// ---- POST /contents/prize ------------------------------------------------------------------

/** Body of POST /contents/prize: exactly one of station_id, character_id or keyword. */
export const prizeRequestSchema = z.extend(optionalIdentitySchema, {
  prize: z
    .object({
      station_id: z.optional(positiveIdSchema),
      character_id: z.optional(positiveIdSchema),
      keyword: z.optional(keyword),
    })
    .check(
      z.refine((p) => [p.station_id, p.character_id, p.keyword].filter((v) => v !== undefined).length === 1, {
        message: M.prizeLookupOne,
      }),
    ),
  shop_id: shopId,
  fes_id: z.optional(nonNegativeId),
});
export type PrizeRequest = z.infer<typeof prizeRequestSchema>;

export const prizeResponseSchema = z.extend(errorResponseSchema, {
  prize: z.array(prizeItemSchema),
  prize_fes: z.array(prizeItemSchema),
  prize_ticket: z.array(prizeItemSchema),
});
export type PrizeResponse = z.infer<typeof prizeResponseSchema>;

// ---- POST /v2/contents/prize ---------------------------------------------------------------

/** Search params (spec §3) [R3-17]. Every field is optional; an empty object lists everything. */
export const searchParamsSchema = z.object({
  keyword: z.optional(keyword),
  character_id: z.optional(positiveIdSchema),
  station_ids: z.optional(z.array(positiveIdSchema).check(z.maxLength(100))),
  /** A tab_id: a genre tab filters by genre, a kind tab (VIP, 新着, 練習台 …) by that kind. */
  category_id: z.optional(positiveIdSchema),
  station_type: z.optional(z.enum(STATION_TYPES)),
  new: z.optional(contentFlag),
  designated_type: z.optional(z.enum(DESIGNATED_TYPES)),
  natia: z.optional(contentFlag),
  /** 1: VIP stations (vip and exclusive). */
  vip: z.optional(contentFlag),
  /** 1: VIP-exclusive stations only. */
  exclusive: z.optional(contentFlag),
  gift_type: z.optional(z.int().check(z.gte(0)).check(z.lte(9))),
  /** 1: only stations playable now (not in maintenance, prize in stock). */
  refine_search: z.optional(contentFlag),
  /** 1: the whole matching list in one answer instead of PAGE_ITEMS_COUNT per page. */
  is_all: z.optional(contentFlag),
});
export type SearchParams = z.infer<typeof searchParamsSchema>;

export const prizeV2RequestSchema = z.extend(optionalIdentitySchema, {
  prize: z._default(searchParamsSchema, {}),
  page: z._default(z.int().check(z.gte(1)).check(z.lte(10_000)), 1),
  shop_id: shopId,
  fes_id: z.optional(nonNegativeId),
});
export type PrizeV2Request = z.infer<typeof prizeV2RequestSchema>;

export const saleListSectionSchema = z.object({
  tab_id: z.int(),
  title: z.string(),
  list: z.array(prizeItemSchema),
});

export const prizeV2ResponseSchema = z.extend(errorResponseSchema, {
  prize: z.object({
    list: z.array(prizeItemSchema),
    total_count: z.int().check(z.nonnegative()),
    page: z.int().check(z.positive()),
    page_count: z.int().check(z.nonnegative()),
    page_items_count: z.int().check(z.positive()),
  }),
  tab_list: z.array(tabListItemSchema),
  sale_list: z.array(saleListSectionSchema),
});
export type PrizeV2Response = z.infer<typeof prizeV2ResponseSchema>;

// ---- POST /contents/kuji -------------------------------------------------------------------

export const KUJI_BOX_STATUSES = ['onSale', 'ready', 'endOfSale', 'outOfStock', 'deleted'] as const;
export type KujiBoxStatus = (typeof KUJI_BOX_STATUSES)[number];

export const kujiListRequestSchema = z.extend(optionalIdentitySchema, {
  /** 1: kuji on sale now (the only list designed so far). */
  type: z.literal(1),
  shop_id: z.optional(shopId),
});

export const kujiBoxPrizeSchema = z.object({
  rank: z.string(),
  prize_name: z.string(),
  img_url: z.string(),
  quantity: z.int().check(z.nonnegative()),
  remaining: z.int().check(z.nonnegative()),
  /** 1: the last-one prize, given with the box's last ticket (not a ticket itself). */
  last_one: contentFlag,
});
export const kujiBoxSchema = z.object({
  box_id: z.int().check(z.positive()),
  box_no: z.int().check(z.positive()),
  box_status: z.enum(KUJI_BOX_STATUSES),
  total_count: z.int().check(z.nonnegative()),
  remaining_count: z.int().check(z.nonnegative()),
  prizes: z.array(kujiBoxPrizeSchema),
});
export const kujiItemSchema = z.object({
  kuji_id: z.int().check(z.positive()),
  kuji_name: z.string(),
  description: z.string(),
  price: z.int().check(z.nonnegative()),
  starts_at: z.string(),
  ends_at: z.string(),
  kuji_img_urls: z.array(z.string()),
  boxes: z.array(kujiBoxSchema),
});
export type KujiItem = z.infer<typeof kujiItemSchema>;
export const kujiListResponseSchema = z.extend(errorResponseSchema, { list: z.array(kujiItemSchema) });

// ---- POST /contents/carousel ---------------------------------------------------------------

export const carouselRequestSchema = z.extend(optionalIdentitySchema, { shop_id: z.optional(shopId) });
export const carouselItemSchema = z.object({
  id: z.int().check(z.positive()),
  title: z.string(),
  /** 1 information page, 2 prize search, 3 station. */
  type_id: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  link: z.string(),
  pc_img_url: z.string(),
  sp_img_url: z.string(),
});
export type CarouselItem = z.infer<typeof carouselItemSchema>;
export const carouselResponseSchema = z.extend(errorResponseSchema, {
  carousel: z.object({ list: z.array(carouselItemSchema) }),
});

// ---- POST /contents/information, /contents/get_start_news ----------------------------------

const page = z.int().check(z.gte(1)).check(z.lte(10_000));
const num = z.int().check(z.gte(1)).check(z.lte(INFORMATION_PAGE_MAX));

/** `tag` (designed) narrows the list to the one item of the /information/{tag} page. */
export const informationRequestSchema = z.extend(optionalIdentitySchema, {
  page: z._default(page, 1),
  num: z._default(num, INFORMATION_PAGE_MAX),
  shop_id: shopId,
  tag: z.optional(z.string().check(z.regex(INFORMATION_TAG_PATTERN, { error: M.badInformationTag }))),
});
export const informationItemSchema = z.object({
  id: z.int().check(z.positive()),
  tag: z.string(),
  category: z.string(),
  title: z.string(),
  body: z.string(),
  img_url: z.string(),
  published_at: z.string(),
  is_top_page: contentFlag,
  is_pick_up: contentFlag,
});
export type InformationItem = z.infer<typeof informationItemSchema>;
const pagedInformation = z.object({
  list: z.array(informationItemSchema),
  total_count: z.int().check(z.nonnegative()),
  page: z.int().check(z.positive()),
  num: z.int().check(z.positive()),
  page_count: z.int().check(z.nonnegative()),
});
export const informationResponseSchema = z.extend(errorResponseSchema, { information: pagedInformation });

export const startNewsRequestSchema = z
  .extend(optionalIdentitySchema, {
    page: z._default(page, 1),
    num: z._default(num, INFORMATION_PAGE_MAX),
    shop_id: shopId,
    is_top_page: z.optional(contentFlag),
    is_pick_up: z.optional(contentFlag),
  })
  .check(
    z.refine((b) => b.is_top_page !== undefined || b.is_pick_up !== undefined, {
      message: M.startNewsKind,
      path: ['is_top_page'],
    }),
  );
export const startNewsResponseSchema = z.extend(errorResponseSchema, {
  list: z.array(informationItemSchema),
  total_count: z.int().check(z.nonnegative()),
});

// ---- POST /contents/character --------------------------------------------------------------

export const characterRequestSchema = optionalIdentitySchema;
/** Character with its sub-characters (spec §3) [R3-10]. */
export const characterSchema = z.object({
  character_id: z.int().check(z.positive()),
  character_name: z.string(),
  slug: z.string(),
  sub_character: z.array(
    z.object({ sub_character_id: z.int().check(z.positive()), sub_character_name: z.string(), slug: z.string() }),
  ),
});
export type Character = z.infer<typeof characterSchema>;
export const characterResponseSchema = z.extend(errorResponseSchema, {
  character: z.object({ list: z.array(characterSchema) }),
});

// ---- POST /virtualcrane/list ---------------------------------------------------------------

export const virtualCraneListRequestSchema = identitySchema;
export const virtualCraneSchema = z.object({
  virtual_crane_id: z.int().check(z.positive()),
  name: z.string(),
  description: z.string(),
  img_url: z.string(),
  play_price: z.int().check(z.nonnegative()),
  new: contentFlag,
});
export const virtualCraneListResponseSchema = z.extend(errorResponseSchema, {
  list: z.array(virtualCraneSchema),
  /** How many virtual cranes are new (released within the new-prize window); 0 hides the badge. */
  Badge: z.int().check(z.nonnegative()),
});

// ---- GET /store/new_arrivals ---------------------------------------------------------------

export const newArrivalsQuerySchema = z.object({
  limit: z._default(
    z.coerce.number().check(z.int()).check(z.gte(1)).check(z.lte(NEW_ARRIVALS_LIMIT)),
    NEW_ARRIVALS_LIMIT,
  ),
});
export const newArrivalSchema = z.object({
  name: z.string(),
  /** YYYY-MM-DD in Japan time. */
  release_date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  img_url: z.string(),
});
export const newArrivalsResponseSchema = z.extend(errorResponseSchema, {
  list: z.array(newArrivalSchema).check(z.maxLength(NEW_ARRIVALS_LIMIT)),
});

/** The lobby's numbers (designed, issue 45): every station's status, playing flag, viewers and line. */
export const lobbyRequestSchema = z.strictObject({});
export const stationLiveStateSchema = z.object({
  station_id: z.int().check(z.positive()),
  station_status: z.string().check(z.maxLength(40)),
  playing: z.union([z.literal(0), z.literal(1)]),
  visit_count: z.int().check(z.nonnegative()),
  reserve_count: z.optional(z.int().check(z.nonnegative())),
}) satisfies z.ZodMiniType<StationLiveState>;
export const lobbyResponseSchema = z.extend(errorResponseSchema, { lobby: z.array(stationLiveStateSchema) });
