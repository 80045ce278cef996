import type { AppConfig, StationReserveInfo } from '../application';
import {
  EMPTY_PLAY_INFO,
  EMPTY_SEARCH_PARAMS,
  type AddressForm,
  type AddressRecord,
  type AuthIdentity,
  type CarouselSlide,
  type Character,
  type InformationItem,
  type KujiBox,
  type KujiOnSale,
  type KujiPlayInfo,
  type LoginInfo,
  type NewArrival,
  type NicknameInfo,
  type PayMethodOption,
  type PlayInfo,
  type PrizeDelivery,
  type PrizeItem,
  type Profile,
  type ReserveStatusRecord,
  type SearchParams,
  type Settlement,
  type StationInfo,
  type TabListItem,
  type TcInfo,
  type TicketInfo,
  type TopPageCatalogue,
  type UnreadFlags,
  type UserData,
  type VirtualCrane,
  type WonPrize,
  type AssistGaugeView,
  type MachineView,
  type PlayLogEntry,
  type PlayView,
} from '../domain';

/*
 * Entities with sensible defaults for tests: every factory takes overrides for any field, so a test
 * states only what it is about — `aStation({ station_status: 'maintenance' })`. Shared by unit,
 * contract and e2e tests. Demo content is our own (invented characters and prizes).
 */

/** A prize station as the catalogue lists it (spec §3 prize/station item). */
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

/** A station (the catalogue's prize/station item): `aStation({ station_status: 'maintenance' })`. */
export const aStation = aPrizeItem;

export function aTab(overrides: Partial<TabListItem> = {}): TabListItem {
  return { tab_id: 1, tab_name: 'ホーム', tab_slug: 'home', tab_kind: 'home', ...overrides };
}

/** A top page with one row of one station unless told otherwise. */
export function aTopPage(overrides: Partial<TopPageCatalogue> = {}): TopPageCatalogue {
  return {
    tab_list: [aTab(), aTab({ tab_id: 2, tab_name: 'すべて', tab_slug: 'all', tab_kind: 'all' })],
    sale_list: [{ tab_id: 5, title: 'おすすめ', list: [aPrizeItem()] }],
    campaign_banner: [],
    new_user: { img: '' },
    fes: { img: '', list: [] },
    new_prize: [],
    ...overrides,
  };
}

export function aCharacter(overrides: Partial<Character> = {}): Character {
  return {
    character_id: 1,
    character_name: 'もちもちうさぎ',
    character_slug: 'mochi-usagi',
    sub_character: [{ sub_character_id: 1, sub_character_name: 'ミルク', sub_character_slug: 'milk' }],
    ...overrides,
  };
}

export function aSearchParams(overrides: Partial<SearchParams> = {}): SearchParams {
  return { ...EMPTY_SEARCH_PARAMS, ...overrides };
}

/** A reserve status record of someone third in line (spec §3). */
export function aReserveRecord(overrides: Partial<ReserveStatusRecord> = {}): ReserveStatusRecord {
  return {
    station_status: 'open',
    visit_count: 4,
    reserve_count: 3,
    reserve_status: 'reserve',
    reserve_token: 'tok-1',
    reserve_num: 3,
    reserve_time: 60,
    play_reserve_id: 10,
    playing: 0,
    viewable: 1,
    request_flag: 0,
    request_type: 0,
    ...overrides,
  };
}

/** The reserve status of one station as the reservation port gives it. */
export function aStationReserveInfo(overrides: Partial<StationReserveInfo> = {}): StationReserveInfo {
  return { ...aReserveRecord(), station_id: 1, station_setting_id: 101, ...overrides } as StationReserveInfo;
}

/** Play info (spec §3); the empty play info unless overridden. */
export function aPlayInfo(overrides: Partial<PlayInfo> = {}): PlayInfo {
  return { ...EMPTY_PLAY_INFO, ...overrides };
}

/** Kuji play info of someone waiting in a box's line. */
export function aKujiPlayInfo(overrides: Partial<KujiPlayInfo> = {}): KujiPlayInfo {
  return {
    reserve_polling_id: 1,
    kuji_play_reserve_id: 1,
    reserve_token: 'kuji-tok-1',
    reserve_num: 2,
    reserve_status: 'reserve',
    kuji_id: 1,
    box_id: 1,
    box_status: 'onSale',
    reserve_remaintime: 0,
    play_at: null,
    ...overrides,
  };
}

export function aKujiBox(overrides: Partial<KujiBox> = {}): KujiBox {
  return {
    box_id: 1,
    box_no: 1,
    box_status: 'onSale',
    total_count: 80,
    remaining_count: 80,
    prizes: [
      {
        rank: 'A賞',
        prize_name: 'ぱんだ日和 こぱん BIGぬいぐるみ',
        img_url: '/api/images/kuji-a.svg',
        quantity: 2,
        remaining: 2,
        last_one: 0,
      },
      {
        rank: 'B賞',
        prize_name: 'ぱんだ日和 こぱん マグカップ',
        img_url: '/api/images/kuji-b.svg',
        quantity: 78,
        remaining: 78,
        last_one: 0,
      },
      {
        rank: 'ラストワン賞',
        prize_name: 'ぱんだ日和 こぱん フィギュア',
        img_url: '/api/images/kuji-lo.svg',
        quantity: 1,
        remaining: 1,
        last_one: 1,
      },
    ],
    ...overrides,
  };
}

export function aKujiOnSale(overrides: Partial<KujiOnSale> = {}): KujiOnSale {
  return {
    kuji_id: 1,
    kuji_name: 'ぱんだ日和 オンラインくじ',
    description: 'こぱんの限定グッズが当たるくじです。',
    price: 800,
    starts_at: '2026-11-01T00:00:00+09:00',
    ends_at: '2026-12-31T23:59:59+09:00',
    kuji_img_urls: ['/api/images/kuji-1.svg'],
    boxes: [aKujiBox()],
    ...overrides,
  };
}

export function aCarouselSlide(overrides: Partial<CarouselSlide> = {}): CarouselSlide {
  return {
    id: 1,
    title: '冬のキャンペーン',
    type_id: 1,
    link: '/information/winter',
    pc_img_url: '/api/images/carousel-1-pc.svg',
    sp_img_url: '/api/images/carousel-1-sp.svg',
    ...overrides,
  };
}

export function anInformationItem(overrides: Partial<InformationItem> = {}): InformationItem {
  return {
    id: 1,
    tag: 'winter',
    category: 'お知らせ',
    title: '冬の新景品が登場しました',
    body: 'もちもちうさぎの新しいぬいぐるみが登場しました。',
    img_url: '/api/images/info-1.svg',
    published_at: '2026-11-20T12:00:00+09:00',
    is_top_page: 1,
    is_pick_up: 0,
    ...overrides,
  };
}

export function aVirtualCrane(overrides: Partial<VirtualCrane> = {}): VirtualCrane {
  return {
    virtual_crane_id: 1,
    name: 'バーチャルクレーン ふわふわ',
    description: '景品をつかんでポイントを集めよう。',
    img_url: '/api/images/vc-1.svg',
    play_price: 50,
    new: 0,
    ...overrides,
  };
}

export function aNewArrival(overrides: Partial<NewArrival> = {}): NewArrival {
  return {
    name: 'もちもちうさぎ ミルク マスコット',
    release_date: '2026-11-20',
    img_url: '/api/images/arrival-1.svg',
    ...overrides,
  };
}

export function anIdentity(overrides: Partial<AuthIdentity> = {}): AuthIdentity {
  return { user_id: 42, access_token: 'test-access-token-0123456789', ...overrides };
}

export function anAddressRecord(overrides: Partial<AddressRecord> = {}): AddressRecord {
  return {
    id: 1,
    is_main: 1,
    first_name: '花子',
    last_name: '山田',
    zip: '150-0041',
    address1: '東京都',
    address2: '渋谷区神南1-2-3',
    address3: 'オンクレハイツ101',
    tel: '09012345678',
    email: '',
    lead_times: '',
    ...overrides,
  };
}

export function anAddressForm(overrides: Partial<AddressForm> = {}): AddressForm {
  return {
    id: 1,
    isMain: true,
    firstName: '花子',
    lastName: '山田',
    zip: '150-0041',
    address1: '東京都',
    address2: '渋谷区神南1-2-3',
    address3: 'オンクレハイツ101',
    tel: '09012345678',
    email: '',
    leadTimes: '',
    ...overrides,
  };
}

export function aProfile(overrides: Partial<Profile> = {}): Profile {
  return { sex: 2, birth: '1995-04-01', prefectures: '東京都', created_at: '2026-11-01 10:00:00', ...overrides };
}

export function aNicknameInfo(overrides: Partial<NicknameInfo> = {}): NicknameInfo {
  return { userId: 42, nickname: 'はなこ', isNicknameUnregistered: false, ...overrides };
}

export function aTcInfo(overrides: Partial<TcInfo> = {}): TcInfo {
  const tc_free = overrides.tc_free ?? 500;
  const tc_toll = overrides.tc_toll ?? 1000;
  return { tc_all: tc_free + tc_toll, tc_free, tc_toll, ...overrides };
}

export function aTicketInfo(overrides: Partial<TicketInfo> = {}): TicketInfo {
  return { ticket_all: 0, ...overrides };
}

export function anUnreadFlags(overrides: Partial<UnreadFlags> = {}): UnreadFlags {
  return { news: 0, prize: 0, kuji: 0, order_made_prize: 0, digital: 0, direct: 0, message: 0, ...overrides };
}

export function aLoginInfo(overrides: Partial<LoginInfo> = {}): LoginInfo {
  return {
    sound: 1,
    hide_character: 0,
    vip_level: 0,
    status: 1,
    is_sms: 0,
    notice_get: 1,
    play_info: { station_id: null, reserve_status: null },
    additional_list: { tutorial_top: 0, tutorial_play: 0 },
    modal_list: [],
    ...overrides,
  };
}

export function aUserData(overrides: Partial<UserData> = {}): UserData {
  return {
    auth_info: { user_id: 42, access_token: 'test-access-token-0123456789', agree_contract: 1 },
    login_info: aLoginInfo(),
    nickname_info: aNicknameInfo(),
    profile: aProfile(),
    tc_info: aTcInfo(),
    ticket_info: aTicketInfo(),
    crane_items: [],
    unread: anUnreadFlags(),
    email: 'hanako@example.jp',
    ...overrides,
  };
}

export function aPayMethodOption(overrides: Partial<PayMethodOption> = {}): PayMethodOption {
  return {
    id: 'credit_card',
    kind: 'credit_card',
    name: 'クレジットカード',
    info: '各種クレジットカードがご利用いただけます。',
    imgUrl: '/api/images/pay-credit-card.svg',
    rank_id: 0,
    ...overrides,
  };
}

export function aSettlement(overrides: Partial<Settlement> = {}): Settlement {
  return {
    productSettlementId: '00000000-0000-4000-8000-000000000001',
    productId: 1,
    payMethod: 'credit_card',
    price: 1000,
    tollTc: 1000,
    freeTc: 0,
    bonusTicket: 0,
    status: 'completed',
    createdAt: '2026-11-23T10:00:00+09:00',
    completedAt: '2026-11-23T10:00:01+09:00',
    expiresAt: '2026-11-23T10:30:00+09:00',
    paymentUrl: null,
    failureInfo: null,
    ...overrides,
  };
}

export function aWonPrize(overrides: Partial<WonPrize> = {}): WonPrize {
  return {
    play_history_id: 1,
    station_id: 1,
    prize_kind: 'crane',
    product_name: 'もちもちうさぎ ミルク BIGぬいぐるみ',
    kuji_name: '',
    prize_count: 1,
    add_delivery_days: 0,
    is_reservation_delivery: 0,
    won_at: '2026-11-22T20:00:00+09:00',
    delivery_status: 'not_requested',
    prize_type: 'normal',
    img_url: '',
    digital_url: '',
    keep_until: '2026-12-22T20:00:00+09:00',
    delivery_id: null,
    prize_contact_number: '',
    ...overrides,
  };
}

export function aPrizeDelivery(overrides: Partial<PrizeDelivery> = {}): PrizeDelivery {
  const { id: _id, is_main: _main, lead_times: _lead, ...address } = anAddressRecord();
  return {
    play_history_id: 1,
    delivery_status: 'not_requested',
    address,
    prize: aWonPrize(),
    unsent: { prize_contact_number: '', prize_shipmented_at: '-' },
    ...overrides,
  } as PrizeDelivery;
}

/** A station's stream settings: both cameras' feeds and default luminance. */
export function aStationInfo(overrides: Partial<StationInfo> = {}): StationInfo {
  return {
    watch_info: {
      webrtc_url: 'wss://media.onkure.invalid/signaling',
      webrtc_channel_front: 'st-0001-front',
      webrtc_channel_side: 'st-0001-side',
      motion_jpeg_front: '/api/stations/1/front.jpg',
      motion_jpeg_side: '/api/stations/1/side.jpg',
    },
    luminance_front: {},
    luminance_side: {},
    ...overrides,
  };
}

/** The use-cases' configuration: web, shop 1, jpg feed, no analytics ids. */
export function anAppConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    target: 'web',
    shopId: 1,
    topPageBaseUrl: '',
    yahooTopUrl: '/',
    feedMode: 'jpg',
    analyticsIds: { main: '', virtualCrane: '' },
    corporateUrl: 'https://corp.onkure.example/',
    ...overrides,
  };
}

/** The machine waiting for button ① at the start of a play. */
export function aMachineView(overrides: Partial<MachineView> = {}): MachineView {
  return {
    tick: 0,
    phase: 'ready',
    x: 80,
    z: 80,
    h: 0,
    grip: 0,
    button: 'right',
    button_ms_left: 15_000,
    ...overrides,
  };
}

/** One finished play of a player's play log (a win at 150 TC, two inputs). */
export function aPlayLogEntry(overrides: Partial<PlayLogEntry> = {}): PlayLogEntry {
  return {
    play_id: 1,
    station_id: 12,
    prize_name: 'もちもちうさぎ ぬいぐるみ',
    currency: 'tc',
    price: 150,
    base_arm_strength: 0.4,
    assist_level: 1,
    arm_strength: 0.46,
    seed: 12345,
    layout: [],
    inputs: [
      { tick: 3, button: 'right', command: 'press' },
      { tick: 20, button: 'right', command: 'release' },
    ],
    drop_at_tick: 40,
    result: 'win',
    started_at: '2026-11-24T01:00:00.000Z',
    ended_at: '2026-11-24T01:00:40.000Z',
    ...overrides,
  };
}

/** A play on a station's machine, just started (button ① waiting). */
export function aPlayView(overrides: Partial<PlayView> = {}): PlayView {
  return {
    play_id: 1,
    play_reserve_id: 1,
    station_id: 1,
    phase: 'playing',
    machine: aMachineView(),
    window_ms_left: null,
    grace_ms_left: null,
    result: null,
    won_prize_name: null,
    currency: 'tc',
    price: 150,
    arm_strength: 0.5,
    assist_level: 0,
    ...overrides,
  };
}

/** An empty assist gauge. */
export function anAssistGauge(overrides: Partial<AssistGaugeView> = {}): AssistGaugeView {
  return { misses: 0, level: 0, strength_bonus: 0, misses_to_next_level: 2, fill: 0, ...overrides };
}
