import type { PrizeKind } from './art';

/**
 * Demo contents besides the stations: kuji with their boxes, carousel slides, information and
 * virtual cranes. Invented names only; pictures are drawn by art.ts.
 */

export interface SeedKujiPrize {
  readonly rank: string;
  readonly kind: PrizeKind;
  readonly label: string;
  readonly quantity: number;
  /** The last-one prize: no ticket, given with the box's last ticket. */
  readonly lastOne?: boolean;
}

export interface SeedKuji {
  readonly name: string;
  readonly description: string;
  /** Index into SEED_CHARACTERS. */
  readonly character: number;
  readonly price: number;
  readonly colors: readonly [string, string];
  readonly prizes: readonly SeedKujiPrize[];
  /** One entry per box: its status and how many of each prize are already drawn (0 = full box). */
  readonly boxes: readonly {
    readonly status: 'onSale' | 'ready' | 'endOfSale' | 'outOfStock' | 'deleted';
    readonly drawn?: number;
  }[];
}

const STANDARD_PRIZES: readonly SeedKujiPrize[] = [
  { rank: 'A賞', kind: 'big_plush', label: 'BIGぬいぐるみ', quantity: 1 },
  { rank: 'B賞', kind: 'cushion', label: 'もちもちクッション', quantity: 2 },
  { rank: 'C賞', kind: 'acrylic', label: 'アクリルスタンド', quantity: 6 },
  { rank: 'D賞', kind: 'mascot', label: 'マスコットキーホルダー', quantity: 12 },
  { rank: 'ラストワン賞', kind: 'figure', label: 'ちょこんとフィギュア', quantity: 1, lastOne: true },
];

export const SEED_KUJI: readonly SeedKuji[] = [
  {
    name: 'もちもちうさぎ ふわふわくじ',
    character: 0,
    price: 700,
    colors: ['#ff9fb5', '#ffd6e0'],
    description: 'ミルク・あんこ・さくらの3匹が大集合！ハズレなしのオンラインくじです。',
    prizes: STANDARD_PRIZES,
    boxes: [{ status: 'onSale', drawn: 3 }, { status: 'ready' }],
  },
  {
    name: 'ねこまる にゃんだふるくじ',
    character: 1,
    price: 800,
    colors: ['#6ec6ff', '#cfe8ff'],
    description: 'しろまる・くろまる・みけまるのにゃんだふるな景品がそろいました。',
    prizes: STANDARD_PRIZES,
    boxes: [{ status: 'onSale' }, { status: 'outOfStock', drawn: 1_000 }],
  },
  {
    name: 'ぱんだ日和 ささのはくじ',
    character: 2,
    price: 600,
    colors: ['#7ed6a5', '#e2f7e8'],
    description: 'こぱんとおやぱんののんびりグッズが当たります。',
    prizes: STANDARD_PRIZES.slice(0, 4),
    boxes: [{ status: 'endOfSale', drawn: 5 }, { status: 'onSale' }],
  },
  {
    name: 'ほしくまくん ほしぞらくじ',
    character: 3,
    price: 900,
    colors: ['#8a93c9', '#fff3c4'],
    description: '夜空をテーマにした限定デザインのくじです。',
    prizes: STANDARD_PRIZES,
    boxes: [{ status: 'onSale' }, { status: 'deleted' }],
  },
];

export interface SeedCarousel {
  readonly title: string;
  readonly subtitle: string;
  readonly typeId: 1 | 2 | 3;
  readonly link: string;
  readonly colors: readonly [string, string];
}

export const SEED_CAROUSELS: readonly SeedCarousel[] = [
  {
    title: 'オンクレ秋まつり開催中',
    subtitle: 'おまつり限定景品が勢ぞろい',
    typeId: 1,
    link: 'autumn-festival',
    colors: ['#ff7a7a', '#ffcf5c'],
  },
  {
    title: '新着景品ぞくぞく入荷中',
    subtitle: '毎週金曜日に新しい台が登場',
    typeId: 2,
    link: '新着',
    colors: ['#6ec6ff', '#a18cff'],
  },
  {
    title: 'はじめての方へ',
    subtitle: '無料の練習台で遊び方をチェック',
    typeId: 1,
    link: 'beginners-guide',
    colors: ['#7ed6a5', '#5fb7e5'],
  },
  {
    title: 'くじ新シリーズ登場',
    subtitle: 'ハズレなしのオンラインくじ',
    typeId: 1,
    link: 'kuji-new-series',
    colors: ['#ff9fb5', '#ffd6e0'],
  },
  {
    title: 'もちもちうさぎBIGぬいぐるみ',
    subtitle: '大人気の台がプレイできます',
    typeId: 3,
    link: '1',
    colors: ['#ffb56b', '#ff8fab'],
  },
];

/** Information categories and the title templates the generated notices rotate through. */
export const INFORMATION_TEMPLATES: readonly {
  readonly category: string;
  readonly title: (n: number) => string;
  readonly body: string;
}[] = [
  {
    category: '新景品',
    title: (n) => `新景品入荷のお知らせ（第${n}弾）`,
    body: '新しい景品が入荷しました。新着タブからぜひチェックしてください。',
  },
  {
    category: 'キャンペーン',
    title: (n) => `ポイント2倍キャンペーン第${n}回のお知らせ`,
    body: '対象のステーションでプレイするとポイントが2倍になります。期間中に遊んでみてください。',
  },
  {
    category: 'メンテナンス',
    title: (n) => `定期メンテナンスのお知らせ（${n}）`,
    body: 'メンテナンス中はプレイ・予約ができません。ご不便をおかけしますが、ご理解のほどよろしくお願いいたします。',
  },
  {
    category: 'お知らせ',
    title: (n) => `配送スケジュールについて（${n}）`,
    body: '景品の発送状況についてお知らせします。配送履歴からお届け予定をご確認いただけます。',
  },
  {
    category: 'くじ',
    title: (n) => `オンラインくじ新BOX追加のお知らせ（${n}）`,
    body: '人気のくじに新しいBOXを追加しました。くじ一覧からご確認ください。',
  },
];

/** The articles the carousel's information slides open (/information/{tag}), published a day ago. */
export const SEED_FEATURE_ARTICLES: readonly {
  readonly tag: string;
  readonly category: string;
  readonly title: string;
  readonly body: string;
}[] = [
  {
    tag: 'autumn-festival',
    category: 'キャンペーン',
    title: 'オンクレ秋まつり開催中！',
    body: '秋まつり限定の景品がそろう特設ステーションを公開しました。期間中は対象のステーションで獲得すると、もれなくおまつりポイントがもらえます。\nポイントは景品交換所で限定グッズと交換できます。この機会にぜひ遊んでみてください。',
  },
  {
    tag: 'beginners-guide',
    category: 'はじめての方へ',
    title: 'はじめての方へ：オンクレの遊び方',
    body: 'オンクレはスマートフォンやパソコンから本物のクレーンゲームを遊べるサービスです。\nまずは無料の練習台で、→ボタンと↑ボタンの操作に慣れてみましょう。獲得した景品はご自宅までお届けします。',
  },
  {
    tag: 'kuji-new-series',
    category: 'くじ',
    title: 'オンラインくじ新シリーズ登場',
    body: 'ハズレなしのオンラインくじに新シリーズが登場しました。最後の1枚を引いた方にはラストワン賞をプレゼントします。\nBOXごとの残り枚数はくじページでいつでも確認できます。',
  },
];

/** How many information items the demo shop has (more than one page of 100, to show paging). */
export const SEED_INFORMATION_COUNT = 120;

export const SEED_VIRTUAL_CRANES: readonly {
  readonly name: string;
  readonly description: string;
  readonly character: number;
  readonly kind: PrizeKind;
  readonly price: number;
  readonly releasedDaysAgo: number;
}[] = [
  {
    name: 'バーチャルもちもちキャッチャー',
    description: '画面の中で遊べるバーチャルクレーン。獲得するとポイントがもらえます。',
    character: 0,
    kind: 'plush',
    price: 0,
    releasedDaysAgo: 3,
  },
  {
    name: 'ねこまるバーチャル3本爪',
    description: '3本爪でねこまるをつかもう。',
    character: 1,
    kind: 'big_plush',
    price: 0,
    releasedDaysAgo: 30,
  },
  {
    name: 'ペンギン郵便局 バーチャルプッシャー',
    description: '小包をおしだすバーチャルプッシャーです。',
    character: 4,
    kind: 'sweets',
    price: 0,
    releasedDaysAgo: 8,
  },
  {
    name: 'ぽわんのバーチャル橋渡し',
    description: '橋渡し設定の練習にぴったり。',
    character: 5,
    kind: 'figure',
    price: 0,
    releasedDaysAgo: 60,
  },
];
