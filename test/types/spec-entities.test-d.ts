/**
 * Type tests: the §3 entity types keep the spec's field names exactly. Vitest runs this file in its
 * typecheck mode (`vitest.config` test.typecheck, part of `npm test`), so each check below is reported
 * as a test and a renamed, dropped or added field fails it. The run-time side — the wire schemas that
 * validate every answer carry the same names — is test/domain/entities.test.ts.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AddressResponse,
  AppState,
  Character,
  DeliveryListItem,
  ErrorResponse,
  InviteInfo,
  KujiPlayInfo,
  LoginInfo,
  NicknameInfo,
  PayMethod,
  PlayInfo,
  PrizeItem,
  Product,
  Profile,
  ReserveStatusRecord,
  SearchParams,
  TcInfo,
  TicketInfo,
  UnreadFlags,
  UserData,
} from '../../src/domain';

describe('type test: §3 entity types use the spec names', () => {
  it('[R3-4] address response: address_bool, names, zip, address1-3, tel, email, birth, all_address {id, birth, email, list}', () => {
    expectTypeOf<keyof AddressResponse>().toEqualTypeOf<
      | 'address_bool'
      | 'first_name'
      | 'last_name'
      | 'zip'
      | 'address1'
      | 'address2'
      | 'address3'
      | 'tel'
      | 'email'
      | 'birth'
      | 'all_address'
    >();
    expectTypeOf<keyof AddressResponse['all_address']>().toEqualTypeOf<'id' | 'birth' | 'email' | 'list'>();
  });

  it('[R3-5] reserve status record fields', () => {
    expectTypeOf<keyof ReserveStatusRecord>().toEqualTypeOf<
      | 'station_status'
      | 'visit_count'
      | 'reserve_count'
      | 'reserve_status'
      | 'reserve_token'
      | 'reserve_num'
      | 'reserve_time'
      | 'play_reserve_id'
      | 'playing'
      | 'viewable'
      | 'request_flag'
      | 'request_type'
    >();
  });

  it('[R3-6] [R11-7] user data: auth, login, nickname, profile, TC and its next free end, tickets, crane items, unread flags, e-mail', () => {
    expectTypeOf<keyof UserData>().toEqualTypeOf<
      | 'auth_info'
      | 'login_info'
      | 'nickname_info'
      | 'profile'
      | 'tc_info'
      | 'tc_free_expiring'
      | 'daily_free_play'
      | 'ticket_info'
      | 'crane_items'
      | 'unread'
      | 'email'
    >();
    expectTypeOf<keyof UserData['auth_info']>().toEqualTypeOf<'user_id' | 'access_token' | 'agree_contract'>();
    expectTypeOf<keyof LoginInfo>().toEqualTypeOf<
      | 'sound'
      | 'hide_character'
      | 'vip_level'
      | 'status'
      | 'is_sms'
      | 'notice_get'
      | 'play_info'
      | 'additional_list'
      | 'modal_list'
    >();
    expectTypeOf<keyof LoginInfo['play_info']>().toEqualTypeOf<'station_id' | 'reserve_status'>();
    expectTypeOf<keyof LoginInfo['additional_list']>().toEqualTypeOf<'tutorial_top' | 'tutorial_play'>();
    expectTypeOf<keyof NicknameInfo>().toEqualTypeOf<'userId' | 'nickname' | 'isNicknameUnregistered'>();
    expectTypeOf<keyof Profile>().toEqualTypeOf<'sex' | 'birth' | 'prefectures' | 'created_at'>();
    expectTypeOf<keyof TcInfo>().toEqualTypeOf<'tc_all' | 'tc_free' | 'tc_toll'>();
    expectTypeOf<keyof TicketInfo>().toEqualTypeOf<'ticket_all'>();
    expectTypeOf<keyof UnreadFlags>().toEqualTypeOf<
      'news' | 'prize' | 'kuji' | 'order_made_prize' | 'digital' | 'direct' | 'message'
    >();
  });

  it('[R3-7] play info fields', () => {
    expectTypeOf<keyof PlayInfo>().toEqualTypeOf<
      | 'reserve_polling_id'
      | 'station_id'
      | 'station_setting_id'
      | 'reserve_status'
      | 'is_reserve'
      | 'reserve_num'
      | 'reserve_token'
      | 'reserve_remaintime'
      | 'station_status'
      | 'designated_type'
      | 'station_data'
    >();
  });

  it('[R3-8] kuji play info fields', () => {
    expectTypeOf<keyof KujiPlayInfo>().toEqualTypeOf<
      | 'reserve_polling_id'
      | 'kuji_play_reserve_id'
      | 'reserve_token'
      | 'reserve_num'
      | 'reserve_status'
      | 'kuji_id'
      | 'box_id'
      | 'box_status'
      | 'reserve_remaintime'
      | 'play_at'
    >();
  });

  it('[R3-9] the prize/station item carries every spec field', () => {
    expectTypeOf<
      | 'station_id'
      | 'station_admin_id'
      | 'playing'
      | 'new'
      | 'station_status'
      | 'natia'
      | 'little'
      | 'disclosure'
      | 'type'
      | 'character'
      | 'sub_character'
      | 'designated_type'
      | 'is_get'
    >().toExtend<keyof PrizeItem>();
  });

  it('[R3-10] a character has its sub-character list', () => {
    expectTypeOf<Character['sub_character'][number]>().toExtend<{
      sub_character_id: number;
      sub_character_name: string;
    }>();
    expectTypeOf<Character>().toExtend<{ character_id: number; character_name: string }>();
  });

  it('[R3-11] [R3-12] [R3-13] products, pay methods and delivery list items', () => {
    expectTypeOf<keyof Product>().toEqualTypeOf<'toll_tc' | 'free_tc'>();
    expectTypeOf<'name' | 'info' | 'imgUrl' | 'rank_id'>().toExtend<keyof PayMethod>();
    expectTypeOf<PayMethod['rank_id']>().toEqualTypeOf<0 | 1 | 2 | 3>();
    expectTypeOf<'delivery_status'>().toExtend<keyof DeliveryListItem>();
  });

  it('[R3-16] [R3-19] [R3-20] invite info, error response and app state', () => {
    expectTypeOf<keyof InviteInfo>().toEqualTypeOf<'invite_ticket' | 'title' | 'url' | 'text'>();
    expectTypeOf<keyof ErrorResponse>().toEqualTypeOf<'error_code' | 'error_info'>();
    expectTypeOf<keyof AppState>().toEqualTypeOf<'isVip' | 'shop_id' | 'topPageBaseUrl'>();
  });

  it('[R3-17] search params fields', () => {
    expectTypeOf<keyof SearchParams>().toEqualTypeOf<
      | 'keyword'
      | 'character_id'
      | 'station_ids'
      | 'category_id'
      | 'station_type'
      | 'new'
      | 'designated_type'
      | 'natia'
      | 'vip'
      | 'exclusive'
      | 'gift_type'
      | 'refine_search'
      | 'is_all'
    >();
  });
});
