import { DOMAIN_MESSAGES, PURCHASE_MESSAGES, VALIDATION_MESSAGES } from '../domain';

/**
 * Every Japanese text of the wire contract [R1-4]: the error_info of a body the schemas refuse, the
 * field names those texts use, and the pay methods' names. The server answers these texts and the
 * client shows them, so they live once, here (or in the domain's messages where a rule decides them).
 */
export const CONTRACT_MESSAGES = {
  // Any field
  notString: (label: string) => `${label}を文字列で入力してください。`,
  required: VALIDATION_MESSAGES.required,
  tooLong: VALIDATION_MESSAGES.tooLong,
  tooLongPlain: (label: string) => `${label}が長すぎます。`,
  badInformationTag: 'お知らせの指定が正しくありません。',
  invalidCharacters: VALIDATION_MESSAGES.invalidCharacters,
  fieldInvalid: (label: string) => `「${label}」の内容が正しくありません。`,
  requestInvalid: 'リクエストの内容が正しくありません。',
  // Numbers and flags
  notNumber: '数値で指定してください。',
  notInteger: '整数で指定してください。',
  notPositive: '1以上の数値で指定してください。',
  numberTooLarge: '数値が大きすぎます。',
  flag01: '1 または 0 で指定してください。',
  // Account
  emailFormat: 'メールアドレスの形式が正しくありません。',
  emailTooLong: 'メールアドレスは254文字以内で入力してください。',
  leadTimes: 'お届け希望時間帯の値が正しくありません。',
  addressRequired: '住所を入力してください。',
  birthFormat: '生年月日はYYYY-MM-DDの形式で入力してください。',
  birthInvalid: '生年月日が正しくありません。',
  sexRequired: '性別を選択してください。',
  prefecture: VALIDATION_MESSAGES.prefecture,
  codeRequired: '認証コードを入力してください。',
  codeFormat: '認証コードは6桁の数字で入力してください。',
  presentCodeRequired: 'プレゼントコードを入力してください。',
  presentCodeFormat: 'プレゼントコードは半角英数字4〜20文字で入力してください。',
  agreeRequired: '利用規約への同意が必要です。',
  unknownSetting: '設定できない項目です。',
  // Sign-in
  passwordNotString: 'パスワードを文字列で入力してください。',
  passwordTooShort: 'パスワードは8文字以上で入力してください。',
  passwordTooLong: 'パスワードは128文字以内で入力してください。',
  passwordLettersAndDigits: 'パスワードには英字と数字を両方含めてください。',
  passwordRequired: 'パスワードを入力してください。',
  debugUserName: 'デバッグユーザー名は半角英小文字・数字20文字以内で入力してください。',
  // Purchase
  payMethodInvalid: '支払い方法が正しくありません。',
  requestIdInvalid: 'リクエストIDが正しくありません。',
  settlementIdInvalid: '決済IDが正しくありません。',
  spendingLimitInvalid: PURCHASE_MESSAGES.spendingLimitRange,
  // Delivery
  prizeChoice: '発送する景品を1つ以上選んでください。',
  prizeChoiceTooMany: (max: number) => `一度に発送できる景品は${max}個までです。`,
  leadTimeInvalid: 'お届け時間帯が正しくありません。',
  deliveryChangeEmpty: '変更する住所かお届け時間帯を指定してください。',
  trackingNumberInvalid: '追跡番号は半角英数字とハイフン4〜40文字で入力してください。',
  cancelReasonInvalid: 'キャンセル理由を1〜200文字で入力してください。',
  productNameInvalid: '景品名を1〜200文字で入力してください。',
  digitalUrlInvalid: 'デジタル景品のURLが正しくありません。',
  // Contents
  prizeLookupOne: 'ステーション・キャラクター・キーワードのどれか1つを指定してください。',
  startNewsKind: 'is_top_page か is_pick_up を指定してください',
  // Play (§8): the station-maintenance text is ours; the VIP texts are the spec's, from the domain.
  stationMaintenance: 'このステーションは現在メンテナンス中です。',
  vipOnly: DOMAIN_MESSAGES.vipOnlyTitle,
  vipWeeklyWon: DOMAIN_MESSAGES.vipWeeklyLimitTitle,
  exclusiveInUse: DOMAIN_MESSAGES.vipExclusiveInUseTitle,
} as const;

/** Japanese names of input fields, for error_info texts that name the field. */
export const FIELD_LABELS_JA: Readonly<Record<string, string>> = {
  user_id: 'ユーザーID',
  access_token: 'アクセストークン',
  id: 'ID',
  is_main: 'メイン住所',
  first_name: '名',
  last_name: '姓',
  zip: '郵便番号',
  address1: '都道府県',
  address2: '市区町村・番地',
  address3: '建物名・部屋番号',
  tel: '電話番号',
  email: 'メールアドレス',
  password: 'パスワード',
  code: '認証コード',
  nickname: 'ニックネーム',
  sex: '性別',
  birth: '生年月日',
  prefectures: '都道府県',
  play_history_id: '獲得履歴ID',
  product_id: '商品',
  pay_method: '支払い方法',
  request_id: 'リクエストID',
  character: 'キャラクター非表示設定',
  volume: '音量設定',
  additional_key: '設定項目',
  additional_value: '設定値',
  agree_contract: '利用規約への同意',
  type: '種類',
  product_settlement_id: '決済ID',
  name: '名前',
  shop_id: 'ショップ',
  is_top_page: 'トップページ指定',
  is_pick_up: 'ピックアップ指定',
  fes_id: 'フェス',
  station_id: 'ステーション',
  station_ids: 'ステーション',
  station_setting_id: 'ステーション設定',
  character_id: 'キャラクター',
  keyword: 'キーワード',
  prize: '検索条件',
  category_id: 'カテゴリ',
  station_type: '台の種類',
  designated_type: 'プレイ方法',
  natia: 'ナティア',
  vip: 'VIP',
  exclusive: '独占台',
  gift_type: 'ギフト種別',
  refine_search: '絞り込み',
  is_all: 'すべて表示',
  new: '新着',
  page: 'ページ',
  num: '件数',
  limit: '件数',
  reserve_token: '予約トークン',
  kuji_id: 'くじ',
  box_id: 'ボックス',
  count: '引く枚数',
  play_id: 'プレイ',
  button: 'ボタン',
  command: '操作',
  prize_name: '景品名',
  prize_shape: '景品の形',
  stock: '在庫数',
  arm_strength: 'アームの強さ',
  station_status: 'ステーションの状態',
};

/** Field names the address and profile schemas put in their texts (the address form's own labels). */
export const ADDRESS_INPUT_LABELS = {
  lastName: '姓',
  firstName: '名',
  zip: '郵便番号',
  address1: '都道府県',
  address2: '市区町村',
  address3: '番地・建物名',
  tel: '電話番号',
  email: 'メールアドレス',
  birth: '生年月日',
  nickname: 'ニックネーム',
} as const;

/**
 * Preferred delivery time slots an address may carry as lead_times ('' = any time). The domain
 * (src/domain/address) leaves the values to the service; these are the slots Japanese carriers offer.
 */
export const LEAD_TIMES = ['', '午前中', '14時〜16時', '16時〜18時', '18時〜20時', '19時〜21時'] as const;

/** The pay methods' names and descriptions, by id (generic names only, no provider brands). */
export const PAY_METHOD_TEXTS = {
  credit_card: { name: 'クレジットカード', info: '各種クレジットカードがご利用いただけます。' },
  credit_card_3ds: {
    name: '3Dセキュア対応クレジットカード',
    info: '本人認証（3Dセキュア）に対応したカードでお支払いいただけます。',
  },
  device_wallet: { name: 'デバイスウォレット', info: 'お使いの端末に登録済みのウォレットでお支払いいただけます。' },
  account_payment: { name: '口座振替決済', info: '銀行口座から直接お支払いいただけます。' },
  mobile_payment_a: { name: 'スマホ決済A', info: 'QRコード決済アプリでお支払いいただけます。' },
  mobile_payment_b: { name: 'スマホ決済B', info: 'QRコード決済アプリでお支払いいただけます。' },
  carrier_billing_a: { name: 'キャリア決済A', info: '携帯電話料金と合わせてお支払いいただけます。' },
  carrier_billing_b: { name: 'キャリア決済B', info: '携帯電話料金と合わせてお支払いいただけます。' },
  carrier_billing_c: { name: 'キャリア決済C', info: '携帯電話料金と合わせてお支払いいただけます。' },
  emoney_a: { name: '電子マネーA', info: 'プリペイド型電子マネーでお支払いいただけます。' },
  emoney_b: { name: '電子マネーB', info: 'プリペイド型電子マネーでお支払いいただけます。' },
} as const;
