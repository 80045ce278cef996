import { z } from 'zod/mini';
import {
  DESIGNATED_TYPES,
  STATION_STATUSES,
  STATION_TYPES,
  TAB_KINDS,
  type TopPageCatalogue,
  type PrizeItem,
} from '../domain';
import { errorResponseSchema } from './envelope';

const flag = z.union([z.literal(0), z.literal(1)]);

export const prizeItemSchema = z.object({
  station_id: z.int().check(z.positive()),
  station_admin_id: z.string(),
  prize_name: z.string(),
  img_url: z.string(),
  play_price: z.int().check(z.nonnegative()),
  playing: flag,
  new: flag,
  station_status: z.enum(STATION_STATUSES),
  natia: flag,
  little: flag,
  disclosure: flag,
  type: z.enum(STATION_TYPES),
  character: z.string(),
  sub_character: z.string(),
  designated_type: z.enum(DESIGNATED_TYPES),
  is_get: flag,
  genre: z.string(),
}) satisfies z.ZodMiniType<PrizeItem>;

export const tabListItemSchema = z.object({
  tab_id: z.int(),
  tab_name: z.string(),
  tab_slug: z.string(),
  tab_kind: z.enum(TAB_KINDS),
});

/** Body of POST /contents/top_page_prize (besides identity). */
export const topPagePrizeRequestSchema = z.object({
  shop_id: z.int().check(z.nonnegative()).check(z.lte(1_000_000)),
  is_top_page: z.union([z.literal(0), z.literal(1)]),
  fes_id: z.optional(z.int().check(z.nonnegative()).check(z.lte(1_000_000))),
});
export type TopPagePrizeRequest = z.infer<typeof topPagePrizeRequestSchema>;

export const topPagePrizeResponseSchema = z.extend(errorResponseSchema, {
  tab_list: z.array(tabListItemSchema),
  sale_list: z.array(z.object({ tab_id: z.int(), title: z.string(), list: z.array(prizeItemSchema) })),
  campaign_banner: z.array(z.object({ id: z.int(), title: z.string(), img_url: z.string() })),
  new_user: z.object({ img: z.string() }),
  fes: z.object({ img: z.string(), list: z.array(prizeItemSchema) }),
  new_prize: z.array(prizeItemSchema),
});
export type TopPagePrizeResponse = z.infer<typeof topPagePrizeResponseSchema>;

// The answer minus its envelope is exactly the domain's TopPageCatalogue.
export type _TopPageCheck =
  Omit<TopPagePrizeResponse, 'error_code' | 'error_info'> extends TopPageCatalogue ? true : never;
