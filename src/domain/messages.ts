import { formatThousands } from './text/number-format';
import { VIP_PURCHASE_WINDOW_DAYS, VIP_REQUIRED_PURCHASE_TC, WEEK_START, type WeekStart } from './constants';
import { CARRIER_BILLING_MAX_PRICE } from './wallet/purchase.rule';
import { SPENDING_LIMIT_MAX_YEN, SPENDING_LIMIT_MIN_YEN } from './wallet/spending-limit.rule';

const WEEKDAY_NAMES = ['月', '火', '水', '木', '金', '土', '日'] as const;

/**
 * When the week starts, as players read it (the VIP prize count's reset [R6-4], the free-delivery
 * ticket [R10-6]): '毎週月曜0時', or in the long style '毎週月曜日0時'.
 */
export function weekStartText(style: 'short' | 'long' = 'short', start: WeekStart = WEEK_START): string {
  return `毎週${WEEKDAY_NAMES[start.weekday]}${style === 'long' ? '曜日' : '曜'}${start.hour}時`;
}

/**
 * Every text a player reads that a domain rule decides, in one place [R1-4]. Texts the spec quotes
 * are copied exactly; the others are ours, written as a Japanese shop would write them.
 */
export const DOMAIN_MESSAGES = {
  // Catalogue navigation (§2.3, §7)
  breadcrumbHome: 'ホーム',
  breadcrumbPrizeList: '景品一覧',
  /** 'prize' + 'list' in the page title [R7-13]. */
  titlePrize: '景品',
  titleList: '一覧',
  /** The online-crane-game title tag that ends every page title [R7-13]. */
  titleTag: 'オンラインクレーンゲーム オンクレ',
  titleSeparator: ' | ',
  /** A station's settings as players read them, and why they changed (docs/fair-play.md) [R11-6]. */
  settingsReasons: {
    adjustment: '定期調整',
    prize_change: '景品の入れ替え',
    restock: '景品の補充',
    repair: '故障の修理・点検',
    campaign: 'キャンペーン',
    assist: 'スタッフアシスト',
    other: 'その他',
  },
  settingsFields: {
    armStrength: 'アームパワー',
    playPrice: '1回の料金',
    prizeName: '景品',
    prizeShape: '景品の形',
    assistMisses: 'スタッフアシストまでのミス回数',
  },
  /** A wait in minutes and seconds (4分05秒; under a minute, 45秒). */
  minutesSeconds: (s: number) => (s >= 60 ? `${Math.floor(s / 60)}分${String(s % 60).padStart(2, '0')}秒` : `${s}秒`),
  /** A station's misses before a staff assist, as its settings history reads it [R11-9]. */
  assistMissesValue: (misses: number) => (misses === 0 ? 'なし' : `${misses}回`),
  /** Staff assist [R11-9]: how each end of an assist reads. */
  staffAssistOutcomes: {
    done: 'スタッフが景品の位置を直しました',
    declined: '今回はアシストできませんでした',
    lapsed: '時間内にスタッフが対応できませんでした',
    cancelled: 'プレイ終了のため取り消されました',
  },
  prizeShapes: { box: '箱', plush: 'ぬいぐるみ', capsule: 'カプセル' },
  /** The clip page's title and link preview (issue 44) [R11-5]. */
  clipTitle: (prize: string, won: boolean) => `「${prize}」${won ? 'ゲット' : 'チャレンジ'}の瞬間`,
  clipDescription: (station: string, prize: string, won: boolean, seconds: number) =>
    `${station}で「${prize}」に${won ? 'ゲット' : 'チャレンジ'}したプレイ動画（${seconds}秒）。`,
  /** Quoted by the spec in English [R2.1-5, R2.3-5]. */
  pageNotFound: 'Page Not Found',

  // VIP (§6, §8)
  vipOnlyTitle: 'こちらのステーションの閲覧・プレイはVIP対象のお客様限定です。',
  vipOnlyText: `VIP対象となるには、過去${VIP_PURCHASE_WINDOW_DAYS}日間に${formatThousands(VIP_REQUIRED_PURCHASE_TC)}TC以上のご購入が必要です。`,
  vipOnlyJoinButton: 'VIP対象になる',
  closeButton: 'とじる',
  vipWeeklyLimitTitle: '今週のVIP景品を獲得済みです',
  vipWeeklyLimitText: `VIP景品の獲得数は${weekStartText('long')}にリセットされます。`,
  vipExclusiveInUseTitle: '他のお客様がVIP独占台をプレイ中です',
  vipExclusiveInUseText: '景品一覧に戻ります。',

  // Reservation and kuji (§4.3, §4.4)
  reservedStationCancelled: '予約していたステーションの予約がキャンセルされました。',
  reservedStationMaintenance: 'ご予約のステーションがメンテナンス中になったため、予約をキャンセルしました。',
  kujiBoxEnded: 'このくじの販売は終了しました。',
  kujiReserveNotFound: 'くじの予約が見つかりませんでした。',

  // Errors and maintenance (§4.6, §8)
  reloadError: '通信エラーが発生しました。お手数ですが、ページを再読み込みしてください。',
  /** A guest pressed reserve on the play screen. */
  signInToPlay: 'プレイするにはログインしてください。',
  controlOffline: '通信が途切れています。つながり次第、もう一度ボタンを押してください。',
  /** A search with no results [R8-8]. */
  prizeNotFound: '条件に合う景品が見つかりませんでした。条件を変えてお試しください。',
  /** A fault ended a paid play before its result; its charge was refunded. */
  playRefunded: '台の不具合のためプレイを中止しました。消費したTCはお返ししています。',
  maintenanceTitle: 'ただいまメンテナンス中です',

  // Wallet (§9)
  bonusSuffix: 'ボーナス',
} as const;

/** Why a TC purchase is refused (the server's answers). */
export const PURCHASE_MESSAGES = {
  payMethodUnavailable: 'この支払い方法はご利用いただけません。',
  birthRequired: 'ご購入の前に生年月日を登録してください。',
  productNotFound: '商品が見つかりません。',
  settlementNotFound: '決済が見つかりません。',
  carrierBillingOverCap: `キャリア決済でご購入いただけるのは${formatThousands(CARRIER_BILLING_MAX_PRICE)}円以下の商品です。`,
  /** A minor would pass their monthly limit (both in yen). */
  minorMonthlyLimit: (limitYen: number, spentYen: number) =>
    `未成年のお客様のご購入は月${formatThousands(limitYen)}円までです（今月のご購入: ${formatThousands(spentYen)}円）。`,
  /** The player's own monthly limit would be passed [R10-3] (both in yen). */
  ownMonthlyLimit: (limitYen: number, spentYen: number) =>
    `ご自身で設定した月のご購入上限（${formatThousands(limitYen)}円）を超えるため購入できません（今月のご購入: ${formatThousands(spentYen)}円）。上限は「設定」から変更できます。`,
  spendingLimitRange: `上限は${formatThousands(SPENDING_LIMIT_MIN_YEN)}円から${formatThousands(SPENDING_LIMIT_MAX_YEN)}円の間で設定してください。`,
  /** Why a settlement failed or was cancelled, by its failure code. */
  failure: {
    card_declined: 'カードが承認されませんでした。別のカードをお試しいただくか、カード会社にお問い合わせください。',
    processing_error: '決済の処理中にエラーが発生しました。時間をおいてもう一度お試しください。',
    authentication_failed: '本人認証（3Dセキュア）に失敗しました。もう一度お試しください。',
    cancelled: 'お支払いはキャンセルされました。',
    expired: 'お支払いの有効期限が切れました。もう一度お手続きください。',
    provider_unavailable: '決済サービスに接続できませんでした。時間をおいてもう一度お試しください。',
    account_deleted: 'アカウントが削除されたため、お支払いは取り消されました。',
  },
  failureUnknown: '決済を完了できませんでした。',
  /** The provider sent the player back but the service has not heard how the payment ended. */
  stillPending:
    'お支払いの結果をまだ確認できていません。しばらくしてから「TC利用履歴」でご確認ください。お支払いが完了していればTCは自動で追加されます。',
} as const;

/** The Japanese reason a settlement failed or was cancelled, from its failure code. */
export function settlementFailureText(code: string | null): string {
  const known = PURCHASE_MESSAGES.failure as Record<string, string>;
  return (code !== null && known[code]) || PURCHASE_MESSAGES.failureUnknown;
}

/** Form validation messages (address and contact fields). `label` is the field's Japanese name. */
export const VALIDATION_MESSAGES = {
  required: (label: string) => `${label}を入力してください。`,
  tooLong: (label: string, max: number) => `${label}は${max}文字以内で入力してください。`,
  invalidCharacters: (label: string) => `${label}に使用できない文字が含まれています。`,
  zipFormat: '郵便番号は7桁の数字で入力してください（例：123-4567）。',
  telLength: '電話番号は10桁または11桁の数字で入力してください（例：090-1234-5678）。',
  telFormat: '電話番号は0から始まる国内の電話番号を入力してください（例：03-1234-5678）。',
  prefecture: '都道府県を選択してください。',
  emailFormat: 'メールアドレスの形式が正しくありません（例：onkure@example.com）。',
} as const;

/** Japanese names of the address form fields, used in validation messages. */
export const ADDRESS_FIELD_LABELS = {
  lastName: '姓',
  firstName: '名',
  zip: '郵便番号',
  address1: '都道府県',
  address2: '市区町村',
  address3: '番地・建物名',
  tel: '電話番号',
  email: 'メールアドレス',
} as const;

/** Which alert a decision asks the UI to show; the text is DOMAIN_MESSAGES[key]. */
export type AlertKey =
  'reservedStationCancelled' | 'reservedStationMaintenance' | 'reloadError' | 'kujiBoxEnded' | 'kujiReserveNotFound';
