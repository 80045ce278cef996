import type { InMemoryCatalogueData, InMemoryStation } from '../../src/infrastructure';
import type { PrizeItem } from '../../src/domain';
import { aPrizeItem } from '../support/factories';

const ON_SALE_FROM = '2020-01-01T00:00:00.000Z';
const ON_SALE_UNTIL = '2099-12-31T15:00:00.000Z';

function station(item: Partial<PrizeItem> & { station_id: number }, extra: Partial<Omit<InMemoryStation, keyof PrizeItem>> = {}): InMemoryStation {
  return {
    ...aPrizeItem({ station_admin_id: `ST-${String(item.station_id).padStart(4, '0')}`, ...item }),
    shop_id: 1, character_id: 1, sub_character_id: 11, gift_type: 0, stock: 10, recommend: true, ...extra,
  };
}

/**
 * What the in-memory fakes of the catalogue, reservation and kuji areas start from in the contract
 * suite: shaped like the seed (every station type, a station in maintenance, one sold out), one
 * kuji on sale, carousels, information, virtual cranes and new arrivals. Stations 1–5 are the ones
 * the top page lists.
 */
export function contractCatalogue(topPageItems: readonly PrizeItem[]): InMemoryCatalogueData {
  const listed = topPageItems.map((item) => station(item, item.type === 'normal' ? {} : { character_id: 2, sub_character_id: 21 }));
  const prizes = [
    { rank: 'A賞', prize_name: 'ふわふわ BIGぬいぐるみ', img_url: '/api/images/kuji-1-prize-1.svg', quantity: 1, remaining: 1 },
    { rank: 'B賞', prize_name: 'もちもちクッション', img_url: '/api/images/kuji-1-prize-2.svg', quantity: 2, remaining: 2 },
  ];
  return {
    shops: [1],
    stations: [
      ...listed,
      station({ station_id: 6, designated_type: 'point_ticket', prize_name: 'ほしくまくん ポイントチケット景品' }, { character_id: 2, sub_character_id: 21 }),
      station({ station_id: 7, prize_name: 'ねこまる しろまる ブランケット', character: 'ねこまる', sub_character: 'しろまる' }, { character_id: 2, sub_character_id: 21 }),
      station({ station_id: 8, type: 'exclusive', prize_name: 'ほしくまくん 独占BIGぬいぐるみ' }),
      station({ station_id: 9, type: 'vip', prize_name: 'ぱんだ日和 VIPブランケット' }),
      station({ station_id: 10, prize_name: 'もちもちうさぎ あんこ マスコット', little: 1 }, { stock: 0 }),
      station({ station_id: 11, station_status: 'maintenance', prize_name: 'ねこまる くろまる クッション' }),
      station({ station_id: 12, prize_name: 'もちもちうさぎ さくら アクリルスタンド', genre: 'アクリル' }, { recommend: false, gift_type: 1 }),
    ],
    tabs: [
      { tab_id: 1, tab_name: 'ホーム', tab_slug: 'home', tab_kind: 'home', genre: null },
      { tab_id: 2, tab_name: 'すべて', tab_slug: 'all', tab_kind: 'all', genre: null },
      { tab_id: 3, tab_name: 'バーチャルクレーン', tab_slug: 'virtual', tab_kind: 'virtual_crane', genre: null },
      { tab_id: 5, tab_name: 'おすすめ', tab_slug: 'recommend', tab_kind: 'recommend', genre: null },
      { tab_id: 6, tab_name: '新着', tab_slug: 'new', tab_kind: 'new_face', genre: null },
      { tab_id: 7, tab_name: 'VIP', tab_slug: 'vip', tab_kind: 'vip', genre: null },
      { tab_id: 8, tab_name: 'VIP独占台', tab_slug: 'exclusive', tab_kind: 'exclusive', genre: null },
      { tab_id: 9, tab_name: '練習台', tab_slug: 'practice', tab_kind: 'practice', genre: null },
      { tab_id: 10, tab_name: 'ぬいぐるみ', tab_slug: 'plush', tab_kind: 'genre', genre: 'ぬいぐるみ' },
      { tab_id: 11, tab_name: 'アクリル', tab_slug: 'acrylic', tab_kind: 'genre', genre: 'アクリル' },
    ],
    characters: [
      {
        character_id: 1, character_name: 'もちもちうさぎ', character_slug: 'mochiusa',
        sub_character: [{ sub_character_id: 11, sub_character_name: 'ミルク', sub_character_slug: 'milk' }, { sub_character_id: 12, sub_character_name: 'あんこ', sub_character_slug: 'anko' }],
      },
      { character_id: 2, character_name: 'ねこまる', character_slug: 'nekomaru', sub_character: [{ sub_character_id: 21, sub_character_name: 'しろまる', sub_character_slug: 'shiromaru' }] },
    ],
    fes: [{ fes_id: 1, shop_id: 1, station_ids: [1] }],
    kuji: [{
      kuji_id: 1, shop_id: 1, kuji_name: 'もちもちうさぎ ふわふわくじ', description: 'ハズレなしのオンラインくじです。', price: 700,
      starts_at: ON_SALE_FROM, ends_at: ON_SALE_UNTIL, kuji_img_urls: ['/api/images/kuji-1-banner.svg', '/api/images/kuji-1-prize-1.svg'],
      boxes: [
        { box_id: 1, box_no: 1, box_status: 'onSale', total_count: 3, remaining_count: 3, prizes },
        { box_id: 2, box_no: 2, box_status: 'ready', total_count: 3, remaining_count: 3, prizes },
        { box_id: 3, box_no: 3, box_status: 'deleted', total_count: 3, remaining_count: 3, prizes },
      ],
    }],
    carousels: [1, 2, 3, 4].map((id) => ({
      id, shop_id: 1, title: `キャンペーン${id}`, type_id: ((id % 3) + 1) as 1 | 2 | 3, link: `/information/campaign-${id}`,
      pc_img_url: `/api/images/carousel-${id}-pc.svg`, sp_img_url: `/api/images/carousel-${id}-sp.svg`,
    })),
    information: [
      { id: 1, shop_id: 1, tag: 'open', category: 'お知らせ', title: 'オンクレ オープン！', body: 'サービスを開始しました。', img_url: '', published_at: '2024-04-01T00:00:00.000Z', is_top_page: 1, is_pick_up: 0 },
      { id: 2, shop_id: 1, tag: 'kuji-start', category: 'くじ', title: 'ふわふわくじ 販売開始', body: 'オンラインくじの販売を開始しました。', img_url: '', published_at: '2024-05-01T00:00:00.000Z', is_top_page: 0, is_pick_up: 1 },
      { id: 3, shop_id: 1, tag: 'maintenance', category: 'メンテナンス', title: '定期メンテナンスのお知らせ', body: '毎週火曜日に行います。', img_url: '', published_at: '2024-06-01T00:00:00.000Z', is_top_page: 1, is_pick_up: 1 },
    ],
    virtualCranes: [
      { virtual_crane_id: 1, name: 'バーチャルクレーン もちもち', description: 'いつでも遊べるバーチャルクレーンです。', img_url: '/api/images/vc-1.svg', play_price: 100, new: 1 },
      { virtual_crane_id: 2, name: 'バーチャルクレーン ほしぞら', description: '星空テーマのバーチャルクレーンです。', img_url: '/api/images/vc-2.svg', play_price: 150, new: 0 },
    ],
    newArrivals: [
      { name: 'もちもちうさぎ ミルク BIGぬいぐるみ', release_date: '2024-06-10', img_url: '/api/images/prize-st-0001.svg' },
      { name: 'ねこまる しろまる ブランケット', release_date: '2024-06-01', img_url: '/api/images/prize-st-0007.svg' },
      { name: 'ぱんだ日和 VIPブランケット', release_date: '2024-05-20', img_url: '/api/images/prize-st-0009.svg' },
    ],
  };
}
