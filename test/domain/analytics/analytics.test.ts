import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_EVENT_NAMES,
  SPEC_ANALYTICS_EVENT_NAMES,
  analyticsEvent,
  isPcFlag,
  siteTypeFlag,
  type AnalyticsContext,
} from '../../../src/domain';

const ctx: AnalyticsContext = { user_id: 12, shop_id: 3, measurementIds: { main: 'G-MAIN', virtualCrane: 'G-VC' } };

describe('analytics payloads', () => {
  it('[R7-12] the thirteen events, crane_course to the virtual-crane id; the three designed ones after them', () => {
    expect(SPEC_ANALYTICS_EVENT_NAMES).toEqual([
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
    ]);
    expect(ANALYTICS_EVENT_NAMES).toEqual([
      ...SPEC_ANALYTICS_EVENT_NAMES,
      'staff_assist_request',
      'settings_history_view',
      'daily_free_play_use',
    ]);
    expect(analyticsEvent('staff_assist_request', { crane_type: 'normal', misses: 10 }, ctx)).toEqual({
      name: 'staff_assist_request',
      sendTo: 'G-MAIN',
      params: { crane_type: 'normal', misses: 10, user_id: 12, shop_id: 3, is_pc: 1 },
    });
    expect(analyticsEvent('crane_course', { crane_type: 'basic', step: 2 }, ctx).sendTo).toBe('G-VC');
    expect(analyticsEvent('buy_tc', { price: 1200 }, ctx)).toEqual({
      name: 'buy_tc',
      sendTo: 'G-MAIN',
      params: { price: 1200, user_id: 12, shop_id: 3, is_pc: 1 },
    });
  });

  it('[R9-15] is_pc is 1 except support_click and the medal-recommend modal; site_type 1 for carousel/filtering, 0 for support', () => {
    for (const name of ANALYTICS_EVENT_NAMES) {
      expect(isPcFlag(name)).toBe(name === 'support_click' || name === 'medal_recommend_modal_action' ? 0 : 1);
    }
    expect(ANALYTICS_EVENT_NAMES.filter((n) => siteTypeFlag(n) === 1)).toEqual(['carousel_click', 'filtering_click']);
    expect(ANALYTICS_EVENT_NAMES.filter((n) => siteTypeFlag(n) === 0)).toEqual(['support_click']);
    expect(analyticsEvent('support_click', { support_id: 4 }, ctx).params).toEqual({
      support_id: 4,
      user_id: 12,
      shop_id: 3,
      is_pc: 0,
      site_type: 0,
    });
    expect('site_type' in analyticsEvent('conversion', {}, ctx).params).toBe(false);
  });

  it('[R3-21] payloads carry the spec fields: ids, carousel, filter, crane, support, search and modal action', () => {
    expect(
      analyticsEvent('carousel_click', { carousel_id: 7, title: '春', type_id: 2, pc_img_url: '/c.png' }, ctx).params,
    ).toEqual({
      carousel_id: 7,
      title: '春',
      type_id: 2,
      pc_img_url: '/c.png',
      user_id: 12,
      shop_id: 3,
      is_pc: 1,
      site_type: 1,
    });
    expect(
      analyticsEvent('filtering_click', { title_all: 'ぬいぐるみ', img: '/f.png', filter_type_id: 5 }, ctx).params,
    ).toMatchObject({ title_all: 'ぬいぐるみ', img: '/f.png', filter_type_id: 5, site_type: 1 });
    expect(
      analyticsEvent('play_game', { crane_type: 'basic', play_money: 200, ticket_num: 0 }, ctx).params,
    ).toMatchObject({ crane_type: 'basic', play_money: 200, ticket_num: 0 });
    expect(analyticsEvent('search_word', { search_word: 'うさぎ' }, ctx).params).toMatchObject({
      search_word: 'うさぎ',
      user_id: 12,
      shop_id: 3,
    });
    expect(analyticsEvent('medal_recommend_modal_action', { action_type: 'close' }, ctx).params).toEqual({
      action_type: 'close',
      user_id: 12,
      shop_id: 3,
      is_pc: 0,
    });
  });
});
