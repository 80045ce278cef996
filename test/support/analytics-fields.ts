import type { AnalyticsEventFields, AnalyticsEventName } from '../../src/domain';

/** Fields for each of the spec's analytics events, as the screens send them (shared by the analytics tests). */
export const ANALYTICS_FIELDS: { [N in AnalyticsEventName]: AnalyticsEventFields[N] } = {
  conversion: {},
  carousel_click: { carousel_id: 3, title: 'Spring', type_id: 1, pc_img_url: 'https://img.example.jp/c/3.png' },
  filtering_click: { title_all: 'All', img: 'https://img.example.jp/f.png', filter_type_id: 2 },
  crane_course: { crane_type: 'normal', step: 1 },
  play_game: { crane_type: 'normal', play_money: 100, ticket_num: 0 },
  continue_game: { crane_type: 'normal', play_money: 0, ticket_num: 1 },
  phone_auth: {},
  regist_user: {},
  support_click: { support_id: 7 },
  add_registration: {},
  buy_tc: { price: 1200 },
  search_word: { search_word: 'ぬいぐるみ' },
  medal_recommend_modal_action: { action_type: 'close' },
  staff_assist_request: { crane_type: 'normal', misses: 10 },
  settings_history_view: { station_id: 12 },
  daily_free_play_use: { crane_type: 'normal' },
};
