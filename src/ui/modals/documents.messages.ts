import { DOCUMENT_NAMES_MESSAGES } from './document-names.messages';
import { formatThousands } from '../../domain';

/**
 * The Japanese text of the information modals (spec §2.5: FAQ, usage rules and TC rules, legal
 * display, privacy policy, shipping cost, profit, play method, tag). The content is our own; every
 * number a rule of the domain defines comes in as an argument, so the text never repeats it.
 */

/** A titled part of a document: paragraphs, then an optional list. */
export interface DocSection {
  readonly heading: string;
  readonly paragraphs?: readonly string[];
  readonly items?: readonly string[];
  /** The list is a sequence of steps. */
  readonly ordered?: boolean;
}

/** One row of a two-column table (label → value). */
export interface DocRow {
  readonly label: string;
  readonly value: string;
}

/** One question of the FAQ. */
export interface FaqItem {
  readonly question: string;
  readonly answer: string;
}

export interface FaqSection {
  readonly heading: string;
  readonly items: readonly FaqItem[];
}

/** The numbers the FAQ quotes, all from the domain. */
export interface FaqNumbers {
  readonly confirmSeconds: number;
  readonly buttonSeconds: number;
  readonly continueSeconds: number;
  readonly graceSeconds: number;
  readonly turnNearPlace: number;
  readonly deliveryFeeTc: number;
  readonly kujiPerParcel: number;
  readonly vipRequiredTc: number;
  readonly vipWindowDays: number;
  readonly vipWeeklyLimit: number;
  /** When the VIP prize count resets, as players read it ('毎週月曜日0時'). */
  readonly vipWeekStart: string;
}

/** The numbers the play method quotes, all from the domain. */
export interface PlayMethodNumbers {
  readonly confirmSeconds: number;
  readonly resetSeconds: number;
  readonly buttonSeconds: number;
  readonly continueSeconds: number;
  readonly graceSeconds: number;
  readonly turnNearPlace: number;
  readonly missesPerLevel: number;
  readonly bonusPercentPerLevel: number;
  readonly maxLevel: number;
  readonly maxBonusPercent: number;
}

const tc = (n: number): string => `${formatThousands(n)}TC`;

/** The weekly VIP prize limit and its reset (the FAQ and the VIP benefits say it alike) [R6-4]. */
const vipWeekly = (limit: number, weekStart: string): string =>
  `VIP景品の獲得は1週間に${limit}個までです。獲得数は${weekStart}（日本時間）にリセットされます。`;

/** The operator of the service (an invented company; the footer logo reads "onkure inc."). */
const COMPANY = {
  name: '株式会社オンクレ',
  representative: '代表取締役 小林 真一',
  address: '〒150-0002 東京都渋谷区渋谷9-9-9 オンクレビル5階',
  email: 'support@onkure.example',
  hours: '平日10:00〜18:00（土日祝日・年末年始を除く）',
} as const;

/** When a prize ships: quoted by the FAQ and the legal display alike. */
const SHIPPING_LEAD_TIME =
  '発送のご依頼から通常7営業日以内に発送します。予約商品・受注生産品は、景品ページに記載の時期に発送します。';
/** What happens to a damaged prize: quoted by the FAQ and the legal display alike. */
const DAMAGED_PRIZE =
  '景品に破損・初期不良・誤配送があった場合は、到着から7日以内にお問い合わせください。同じ景品との交換または再発送で対応します。交換できる景品がない場合は、その景品の獲得に使用したTCをお返しします。';
const ENACTED = '2025年4月1日 制定';

export const DOCUMENT_MESSAGES = {
  ...DOCUMENT_NAMES_MESSAGES,
  enacted: ENACTED,

  // ---- FAQ --------------------------------------------------------------------------------
  faqLead: '質問を選ぶと回答が表示されます。解決しない場合は、お問い合わせフォームからご連絡ください。',
  faq: (n: FaqNumbers): readonly FaqSection[] => [
    {
      heading: 'プレイについて',
      items: [
        {
          question: 'どうやって遊ぶのですか？',
          answer:
            '景品一覧から遊びたい台を選び、「予約する」を押してください。順番が来たら「プレイ開始」を押し、カメラの映像を見ながら「→」ボタンと「↑」ボタンでアームを動かします。くわしくはメニューの「遊び方」をご覧ください。',
        },
        {
          question: '1回のプレイにはいくらかかりますか？',
          answer:
            '台ごとに1回あたりのTCが表示されています。TCは「プレイ開始」を押したとき（「続けてプレイ」のときはその都度）に消費されます。練習台は無料、ポイントチケット台はチケット1枚で遊べます。',
        },
        {
          question: 'ボタンを押さずにいるとどうなりますか？',
          answer: `それぞれのボタンは${n.buttonSeconds}秒以内に押さないと自動で押され、アームが少しだけ動きます。`,
        },
        {
          question: 'プレイ中に通信が切れてしまいました。',
          answer: `ボタン操作の途中で接続が切れた場合、プレイは一時停止します。${n.graceSeconds}秒以内に同じ台の画面に戻れば、続きから遊べます。時間を過ぎるとアームはその位置で下降し、結果はそのまま記録されます。`,
        },
        {
          question: 'アシストゲージとは何ですか？',
          answer:
            '同じ台で続けてミスするとたまるゲージです。レベルが上がるほどアームの力が強くなり、景品を獲得すると空に戻ります。練習台では使われません。',
        },
      ],
    },
    {
      heading: '予約・順番待ちについて',
      items: [
        {
          question: 'ほかの人がプレイ中の台で遊びたいです。',
          answer: `「予約する」を押すと順番待ちの列に並べます。順番が${n.turnNearPlace}番目以内になるとお知らせします（ブラウザの通知を許可している場合は通知でもお知らせします）。`,
        },
        {
          question: '順番が来たことに気づきませんでした。',
          answer: `順番が来てから${n.confirmSeconds}秒以内に「プレイ開始」を押さないと、次のお客様に順番が移ります。この場合、TCは消費されません。もう一度遊ぶときは、あらためて予約してください。`,
        },
        {
          question: '予約をやめたいです。',
          answer:
            '順番待ちの間は「予約をキャンセル」でいつでもやめられます。「プレイ開始」を押したあと（TCの消費後）はキャンセルできません。',
        },
        {
          question: '続けて遊ぶことはできますか？',
          answer: `結果が出てから${n.continueSeconds}秒以内なら、「続けてプレイ」で列に並び直さずにもう一度遊べます。`,
        },
      ],
    },
    {
      heading: 'TCについて',
      items: [
        {
          question: 'TCとは何ですか？',
          answer:
            'オンクレで使えるコインです。ご購入いただいた「有償TC」と、購入ボーナスやキャンペーンなどでもらえる「無償TC」があります。',
        },
        {
          question: '有償TCと無償TCは、どちらから使われますか？',
          answer: '無償TCから先に使われ、足りない分に有償TCが使われます。',
        },
        {
          question: 'TCに有効期限はありますか？',
          answer:
            'TCに有効期限はありません。アカウントがある限り、有償TC・無償TCともに使えます。くわしくは「TC利用規約」をご覧ください。',
        },
        {
          question: '購入したTCを払い戻しできますか？',
          answer: '法令で定められた場合を除き、払い戻しはできません。ご購入の前に、金額をよくお確かめください。',
        },
      ],
    },
    {
      heading: '景品の配送について',
      items: [
        {
          question: '獲得した景品はどうやって受け取れますか？',
          answer:
            'メニューの獲得履歴から配送したい景品を選び、お届け先の住所を指定して発送をご依頼ください。お届け先は日本国内に限ります。',
        },
        {
          question: '送料はかかりますか？',
          answer: `クレーン景品とオーダーメイド景品は1個につき${tc(n.deliveryFeeTc)}、くじ景品は${n.kujiPerParcel}個ごとに${tc(n.deliveryFeeTc)}です。配送チケットをお持ちで、クレーン景品を含むご依頼は送料が無料になります。くわしくは「送料について」をご覧ください。`,
        },
        {
          question: '景品はいつ届きますか？',
          answer: `${SHIPPING_LEAD_TIME}発送後は、配送履歴で配送状況を確認できます。`,
        },
        { question: '届いた景品が壊れていました。', answer: DAMAGED_PRIZE },
      ],
    },
    {
      heading: 'VIPについて',
      items: [
        {
          question: 'VIPになるにはどうすればいいですか？',
          answer: `過去${n.vipWindowDays}日間の有償TCのご購入額が合計${tc(n.vipRequiredTc)}以上のお客様がVIP対象です。くわしくはメニューの「VIP特典」をご覧ください。`,
        },
        {
          question: 'VIP景品はいくつでも獲得できますか？',
          answer: vipWeekly(n.vipWeeklyLimit, n.vipWeekStart),
        },
      ],
    },
    {
      heading: '台の故障・メンテナンスについて',
      items: [
        {
          question: 'プレイ中に台が故障しました。使ったTCはどうなりますか？',
          answer:
            'プレイ中に台の故障やメンテナンスが発生した場合、そのプレイで消費したTCは自動的にお返しします。無償TC・有償TCは、消費したときと同じ内訳で戻ります。お手続きは必要ありません。',
        },
        {
          question: '予約していた台がメンテナンスになりました。',
          answer:
            '予約は自動的にキャンセルされ、画面でお知らせします。順番待ちの間はTCを消費していないため、TCは減りません。',
        },
        {
          question: '景品が落ちたのに獲得になりませんでした。',
          answer:
            '景品が取り出し口に落ちたときに獲得となります。判定に疑問がある場合は、プレイ履歴の日時を添えてお問い合わせください。すべてのプレイは記録されており、確認のうえご連絡します。',
        },
      ],
    },
  ],

  // ---- Usage rules --------------------------------------------------------------------------
  usageRules: [
    {
      heading: '第1条（適用）',
      paragraphs: [
        `この利用規約（以下「本規約」）は、${COMPANY.name}（以下「当社」）が提供するオンラインクレーンゲームサービス「オンクレ」（以下「本サービス」）の利用条件を定めるものです。お客様は、本規約に同意のうえ本サービスをご利用ください。`,
        'TCの取扱いは、本規約のほか「TC利用規約」に定めます。',
      ],
    },
    {
      heading: '第2条（アカウント）',
      items: [
        '登録情報は、正確かつ最新の内容でご登録ください。',
        'アカウントはご本人のみが利用できます。第三者への譲渡・貸与はできません。',
        'アカウントはお一人につき一つまでとします。',
        'ログイン情報の管理はお客様の責任で行ってください。',
      ],
    },
    {
      heading: '第3条（未成年のお客様）',
      paragraphs: [
        '未成年のお客様は、保護者の同意を得たうえで本サービスをご利用ください。有償TCのご購入には、必ず保護者の同意が必要です。年齢に応じて、1か月あたりのご購入額に上限を設けることがあります。',
      ],
    },
    {
      heading: '第4条（プレイ）',
      items: [
        '本サービスは、実際のクレーンゲーム機をライブ映像を見ながら遠隔で操作するサービスです。',
        '通信環境により、映像や操作に遅れが生じることがあります。',
        '台の中の景品の位置は、前のお客様のプレイの結果をそのまま引き継ぎます。',
        '景品が取り出し口に落ちたときに獲得となります。',
      ],
    },
    {
      heading: '第5条（景品の配送）',
      items: [
        '獲得した景品は、お届け先を登録して発送をご依頼ください。お届け先は日本国内に限ります。',
        '配送には「送料について」に定める送料（TC）がかかります。',
        'お届け先の誤りや長期不在などで景品が返送された場合、再発送には改めて送料がかかります。',
      ],
    },
    {
      heading: '第6条（禁止事項）',
      paragraphs: ['お客様は、本サービスの利用にあたり、次の行為をしてはなりません。'],
      items: [
        '法令または公序良俗に反する行為',
        '不正なツールやプログラムによる自動操作、またはそれに類する行為',
        '複数のアカウントを作成・利用する行為',
        '他人になりすます行為、または他人の決済手段を無断で使う行為',
        '本サービスの不具合を意図的に利用する行為',
        '営利を目的として、景品を転売するために獲得する行為',
        '当社、他のお客様または第三者に迷惑や不利益を与える行為',
        '本サービスの運営を妨げる行為',
      ],
    },
    {
      heading: '第7条（サービスの停止・変更）',
      paragraphs: [
        '当社は、台の点検・故障、システムの保守、天災その他やむを得ない事情があるときは、事前の告知なく本サービスの全部または一部を停止することがあります。プレイ中に停止した場合の取扱いは「TC利用規約」に定めます。',
      ],
    },
    {
      heading: '第8条（利用の制限・退会）',
      paragraphs: [
        '当社は、お客様が本規約に違反したときは、事前の告知なく本サービスの利用を制限し、またはアカウントを停止することがあります。',
        'お客様はいつでも退会できます。退会すると、お持ちのTC、チケット、未配送の景品はすべて失われます。',
      ],
    },
    {
      heading: '第9条（免責）',
      paragraphs: [
        '当社は、通信環境やお客様の端末に起因する損害について責任を負いません。ただし、当社の故意または重大な過失による場合、および消費者契約法その他の法令により当社の責任が認められる場合は、この限りではありません。',
      ],
    },
    {
      heading: '第10条（規約の変更）',
      paragraphs: [
        '当社は、民法の定めに従い本規約を変更することがあります。変更するときは、変更後の内容と効力が生じる日を、本サービス上で事前にお知らせします。',
      ],
    },
    {
      heading: '第11条（準拠法・管轄）',
      paragraphs: [
        '本規約は日本法に準拠します。本サービスに関して紛争が生じた場合は、東京地方裁判所を第一審の専属的合意管轄裁判所とします。',
      ],
    },
  ] satisfies readonly DocSection[],

  // ---- TC rules -----------------------------------------------------------------------------
  tcRules: [
    {
      heading: '第1条（目的）',
      paragraphs: [
        `このTC利用規約は、${COMPANY.name}（以下「当社」）が提供する「オンクレ」で使えるコイン「TC」の取扱いを定めるものです。ここに定めのない事項は、利用規約に従います。`,
      ],
    },
    {
      heading: '第2条（TCの種類）',
      items: [
        '有償TC：お客様が代金を支払って購入したTCです。1TCは1円（税込）です。',
        '無償TC：購入時のボーナス、キャンペーン、プレゼントコード、友だち招待などで、当社が無償で付与するTCです。',
      ],
    },
    {
      heading: '第3条（TCの使い方）',
      items: [
        'TCは、プレイ料金、くじ、景品の送料のお支払いに使えます。',
        'TCを使うときは、無償TCが先に使われ、無償TCで足りない分に有償TCが使われます。この順番は変更できません。',
        '有償TC・無償TCそれぞれの残高と履歴は、メニューの「TC利用履歴」で確認できます。',
      ],
    },
    {
      heading: '第4条（有効期限）',
      paragraphs: [
        'TCに有効期限はありません。アカウントを削除したとき、および利用規約にもとづきアカウントを停止したときは、その時点の残高は失効します。',
      ],
    },
    {
      heading: '第5条（払い戻し）',
      items: [
        'TCは、法令に定める場合を除き、払い戻し（換金）できません。',
        '当社が本サービスを終了する場合など、資金決済に関する法律にもとづき払い戻しが必要なときは、有償TCの未使用残高を同法に定める方法でお返しします。無償TCは払い戻しの対象になりません。',
        '台の故障やメンテナンスによりプレイが成立しなかったときは、そのプレイで消費したTCを、消費したときと同じ内訳（無償TC・有償TC）でお返しします。',
      ],
    },
    {
      heading: '第6条（禁止事項）',
      paragraphs: [
        'TCの譲渡・売買・貸し借り、および不正な方法によるTCの取得を禁止します。不正に取得されたTCは、当社の判断で取り消すことがあります。',
      ],
    },
    {
      heading: '第7条（退会したとき）',
      paragraphs: ['退会すると、お持ちのTCはすべて失効します。'],
    },
  ],
  tcDisclosureHeading: '資金決済法に基づく表示',
  tcDisclosure: [
    { label: '発行者', value: COMPANY.name },
    { label: '支払可能金額等', value: '有償TC 1TCにつき1円（税込）' },
    { label: '有効期間', value: '有効期限はありません' },
    { label: 'お問い合わせ先', value: `${COMPANY.email}（${COMPANY.hours}）` },
    { label: '使用できる場所', value: '当社が提供する「オンクレ」のサービス内' },
    { label: '利用上の注意', value: '有償TCは、法令に定める場合を除き払い戻しできません。' },
    { label: '未使用残高の確認方法', value: 'メニューの「TC利用履歴」で確認できます。' },
    { label: '利用規約', value: 'TC利用規約（本ページ）' },
  ],

  // ---- Legal display ------------------------------------------------------------------------
  legalLead: '特定商取引法にもとづき、次のとおり表示します。',
  legal: (n: { readonly deliveryFeeTc: number }): readonly DocRow[] => [
    { label: '販売事業者', value: COMPANY.name },
    { label: '運営統括責任者', value: COMPANY.representative },
    { label: '所在地', value: COMPANY.address },
    {
      label: '電話番号',
      value: 'ご請求があった場合は、遅滞なく開示します。お問い合わせはメールまたはお問い合わせフォームでお願いします。',
    },
    { label: 'メールアドレス', value: COMPANY.email },
    { label: '受付時間', value: COMPANY.hours },
    { label: '販売価格', value: '各商品の購入画面に表示する価格（税込）です。有償TCは1TCあたり1円（税込）です。' },
    {
      label: '商品代金以外の必要料金',
      value: `本サービスの閲覧・プレイに必要なインターネット接続料金・通信料金はお客様のご負担です。景品の配送には送料（1個あたり${tc(n.deliveryFeeTc)}など。「送料について」をご覧ください）がかかります。`,
    },
    {
      label: 'お支払い方法',
      value:
        'クレジットカード（3Dセキュア対応）、ウォレット決済、口座連携決済、スマホ決済、キャリア決済、電子マネー。ご利用いただける方法は、端末やご利用環境によって異なります。',
    },
    {
      label: 'お支払い時期',
      value: 'ご購入手続きの完了時にお支払いが確定します。実際の引き落とし日は、各決済事業者の定めによります。',
    },
    { label: '商品の引渡時期', value: `TC・チケット：決済完了後すぐに付与します。景品：${SHIPPING_LEAD_TIME}` },
    {
      label: '返品・キャンセル',
      value: `デジタルコンテンツ（TC・チケット）の性質上、ご購入後の返品・キャンセルはお受けできません。${DAMAGED_PRIZE}`,
    },
    { label: '動作環境', value: '各OS・ブラウザの最新版でのご利用をおすすめします。' },
  ],

  // ---- Privacy policy -----------------------------------------------------------------------
  privacyLead: `${COMPANY.name}（以下「当社」）は、「オンクレ」をご利用のお客様の個人情報を、次のとおり取り扱います。`,
  privacy: [
    {
      heading: '1. 取得する情報',
      items: [
        '登録情報：ニックネーム、メールアドレス、電話番号、生年月日、性別、お住まいの都道府県',
        '景品のお届け先：お名前、住所、電話番号',
        'ご利用の記録：TCの購入・利用、プレイ、くじ、景品の配送の履歴',
        '端末やアクセスの情報：端末の種類、OS、ブラウザ、IPアドレス、Cookie、アクセスログ',
      ],
    },
    {
      heading: '2. 利用目的',
      items: [
        '本サービスの提供（ログイン、プレイ、TCの購入、景品の発送など）',
        'ご本人の確認、年齢の確認',
        'お問い合わせへの対応',
        '不正な利用の防止と調査',
        '本サービスの改善、新しい機能の開発、統計の作成',
        'お知らせやキャンペーンのご案内',
      ],
    },
    {
      heading: '3. 第三者への提供',
      paragraphs: ['当社は、ご本人の同意がある場合、または法令にもとづく場合を除き、個人情報を第三者に提供しません。'],
    },
    {
      heading: '4. 業務の委託',
      paragraphs: [
        '景品の発送や決済など、業務の一部を外部の事業者に委託することがあります。その場合は委託先を適切に選び、必要な範囲に限って個人情報を預け、適切に管理するよう監督します。',
      ],
    },
    {
      heading: '5. アクセス解析とCookie',
      paragraphs: [
        '本サービスの利用状況を把握するため、外部のアクセス解析サービスを利用し、Cookieを使って個人を特定しない形で閲覧の情報を収集しています。Cookieはブラウザの設定で無効にできますが、一部の機能が使えなくなることがあります。',
      ],
    },
    {
      heading: '6. 安全管理',
      paragraphs: [
        '個人情報への不正なアクセス、紛失、漏えいなどを防ぐため、通信の暗号化やアクセスの制限など、必要かつ適切な安全管理措置を講じます。',
      ],
    },
    {
      heading: '7. 開示・訂正・利用停止などのご請求',
      paragraphs: [
        'ご本人から、保有する個人情報の開示、訂正、追加、削除、利用停止などのご請求があった場合は、ご本人であることを確認したうえで、法令に従い遅滞なく対応します。',
      ],
    },
    {
      heading: '8. 未成年のお客様',
      paragraphs: ['未成年のお客様は、保護者の同意を得たうえで個人情報をご登録ください。'],
    },
    {
      heading: '9. 改定',
      paragraphs: [
        '本ポリシーは、法令の変更などに応じて改定することがあります。重要な変更は、本サービス上でお知らせします。',
      ],
    },
    {
      heading: '10. お問い合わせ窓口',
      paragraphs: [`${COMPANY.name} 個人情報保護担当`, `メール：${COMPANY.email}`, `受付時間：${COMPANY.hours}`],
    },
  ] satisfies readonly DocSection[],

  // ---- Shipping cost ------------------------------------------------------------------------
  shippingRulesHeading: '送料のきまり',
  shippingRules: (n: { readonly deliveryFeeTc: number; readonly kujiPerParcel: number }): readonly string[] => [
    `クレーン景品・オーダーメイド景品：1個につき${tc(n.deliveryFeeTc)}`,
    `くじ景品：${n.kujiPerParcel}個までごとに${tc(n.deliveryFeeTc)}（くじ景品の数÷${n.kujiPerParcel}を切り上げた数×${tc(n.deliveryFeeTc)}）`,
    '1回のご依頼に含まれるくじ景品は、まとめて数えます。',
    '送料はTCでお支払いいただきます（無償TCから先に使われます）。',
  ],
  shippingTicketHeading: '配送チケット',
  shippingTicket:
    '配送チケットをお持ちで、ご依頼にクレーン景品が1個以上含まれる場合は、そのご依頼の送料が無料になります。くじ景品やオーダーメイド景品だけのご依頼は対象外です。',
  shippingExamplesHeading: '送料の例',
  shippingExamplesCaption: '1回のご依頼あたりの送料',
  shippingColumnPrizes: '配送する景品',
  shippingColumnTicket: '配送チケット',
  shippingColumnFee: '送料',
  shippingWithTicket: 'あり',
  shippingWithoutTicket: 'なし',
  shippingCrane: (count: number) => `クレーン景品${count}個`,
  shippingOrderMade: (count: number) => `オーダーメイド景品${count}個`,
  shippingKuji: (count: number) => `くじ景品${count}個`,
  shippingJoin: '＋',
  shippingFee: (feeTc: number) => tc(feeTc),
  shippingFree: (baseTc: number) => `0TC（通常${tc(baseTc)}が無料）`,

  // ---- Profit (VIP) -------------------------------------------------------------------------
  profitLead: 'VIPは、オンクレをたくさん楽しんでくださるお客様のための特別なステータスです。',
  profitConditionHeading: 'VIPになる条件',
  profitCondition: (n: { readonly requiredTc: number; readonly windowDays: number }) =>
    `過去${n.windowDays}日間の有償TCのご購入額が、合計${tc(n.requiredTc)}以上であること。`,
  profitConditionNotes: (n: { readonly windowDays: number }): readonly string[] => [
    '購入ボーナスなどの無償TCは含みません。',
    `条件は毎回、その時点からさかのぼって${n.windowDays}日間のご購入額で判定します。ご購入額が条件を下回ると、VIP対象外になります。`,
  ],
  profitBenefitsHeading: 'VIPの特典',
  profitBenefits: [
    'VIP限定台を閲覧・プレイできます。',
    'VIP独占台をプレイできます。プレイ中はほかのお客様が入れないため、じっくり遊べます。',
    'VIP景品を獲得できます。',
    'ヘッダーにVIP専用のロゴが表示されます。',
  ],
  profitWeeklyHeading: 'VIP景品の獲得数',
  profitWeekly: (n: { readonly weeklyLimit: number; readonly weekStart: string }) =>
    vipWeekly(n.weeklyLimit, n.weekStart),

  // ---- Play method --------------------------------------------------------------------------
  playFlowHeading: '遊びかたの流れ',
  playFlow: (n: PlayMethodNumbers): readonly string[] => [
    '景品一覧から遊びたい台を選びます。',
    `「予約する」を押して順番を待ちます。順番が${n.turnNearPlace}番目以内になるとお知らせします。`,
    `順番が来たら、${n.confirmSeconds}秒以内に「プレイ開始」を押します。ここでTCが消費されます。`,
    `アームの準備（約${n.resetSeconds}秒）のあと、ボタン操作のスタートです。`,
    `結果が出たら、${n.continueSeconds}秒以内なら「続けてプレイ」でもう一度遊べます。`,
  ],
  playButtonsHeading: 'ボタンの操作',
  playButtons: (n: PlayMethodNumbers): readonly string[] => [
    '「→」ボタン：押している間、アームが右へ動きます。離すと止まります。',
    '「↑」ボタン：押している間、アームが奥へ動きます。離すとアームが下がり、景品をつかみにいきます。',
    'ボタンは「→」「↑」の順に、それぞれ1回ずつ押せます。一度離したボタンは押し直せません。',
    `それぞれのボタンは${n.buttonSeconds}秒以内に押さないと自動で押され、アームが少しだけ動きます。`,
    'アームが端まで動いたときは、ボタンを離したのと同じ扱いになります。',
    'パソコンでは、キーボードの→キーと↑キーでも操作できます。',
  ],
  playCameraHeading: 'カメラ',
  playCamera:
    '正面カメラと側面カメラを切り替えて、アームと景品の位置を確かめましょう。奥行きは側面カメラで見るのがコツです。',
  playAssistHeading: 'アシストゲージ',
  playAssist: (n: PlayMethodNumbers) =>
    `同じ台で続けてミスすると、ゲージがたまります。${n.missesPerLevel}回ミスするごとにレベルが1つ上がり、アームパワーが+${n.bonusPercentPerLevel}%ずつ強くなります（最大レベル${n.maxLevel}・+${n.maxBonusPercent}%）。景品を獲得するとゲージは空に戻ります。練習台では使われません。`,
  playTimesHeading: '時間のめやす',
  playTimesCaption: 'プレイ中の時間制限',
  playTimes: (n: PlayMethodNumbers): readonly DocRow[] => [
    { label: '順番が来てから「プレイ開始」を押すまで', value: `${n.confirmSeconds}秒` },
    { label: 'ボタンが自動で押されるまで（各ボタン）', value: `${n.buttonSeconds}秒` },
    { label: '「続けてプレイ」を受け付ける時間', value: `${n.continueSeconds}秒` },
    { label: '通信が切れたとき、続きから遊べる時間', value: `${n.graceSeconds}秒` },
  ],

  // ---- Tag ----------------------------------------------------------------------------------
  tagLead: 'カテゴリやキャラクターを選ぶと、その景品の一覧を表示します。',
  tagTabs: 'カテゴリ',
  tagCharacters: 'キャラクター',
  tagEmpty: 'まだタグがありません。',
  tagLoading: '読み込み中…',
  tagFailed: 'タグを読み込めませんでした。通信環境をご確認のうえ、もう一度お試しください。',
  tagRetry: 'もう一度読み込む',
} as const;
