import {
  DELIVERY_FEE_TC,
  formatThousands,
  KUJI_PER_DELIVERY_PARCEL,
  PRIZE_STORAGE_DAYS,
  STORAGE_NOTICE_DAYS,
  weekStartText,
  type DeliveryGroup,
  type PrizeDeliveryStatus,
  type WonPrize,
} from '../../domain';

/** The numbers of the delivery rules that the texts state [R9-1, R10-5, R10-6]. */
export interface DeliveryRuleNumbers {
  readonly feeTc: number;
  readonly kujiPerParcel: number;
  readonly storageDays: number;
  readonly noticeDays: readonly number[];
  /** When the free-delivery ticket comes, as players read it ('毎週月曜0時'). */
  readonly weekStart: string;
}

/** The domain's delivery rules: what every text states unless a test gives other numbers. */
export const DELIVERY_RULE_NUMBERS: DeliveryRuleNumbers = {
  feeTc: DELIVERY_FEE_TC,
  kujiPerParcel: KUJI_PER_DELIVERY_PARCEL,
  storageDays: PRIZE_STORAGE_DAYS,
  noticeDays: STORAGE_NOTICE_DAYS,
  weekStart: weekStartText(),
};

const tc = (n: number): string => `${formatThousands(n)}TC`;

/** Japanese texts of the prize box, delivery and address modals. */
export const DELIVERY = {
  boxTitle: '景品BOX',
  signIn: '景品BOXを見るにはログインしてください。',
  tabsLabel: '景品の一覧',
  tabs: { before: '発送前', after: '依頼済み', invalid: '無効' } satisfies Record<DeliveryGroup, string>,
  empty: {
    before: '発送依頼できる景品はありません。プレイやくじで景品を獲得するとここに届きます。',
    after: '発送依頼済みの景品はありません。',
    invalid: '無効になった景品はありません。',
  } satisfies Record<DeliveryGroup, string>,
  wonAt: (at: string) => `獲得 ${at}`,
  fromKuji: (kind: string, kuji: string) => `${kind}「${kuji}」`,
  fromStation: (kind: string, stationId: number) => `${kind}（${stationId}番台）`,
  tracking: (number: string) => `お問い合わせ番号 ${number}`,
  kind: {
    crane: 'クレーン',
    kuji: 'くじ',
    order_made: 'オーダーメイド',
    virtual: 'バーチャルクレーン',
  } satisfies Record<WonPrize['prize_kind'], string>,
  digital: 'デジタル景品',
  direct: 'メーカー直送',
  reservation: '予約商品',
  kujiCount: (n: number) => `${n}個`,
  keepUntil: (date: string, days: number) => `保管期限 ${date}（あと${days}日）`,
  keepUntilSoon: '保管期限が近づいています',
  status: {
    not_requested: '未依頼',
    requested: '発送準備中',
    preparing: '梱包中',
    shipped: '発送済み',
    delivered: '配達完了',
    cancelled: 'キャンセル',
    returned: '返送',
    expired: '保管期限切れ',
  } satisfies Record<PrizeDeliveryStatus, string>,
  choose: (name: string) => `「${name}」を発送する景品に選ぶ`,
  chooseAll: 'すべて選ぶ',
  chooseNone: '選択を外す',
  chosen: (n: number) => `${n}件を選択中`,
  toRequest: '発送依頼へ進む',
  ticketHeld: '無料発送チケットを1枚持っています。クレーン景品を含む発送依頼が1回無料になります。',
  ticketNext: (date: string, n = DELIVERY_RULE_NUMBERS) =>
    `無料発送チケットは${n.weekStart}に届きます（次回 ${date}）。`,
  shortfall: (name: string, unsent: number, chosen: number) =>
    `「${name}」は未発送が${unsent}個ありますが、選んでいるのは${chosen}個です。残りは別の発送依頼になります。`,
  links: {
    history: '発送履歴',
    about: '配送について',
    addresses: 'お届け先住所',
    digital: 'デジタル景品',
    direct: 'メーカー直送景品',
    arrival: '入荷待ち景品',
  },
  retry: 'もう一度読み込む',

  // The request (delivery modal: request, done)
  requestTitle: '発送依頼',
  prizesHeading: (n: number) => `発送する景品（${n}件）`,
  noKuji: 'クレーン・オーダーメイド',
  addressHeading: 'お届け先',
  addressIncomplete: '住所が未入力のため選べません',
  noAddress: 'お届け先が登録されていません。登録してください。',
  addAddress: 'お届け先を追加',
  leadTimeLabel: 'お届け時間帯',
  leadTimeAny: '指定なし',
  feeHeading: '発送手数料',
  feeRule: (n = DELIVERY_RULE_NUMBERS) =>
    `クレーン・オーダーメイド景品は1個${tc(n.feeTc)}、くじ景品は${n.kujiPerParcel}個ごとに${tc(n.feeTc)}です。`,
  feeBase: (tc: string) => `通常 ${tc}TC`,
  feeWaived: '無料発送チケットを使うため 0TC',
  fee: (tc: string) => `${tc}TC`,
  balance: (tc: string) => `所持TC ${tc}TC`,
  balanceAfter: (tc: string) => `依頼後 ${tc}TC`,
  needTc: 'TCが足りません。TCを購入してから発送依頼してください。',
  buyTc: 'TCを購入',
  requote: '購入後の残高で確認する',
  confirm: (fee: number, tc: string) => (fee === 0 ? '無料で発送依頼する' : `${tc}TCで発送依頼する`),
  sending: '送信しています…',
  doneTitle: '発送依頼を受け付けました',
  doneBody: '発送の準備ができしだいお送りします。発送するとお問い合わせ番号をお知らせします。',
  donePaid: (tc: string) => `発送手数料 ${tc}TC をお支払いいただきました。`,
  doneWaived: '無料発送チケットを使いました（手数料 0TC）。',
  doneBalance: (tc: string) => `現在の所持TC ${tc}TC`,
  toHistory: '発送履歴を見る',

  // History, detail, change
  historyTitle: '発送履歴',
  historyEmpty: '発送依頼はまだありません。',
  requestedAt: (at: string) => `依頼 ${at}`,
  prizesSummary: (first: string, more: number) => (more > 0 ? `${first} ほか${more}件` : first),
  detailTitle: '発送依頼の詳細',
  /** Read after a history row's own text: what pressing it does. */
  detailOpen: '（詳細を見る）',
  trackingLabel: 'お問い合わせ番号',
  shippedAtLabel: '発送日時',
  statusLabel: '状態',
  feeLabel: '発送手数料',
  waivedLabel: '無料発送チケット使用',
  autoRequested: '保管期限が来たため自動で発送依頼しました。',
  cancelReason: (r: string) => `キャンセル理由: ${r}`,
  addDays: (n: number) => `発送まで+${n}日`,
  separator: ' ・',
  reservationNote: '入荷後に発送',
  change: 'お届け先・時間帯を変更',
  changeTitle: 'お届け先・時間帯の変更',
  changeSave: '変更を保存する',
  changed: '変更しました。',
  back: '戻る',

  // About
  aboutTitle: '配送について',
  about: (n = DELIVERY_RULE_NUMBERS): readonly string[] => [
    '獲得した景品は景品BOXに届きます。発送したい景品を選び、お届け先と時間帯を決めて発送依頼をしてください。',
    `クレーン・オーダーメイド景品の発送手数料は1個${tc(n.feeTc)}、くじ景品は${n.kujiPerParcel}個ごとに${tc(n.feeTc)}です。`,
    `無料発送チケットは${n.weekStart}に1枚届きます（持てるのは1枚まで）。クレーン景品を含む発送依頼が1回無料になります。`,
    `景品の保管期限は獲得から${n.storageDays}日です。期限の${n.noticeDays.map((days) => `${days}日前`).join('と')}にお知らせします。期限が来ると、メインのお届け先へ自動で発送依頼します（無料発送チケットかTCで手数料をお支払い）。どちらも足りないときは景品が無効になります。`,
    '発送するまでは、発送履歴からお届け先と時間帯を変更できます。発送後はお問い合わせ番号で配送状況を確認できます。',
    'メーカー直送の景品はメーカーから発送されるため、お届けまでの日数が異なります。予約商品は入荷後の発送です。',
  ],

  // Addresses (list, registration, change, delete check)
  addressesTitle: 'お届け先住所',
  addressesEmpty: 'お届け先はまだ登録されていません。',
  addressNew: '新しいお届け先を登録',
  registerTitle: 'お届け先の登録',
  editTitle: 'お届け先の変更',
  edit: (name: string) => `${name}様のお届け先を変更`,
  remove: (name: string) => `${name}様のお届け先を削除`,
  editShort: '変更',
  removeShort: '削除',
  main: 'メイン',
  makeMain: 'メインのお届け先にする',
  save: '保存する',
  saving: '保存しています…',
  deleteTitle: 'お届け先の削除',
  deleteAsk: 'このお届け先を削除しますか？',
  deleteMainNote: 'メインのお届け先を削除すると、いちばん古いお届け先がメインになります。',
  deleteConfirm: '削除する',
  cancel: 'やめる',
  honorific: (last: string, first: string) => `${last} ${first} 様`,
  zipPlaceholder: '例: 150-0001',
  zipFilled: '郵便番号から住所を入力しました。番地・建物名を続けて入力してください。',
  zipUnknown: 'この郵便番号の住所が見つかりません。都道府県と市区町村を入力してください。',
  prefectureChoose: '選択してください',
  emailOptional: 'メールアドレス（任意）',

  // Digital, direct, arrival
  kindTitle: { digital: 'デジタル景品', direct: 'メーカー直送景品', arrival: '入荷待ち景品' },
  kindLead: {
    digital: 'デジタル景品は発送せず、アプリの中でいつでも見られます。',
    direct: 'メーカーから直接お届けする景品です。発送依頼のあと、メーカーの発送日数がかかります。',
    arrival: '予約商品は入荷してから発送します。入荷予定の目安を表示しています。',
  },
  kindEmpty: {
    digital: 'デジタル景品はありません。',
    direct: 'メーカー直送の景品はありません。',
    arrival: '入荷待ちの景品はありません。',
  },
  viewDigital: (name: string) => `「${name}」を表示`,
  digitalAlt: (name: string) => `デジタル景品「${name}」`,
  directLead: (days: number) => `メーカー発送まで約${days}日`,
  arrivalDays: (days: number) => `入荷予定: 発送依頼から約${days}日`,
} as const;
