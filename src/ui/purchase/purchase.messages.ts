import { formatThousands, HOUR_MS, MINOR_MONTHLY_LIMITS, SPENDING_LIMIT_RAISE_DELAY_MS } from '../../domain';

/** The minors' monthly caps by age, as players read them: '16歳未満は月5,000円まで、16歳以上20歳未満は月10,000円まで'. */
export function minorCapsText(limits: readonly { readonly under: number; readonly yen: number }[]): string {
  return limits
    .map(({ under, yen }, i) => {
      const from = i === 0 ? '' : `${limits[i - 1]!.under}歳以上`;
      return `${from}${under}歳未満は月${formatThousands(yen)}円まで`;
    })
    .join('、');
}

/** The purchase modal's steps, the histories and the spending limit (issue 22). */
export const PURCHASE_MODAL = {
  title: 'TCを購入',
  topTitle: 'TCを購入する',
  iframeTitle: 'お支払い',
  iframeLabel: '決済サービスのお支払い画面',
  iframeLead: 'お支払い画面の案内に沿ってお手続きください。お支払いが終わると自動でこの画面に戻ります。',
  checking: 'お支払いの結果を確認しています…',
  completeTitle: 'ご購入ありがとうございます',
  completeTc: (tc: string) => `${tc} TCを追加しました`,
  completeSplit: (toll: string, free: string) => `（有償 ${toll} TC ＋ ボーナス ${free} TC）`,
  completeTickets: (n: string) => `チケット ${n}枚もプレゼントしました`,
  completeBalance: (all: string) => `現在の所持TC：${all} TC`,
  cancelTitle: 'お支払いをキャンセルしました',
  errorTitle: 'お支払いを完了できませんでした',
  backToTop: '購入画面に戻る',
  close: 'とじる',
  ageMinorNote: `未成年のお客様のご購入は、${minorCapsText(MINOR_MONTHLY_LIMITS)}です（日本時間の暦月ごと）。`,
  limitLine: (cap: string, remaining: string) => `今月のご購入上限：${cap}円（残り ${remaining}円）`,
  limitNone: '今月のご購入上限：なし',
  limitPending: (yen: string, at: string) => `上限の変更（${yen}）は ${at} から有効になります`,
  limitNoneWord: '上限なし',
  yen: (n: string) => `${n}円`,
  bonusTickets: (n: string) => `チケット${n}枚つき`,
  signInNote: 'TCの購入にはログインが必要です。',
  openPurchase: 'TCを購入する',
  buyTcFromAlert: 'TCを購入',
} as const;

export const HISTORY_MESSAGES = {
  tcTitle: 'TC利用履歴',
  tcEmpty: 'まだTCの利用履歴はありません。',
  tcColumns: { date: '日時', what: '内容', free: '無償TC', toll: '有償TC', after: '残高' },
  reasons: {
    purchase: 'TC購入',
    play: 'プレイ',
    kuji: 'オンラインくじ',
    refund: '返還',
    present_code: 'プレゼントコード',
    invite: '友達招待',
    delivery_fee: '配送料',
    debug_grant: '開発用の付与',
    admin: '運営からの付与',
    expiry: '有効期限切れ',
  } as Record<string, string>,
  /** A free credit's lot end, under its line [R11-7]. */
  freeUntil: (day: string) => `無償TCの期限 ${day}`,
  freeNoEnd: '無償TCの期限なし',
  freeLotsTitle: '有効期限のある無償TC',
  freeLotsHint: '無償TCは期限の近いものから使われ、その後に有償TCが使われます。有償TCに期限はありません。',
  freeLot: (amount: string, day: string) => `${amount}TC（${day} 24:00まで）`,
  freeLotNoEnd: (amount: string) => `${amount}TC（期限なし）`,
  reasonOther: 'その他',
  more: 'もっと見る',
  playTitle: 'プレイ履歴',
  playEmpty: 'まだプレイ履歴はありません。',
  station: (id: number) => `ステーション ${id}`,
  stationAt: (id: number, at: string) => `ステーション ${id}・${at}`,
  result: { win: '獲得', miss: '残念', refunded: '返還' } as Record<string, string>,
  charge: (amount: string, currency: string) => `${amount} ${currency === 'ticket' ? 'チケット' : 'TC'}`,
  free: '無料',
  dailyFree: '毎日無料プレイ',
  settingsLog: '設定ログ',
  settingsLogRows: {
    playId: 'プレイ番号',
    baseArm: 'アームの基本の強さ',
    assist: 'アシストレベル',
    arm: 'このプレイのアームの強さ',
    /** The station's published settings version the play ran with [R11-6]. */
    settingsVersion: '台の設定',
    settingsVersionValue: (n: number) => (n === 0 ? '初期設定' : `第${n}版`),
    /** The staff assist asked after the play [R11-9]. */
    staffAssist: 'スタッフアシスト',
    staffAssistValue: (misses: number, outcome: string) => `${misses}回続けて取れなかったあとに依頼：${outcome}`,
    staffAssistWaiting: '対応待ち',
    seed: '乱数シード',
    inputs: '操作の記録',
    inputsCount: (n: number) => `${n}件`,
    started: '開始',
    ended: '終了',
  },
  loadError: '履歴を読み込めませんでした。',
} as const;

export const SPENDING_LIMIT_MESSAGES = {
  title: '月のご購入上限',
  lead: `ひと月（日本時間の暦月）にTCを購入できる金額の上限を、ご自身で設定できます。下げた上限はすぐに、上げた上限や解除は${SPENDING_LIMIT_RAISE_DELAY_MS / HOUR_MS}時間後に有効になります。`,
  current: (yen: string) => `現在の上限：${yen}`,
  spent: (yen: string) => `今月のご購入：${yen}円`,
  minor: (yen: string) => `未成年のお客様の上限：月${yen}円（低いほうが適用されます）`,
  amountLabel: '上限金額（円）',
  save: '上限を設定する',
  remove: '上限を解除する',
  saved: 'ご購入上限を保存しました',
  signIn: 'ご購入上限の設定にはログインが必要です。',
} as const;
