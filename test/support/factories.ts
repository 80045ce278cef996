import type { PrizeItem, TopPageCatalogue } from '../../src/domain';

/** A prize station with sensible defaults; override any field: `aPrizeItem({ type: 'vip' })`. */
export function aPrizeItem(overrides: Partial<PrizeItem> = {}): PrizeItem {
  return {
    station_id: 1,
    station_admin_id: 'ST-0001',
    prize_name: 'もちもちうさぎ ミルク BIGぬいぐるみ',
    img_url: '/api/images/prize-st-0001.svg',
    play_price: 200,
    playing: 0,
    new: 0,
    station_status: 'open',
    natia: 0,
    little: 0,
    disclosure: 0,
    type: 'normal',
    character: 'もちもちうさぎ',
    sub_character: 'ミルク',
    designated_type: 'normal',
    is_get: 0,
    genre: 'ぬいぐるみ',
    ...overrides,
  };
}

/** A top page with one row per given list of items. */
export function aTopPage(overrides: Partial<TopPageCatalogue> = {}): TopPageCatalogue {
  return {
    tab_list: [
      { tab_id: 1, tab_name: 'ホーム', tab_slug: 'home', tab_kind: 'home' },
      { tab_id: 2, tab_name: 'すべて', tab_slug: 'all', tab_kind: 'all' },
    ],
    sale_list: [{ tab_id: 5, title: 'おすすめ', list: [aPrizeItem()] }],
    campaign_banner: [],
    new_user: { img: '' },
    fes: { img: '', list: [] },
    new_prize: [],
    ...overrides,
  };
}
