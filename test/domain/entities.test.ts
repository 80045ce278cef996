/**
 * The §3 entities keep the spec's wire names at run time: the contract schemas that validate every
 * answer the client reads (and every body the server accepts) carry exactly the spec's fields, so an
 * answer missing one is refused at the border. The entity types are checked against the same lists
 * by the type test test/types/spec-entities.test-d.ts.
 */
import { describe, expect, it } from 'vitest';
import { type z } from 'zod/mini';
import {
  addressResponseDataSchema,
  characterSchema,
  errorResponseSchema,
  inviteInfoSchema,
  kujiPlayInfoSchema,
  payMethodSchema,
  playInfoSchema,
  prizeItemSchema,
  reserveStatusRecordSchema,
  searchParamsSchema,
  tcInfoSchema,
  ticketInfoSchema,
  unreadFlagsSchema,
} from '../../src/contract';
import { EMPTY_PLAY_INFO, EMPTY_SEARCH_PARAMS } from '../../src/domain';

/** The field names of an object schema (unwrapping a transform or refinement). */
function fields(schema: z.ZodMiniType): string[] {
  const def = (schema as unknown as { def: { type: string; in?: z.ZodMiniType; shape?: Record<string, unknown> } }).def;
  if (def.type === 'pipe' && def.in) return fields(def.in);
  if (def.shape) return Object.keys(def.shape).sort();
  throw new Error(`not an object schema: ${def.type}`);
}
const sorted = (names: string[]) => [...names].sort();

describe('§3 entities on the wire use the spec names', () => {
  it('[R3-4] address response: address_bool, names, zip, address1-3, tel, email, birth, all_address {id, birth, email, list}', () => {
    expect(fields(addressResponseDataSchema)).toEqual(
      sorted([
        'address_bool',
        'first_name',
        'last_name',
        'zip',
        'address1',
        'address2',
        'address3',
        'tel',
        'email',
        'birth',
        'all_address',
      ]),
    );
    expect(fields(addressResponseDataSchema.shape.all_address)).toEqual(sorted(['id', 'birth', 'email', 'list']));
  });

  it('[R3-5] reserve status record: the spec fields, plus the station it describes', () => {
    expect(fields(reserveStatusRecordSchema)).toEqual(
      sorted([
        'station_status',
        'visit_count',
        'reserve_count',
        'reserve_status',
        'reserve_token',
        'reserve_num',
        'reserve_time',
        'play_reserve_id',
        'playing',
        'viewable',
        'request_flag',
        'request_type',
        'station_id',
        'station_setting_id',
      ]),
    );
  });

  it('[R3-6] user data on the wire: TC info, ticket info and the seven unread flags', () => {
    expect(fields(tcInfoSchema)).toEqual(sorted(['tc_all', 'tc_free', 'tc_toll']));
    expect(fields(ticketInfoSchema)).toEqual(['ticket_all']);
    expect(fields(unreadFlagsSchema)).toEqual(
      sorted(['news', 'prize', 'kuji', 'order_made_prize', 'digital', 'direct', 'message']),
    );
  });

  it('[R3-7] play info fields, and the empty play info has every one', () => {
    const spec = sorted([
      'reserve_polling_id',
      'station_id',
      'station_setting_id',
      'reserve_status',
      'is_reserve',
      'reserve_num',
      'reserve_token',
      'reserve_remaintime',
      'station_status',
      'designated_type',
      'station_data',
    ]);
    expect(fields(playInfoSchema)).toEqual(spec);
    expect(Object.keys(EMPTY_PLAY_INFO).sort()).toEqual(spec);
  });

  it('[R3-8] kuji play info fields', () => {
    expect(fields(kujiPlayInfoSchema)).toEqual(
      sorted([
        'reserve_polling_id',
        'kuji_play_reserve_id',
        'reserve_token',
        'reserve_num',
        'reserve_status',
        'kuji_id',
        'box_id',
        'box_status',
        'reserve_remaintime',
        'play_at',
      ]),
    );
  });

  it('[R3-9] the prize/station item carries every spec field', () => {
    expect(fields(prizeItemSchema)).toEqual(
      expect.arrayContaining([
        'station_id',
        'station_admin_id',
        'playing',
        'new',
        'station_status',
        'natia',
        'little',
        'disclosure',
        'type',
        'character',
        'sub_character',
        'designated_type',
        'is_get',
      ]),
    );
  });

  it('[R3-10] a character has its sub-character list', () => {
    expect(fields(characterSchema)).toEqual(
      expect.arrayContaining(['character_id', 'character_name', 'sub_character']),
    );
    const sub = { sub_character_id: 2, sub_character_name: 'ミルク', slug: 'milk' };
    const parsed = characterSchema.parse({
      character_id: 1,
      character_name: 'もちもちうさぎ',
      slug: 'mochi-usagi',
      sub_character: [sub],
    });
    expect(parsed.sub_character).toEqual([sub]);
    expect(() =>
      characterSchema.parse({ character_id: 1, character_name: 'もちもちうさぎ', slug: 'mochi-usagi' }),
    ).toThrow();
  });

  it('[R3-12] a pay method carries name, info, imgUrl and rank_id 0-3', () => {
    expect(fields(payMethodSchema)).toEqual(expect.arrayContaining(['name', 'info', 'imgUrl', 'rank_id']));
    const base = payMethodSchema.parse({ ...samplePayMethod, rank_id: 3 });
    expect(base.rank_id).toBe(3);
    expect(() => payMethodSchema.parse({ ...samplePayMethod, rank_id: 4 })).toThrow();
  });

  it('[R3-16] [R3-19] invite info and the error response', () => {
    expect(fields(inviteInfoSchema)).toEqual(sorted(['invite_ticket', 'title', 'url', 'text']));
    expect(fields(errorResponseSchema)).toEqual(['error_code', 'error_info']);
  });

  it('[R3-17] search params fields, and the empty search params have every one', () => {
    const spec = sorted([
      'keyword',
      'character_id',
      'station_ids',
      'category_id',
      'station_type',
      'new',
      'designated_type',
      'natia',
      'vip',
      'exclusive',
      'gift_type',
      'refine_search',
      'is_all',
    ]);
    expect(fields(searchParamsSchema)).toEqual(spec);
    expect(Object.keys(EMPTY_SEARCH_PARAMS).sort()).toEqual(spec);
  });
});

const samplePayMethod = {
  id: 'credit_card',
  kind: 'credit_card',
  name: 'クレジットカード',
  info: '',
  imgUrl: '/api/images/pay-credit.svg',
  rank_id: 0,
};
