import {
  formatThousands,
  MINUTE_MS,
  NEW_ARRIVALS_LIMIT,
  VERIFICATION_CODE_DIGITS,
  VERIFICATION_CODE_TTL_MS,
} from '../domain';
/** The storefront pages' Japanese text (information, top-page rows, account pages) [R1-4]. */
export const STOREFRONT = {
  informationTitle: 'お知らせ',
  informationList: 'お知らせ一覧',
  informationEmpty: 'お知らせはまだありません。',
  informationBack: 'お知らせ一覧へ戻る',
  informationLoadFailed: 'お知らせを読み込めませんでした。通信環境をご確認のうえ、もう一度お試しください。',
  publishedOn: (date: string) => `${date} 公開`,
  seeAll: 'すべて見る',
  carousel: 'ピックアップ',
  carouselPrevious: '前のピックアップ',
  carouselNext: '次のピックアップ',
  carouselSlide: (n: number, count: number) => `${n} / ${count}`,
  sideBanner: 'おすすめ',
  newUserTitle: 'はじめての方へ',
  newUserAlt: 'はじめての方へ：無料の練習台で遊び方をチェック',
  festival: '開催中のおまつり',
  festivalAlt: 'おまつりバナー',
  newArrivals: '新入荷（景品ストア）',
  arrivalItemsTitle: '新入荷景品',
  arrivalItemsLead: `景品ストアに新しく入荷した景品です（最新${NEW_ARRIVALS_LIMIT}件）。`,
  arrivalItemsEmpty: '新入荷の景品はまだありません。',
  releasedOn: (date: string) => `${date} 発売`,
  rowLoadFailed: '読み込めませんでした。',
} as const;

/** The e-mail verification page (/emailvalid). */
export const EMAIL_VALID = {
  title: 'メールアドレスの確認',
  lead: `アカウントを安全にご利用いただくため、メールアドレスの確認をお願いします。確認コードをお送りしますので、届いた${VERIFICATION_CODE_DIGITS}桁のコードを入力してください。`,
  send: '確認コードを送る',
  resend: '確認コードを再送する',
  sentTo: (email: string, until: string) => `${email} に確認コードを送りました（${until}まで有効）。`,
  sentAtSignUp: (email: string) =>
    `ご登録の ${email} に確認コードをお送りしました（${VERIFICATION_CODE_TTL_MS / MINUTE_MS}分有効）。`,
  sentToRegistered: (until: string) => `登録済みのメールアドレスに確認コードを送りました（${until}まで有効）。`,
  code: '確認コード',
  verify: '確認する',
  verified: (email: string) => `${email} の確認が完了しました。ありがとうございます。`,
  toTop: 'トップへ戻る',
  back: '元のページへ戻る',
  checking: '確認しています…',
} as const;

/** The TC purchase pages (/settlement, /purchase/{slug}, its result). */
export const PURCHASE_PAGE = {
  title: 'TCを購入する',
  balance: (all: string, free: string, toll: string) => `所持TC ${all}（無償 ${free}・有償 ${toll}）`,
  signIn: 'TCの購入にはログインが必要です。',
  ageTitle: '年齢の確認',
  ageLead:
    'はじめてのご購入の前に、生年月日をご登録ください。未成年のお客様は月ごとのご購入金額に上限があります。登録後の変更はできません。',
  birth: '生年月日',
  ageSubmit: '登録して次へ',
  methods: 'お支払い方法',
  products: '購入するTCを選んでください',
  price: (yen: string) => `${yen}円`,
  tcAmount: (tc: string) => `${tc} TC`,
  sale: 'セール',
  buy: '購入する',
  noProducts: 'このお支払い方法で購入できる商品はありません。',
  done: (tc: string) => `${tc} TCを購入しました。`,
  balanceAfter: (all: string) => `現在の所持TC：${all}`,
  again: '続けて購入する',
  toTop: 'トップへ戻る',
  accountTitle: '口座振替決済でのお支払い',
  accountLead: 'ご登録の銀行口座からお支払いいただきます。内容をご確認のうえ「支払う」を押してください。',
  accountPay: (yen: string) => `${yen}円を支払う`,
  accountBack: 'お支払い方法を選び直す',
  productNotFound: 'この商品は口座振替決済ではご購入いただけません。',
  resultTitle: 'お支払い結果',
  resultStatus: {
    pending: '決済の確認中です。しばらくしてから再度ご確認ください。',
    completed: 'お支払いが完了しました。',
    failed: 'お支払いに失敗しました。',
    cancelled: 'お支払いはキャンセルされました。',
  },
  resultDetail: (tc: string, yen: string) => `${tc} TC（${yen}円）`,
  resultNotFound: 'お支払い情報が見つかりません。',
} as const;

/** Notice toasts (3.5 s, R2.5-6). */
export const STOREFRONT_NOTICES = {
  settingsSaved: '設定を保存しました',
  settingsFailed: '設定を保存できませんでした。通信環境をご確認ください。',
} as const;

/** The storefront's modals: news, carousel, prize detail, title search. */
export const STOREFRONT_MODALS = {
  newsTitle: 'お知らせ',
  newsAll: 'お知らせ一覧ページへ',
  newsBack: 'お知らせにもどる',
  carouselTitle: 'ピックアップ一覧',
  prizeDetailTitle: '景品の詳細',
  prizeDetailOpen: (name: string) => `${name}の詳細`,
  details: '詳細',
  playThis: 'この台で遊ぶ',
  stationNoLabel: '台番号',
  priceLabel: '1回の料金',
  status: { normal: '遊べます', playing: 'プレイ中', maintenance: 'メンテナンス中' },
  designated: { normal: '通常台', practice: '練習台（無料）', point_ticket: 'ポイントチケット台' } as Record<
    string,
    string
  >,
  stationType: { normal: '通常', vip: 'VIP限定', exclusive: 'VIP独占' } as Record<string, string>,
  gotIt: '獲得済み',
  kindLine: (a: string, b: string) => `${a}・${b}`,
  titleSearch: 'くわしく検索',
  character: 'キャラクター',
  anyCharacter: 'すべてのキャラクター',
  category: 'カテゴリ',
  anyCategory: 'すべてのカテゴリ',
  stationTypeLabel: '台の種類',
  designatedLabel: 'プレイ方法',
  any: 'すべて',
  giftOnly: 'ギフト景品のみ',
  newOnly: '新着のみ',
  natiaOnly: 'ナティアのみ',
  vipOnly: 'VIP台のみ',
  exclusiveOnly: 'VIP独占台のみ',
  playableOnly: '今すぐ遊べる台のみ',
  showAll: 'すべて表示（ページ分けしない）',
  stationIds: '台番号（カンマ区切り）',
  stationIdsHint: '例：12, 15, 30',
  results: (n: number) => `検索結果 ${formatThousands(n)}件`,
  searchAgain: '条件を変える',
} as const;
