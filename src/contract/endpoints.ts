/** Paths of the service calls (spec §7 plus the ones we designed, see docs/api.md), relative to the API base. */
export const ENDPOINTS = {
  // §7 table
  setHideCharacter: 'user/set_hide_character',
  setVolume: 'user/set_volume',
  getAddress: 'user/get_address',
  getEmail: 'user/get_email',
  getDelivery: 'user/get_delivery',
  item: 'user/item',
  tc: 'user/tc',
  ticket: 'user/ticket',
  readInfo: 'user/read_info',
  agree: 'user/agree',
  userAdditional: 'user/user_additional',
  movieDeleteToken: 'movie/delete_token',
  playing: 'contents/playing',
  prize: 'contents/prize',
  prizeV2: 'v2/contents/prize',
  kuji: 'contents/kuji',
  topPagePrize: 'contents/top_page_prize',
  carousel: 'contents/carousel',
  information: 'contents/information',
  getStartNews: 'contents/get_start_news',
  character: 'contents/character',
  virtualCraneList: 'virtualcrane/list',
  payMethodList: (userId: number) => `purchase/pay_method_list/${userId}`,
  mobileItems: (userId: number) => `mobile/items/${userId}`,
  getReserve: 'v2/play/get_reserve',
  reserveCancel: 'v2/play/reserve_cancel',
  visitCancel: 'v2/play/visit_cancel',
  kujiStatusCheck: 'play/kuji_status_check',
  kujiPolling: 'play/kuji_polling',
  kujiReserveCancel: 'play/kuji_reserve_cancel',
  // public listing (§7 "Also")
  newArrivals: 'store/new_arrivals',
  /** Designed (issue 45): every station's lobby numbers now; the top channel's `list` updates follow. */
  lobby: 'contents/lobby',
} as const;

/** Header that carries the access token on authenticated GET calls, which have no body. */
export const ACCESS_TOKEN_HEADER = 'X-Access-Token';

/** Default mount point of the API on the reference server. */
export const DEFAULT_API_PREFIX = '/api';
