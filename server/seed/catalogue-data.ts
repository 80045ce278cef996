import type { CreatureShape, Palette, PrizeKind } from './art';

/**
 * The demo catalogue: invented characters, their sub-characters and the prizes at each station.
 * Nothing here belongs to a real brand or an existing character.
 */
export interface SeedCharacter {
  readonly name: string;
  readonly slug: string;
  readonly shape: CreatureShape;
  readonly subs: readonly { readonly name: string; readonly slug: string; readonly palette: Palette }[];
}

export const SEED_CHARACTERS: readonly SeedCharacter[] = [
  {
    name: 'もちもちうさぎ',
    slug: 'mochiusa',
    shape: 'rabbit',
    subs: [
      {
        name: 'ミルク',
        slug: 'milk',
        palette: { body: '#fffaf3', accent: '#ffd6e0', background: '#ffe3ec', cheek: '#ff9fb5' },
      },
      {
        name: 'あんこ',
        slug: 'anko',
        palette: { body: '#b58b7a', accent: '#f3d9c9', background: '#f6e4d8', cheek: '#ff9f9f' },
      },
      {
        name: 'さくら',
        slug: 'sakura',
        palette: { body: '#ffd3e1', accent: '#fff0f5', background: '#fde2f3', cheek: '#ff7fa8' },
      },
    ],
  },
  {
    name: 'ねこまる',
    slug: 'nekomaru',
    shape: 'cat',
    subs: [
      {
        name: 'しろまる',
        slug: 'shiromaru',
        palette: { body: '#ffffff', accent: '#cfe8ff', background: '#e3f1ff', cheek: '#ffb3c1' },
      },
      {
        name: 'くろまる',
        slug: 'kuromaru',
        palette: { body: '#4a4453', accent: '#ffe08a', background: '#efe7ff', cheek: '#ff8fb0' },
      },
      {
        name: 'みけまる',
        slug: 'mikemaru',
        palette: { body: '#ffe2b8', accent: '#f7a35c', background: '#fff1dc', cheek: '#ff9f8a' },
      },
    ],
  },
  {
    name: 'ぱんだ日和',
    slug: 'pandabiyori',
    shape: 'panda',
    subs: [
      {
        name: 'こぱん',
        slug: 'kopan',
        palette: { body: '#ffffff', accent: '#b9e8c8', background: '#e2f7e8', cheek: '#ffb3c1' },
      },
      {
        name: 'おやぱん',
        slug: 'oyapan',
        palette: { body: '#f7f7f2', accent: '#ffd98a', background: '#fff6d9', cheek: '#ff9fb5' },
      },
    ],
  },
  {
    name: 'ほしくまくん',
    slug: 'hoshikuma',
    shape: 'bear',
    subs: [
      {
        name: 'ほしくま',
        slug: 'hoshi',
        palette: { body: '#f4c27a', accent: '#fff3c4', background: '#fff8e0', cheek: '#ff9f7a' },
      },
      {
        name: 'つきくま',
        slug: 'tsuki',
        palette: { body: '#8a93c9', accent: '#fff7b0', background: '#e4e7fb', cheek: '#ffb0c8' },
      },
    ],
  },
  {
    name: 'ペンギン郵便局',
    slug: 'pengin-yubin',
    shape: 'penguin',
    subs: [
      {
        name: 'ポスト',
        slug: 'post',
        palette: { body: '#3d5a80', accent: '#e63946', background: '#e0f0fb', cheek: '#ff9fb5' },
      },
      {
        name: 'こづつみ',
        slug: 'kozutsumi',
        palette: { body: '#5c6b73', accent: '#e9c46a', background: '#f1f6e9', cheek: '#ffa69e' },
      },
    ],
  },
  {
    name: 'おばけのぽわん',
    slug: 'powan',
    shape: 'ghost',
    subs: [
      {
        name: 'ぽわん',
        slug: 'powan',
        palette: { body: '#f7f5ff', accent: '#c8b6ff', background: '#ece6ff', cheek: '#ffb3d1' },
      },
      {
        name: 'ふわん',
        slug: 'fuwan',
        palette: { body: '#e8fbff', accent: '#9bf6ff', background: '#dcf7fb', cheek: '#ffc2d1' },
      },
    ],
  },
];

/** Each kind's label, genre, price and how it sits in the machine (the simulation's prize shape). */
export const PRIZE_KINDS: Readonly<
  Record<
    PrizeKind,
    {
      readonly label: string;
      readonly genre: string;
      readonly price: number;
      readonly shape: 'box' | 'plush' | 'capsule';
    }
  >
> = {
  big_plush: { label: 'BIGぬいぐるみ', genre: 'ぬいぐるみ', price: 200, shape: 'plush' },
  plush: { label: 'ぬいぐるみ', genre: 'ぬいぐるみ', price: 150, shape: 'plush' },
  mascot: { label: 'マスコットキーホルダー', genre: '雑貨', price: 100, shape: 'capsule' },
  cushion: { label: 'もちもちクッション', genre: 'ぬいぐるみ', price: 200, shape: 'plush' },
  acrylic: { label: 'アクリルスタンド', genre: '雑貨', price: 120, shape: 'box' },
  mug: { label: 'マグカップ', genre: '雑貨', price: 150, shape: 'box' },
  figure: { label: 'ちょこんとフィギュア', genre: 'フィギュア', price: 180, shape: 'box' },
  sweets: { label: 'クッキー缶', genre: 'お菓子', price: 100, shape: 'box' },
  blanket: { label: 'ふんわりブランケット', genre: '雑貨', price: 220, shape: 'plush' },
};

export interface SeedStation {
  readonly character: number;
  readonly sub: number;
  readonly kind: PrizeKind;
  readonly type?: 'normal' | 'vip' | 'exclusive';
  readonly designated?: 'normal' | 'practice' | 'point_ticket';
  readonly natia?: boolean;
  readonly recommend?: boolean;
  /** Days before the seed time this prize was released (new within 14 days). */
  readonly releasedDaysAgo: number;
  readonly stock?: number;
  readonly status?: 'open' | 'maintenance' | 'adjusting';
  readonly edition?: string;
}

/** 36 stations across every tab type: normal, VIP, exclusive, natia, practice, point ticket and new. */
export const SEED_STATIONS: readonly SeedStation[] = [
  { character: 0, sub: 0, kind: 'big_plush', recommend: true, releasedDaysAgo: 2 },
  { character: 0, sub: 1, kind: 'plush', releasedDaysAgo: 40 },
  { character: 0, sub: 2, kind: 'mascot', releasedDaysAgo: 5, natia: true },
  { character: 0, sub: 0, kind: 'cushion', type: 'vip', releasedDaysAgo: 20 },
  { character: 0, sub: 2, kind: 'acrylic', designated: 'practice', releasedDaysAgo: 90 },
  { character: 0, sub: 1, kind: 'sweets', releasedDaysAgo: 1, recommend: true },
  { character: 1, sub: 0, kind: 'big_plush', releasedDaysAgo: 3, recommend: true },
  { character: 1, sub: 1, kind: 'figure', type: 'exclusive', releasedDaysAgo: 8 },
  { character: 1, sub: 2, kind: 'plush', releasedDaysAgo: 60, stock: 2 },
  { character: 1, sub: 0, kind: 'mug', releasedDaysAgo: 30 },
  { character: 1, sub: 1, kind: 'mascot', designated: 'point_ticket', releasedDaysAgo: 12 },
  { character: 1, sub: 2, kind: 'blanket', type: 'vip', releasedDaysAgo: 4, edition: '限定カラー' },
  { character: 2, sub: 0, kind: 'plush', releasedDaysAgo: 6, natia: true },
  { character: 2, sub: 1, kind: 'big_plush', releasedDaysAgo: 45, recommend: true },
  { character: 2, sub: 0, kind: 'acrylic', releasedDaysAgo: 15 },
  { character: 2, sub: 1, kind: 'sweets', designated: 'practice', releasedDaysAgo: 100 },
  { character: 2, sub: 0, kind: 'cushion', releasedDaysAgo: 25, status: 'maintenance' },
  { character: 2, sub: 1, kind: 'figure', type: 'vip', releasedDaysAgo: 9 },
  { character: 3, sub: 0, kind: 'big_plush', releasedDaysAgo: 0, recommend: true },
  { character: 3, sub: 1, kind: 'plush', releasedDaysAgo: 33 },
  { character: 3, sub: 0, kind: 'mug', natia: true, releasedDaysAgo: 50 },
  { character: 3, sub: 1, kind: 'blanket', releasedDaysAgo: 18, stock: 1 },
  { character: 3, sub: 0, kind: 'figure', type: 'exclusive', releasedDaysAgo: 70 },
  { character: 3, sub: 1, kind: 'mascot', designated: 'point_ticket', releasedDaysAgo: 22 },
  { character: 4, sub: 0, kind: 'plush', releasedDaysAgo: 7, recommend: true },
  { character: 4, sub: 1, kind: 'cushion', releasedDaysAgo: 28 },
  { character: 4, sub: 0, kind: 'acrylic', type: 'vip', releasedDaysAgo: 35 },
  { character: 4, sub: 1, kind: 'sweets', releasedDaysAgo: 11, status: 'adjusting' },
  { character: 4, sub: 0, kind: 'mascot', designated: 'practice', releasedDaysAgo: 120 },
  { character: 4, sub: 1, kind: 'big_plush', natia: true, releasedDaysAgo: 13 },
  { character: 5, sub: 0, kind: 'big_plush', releasedDaysAgo: 10, recommend: true },
  { character: 5, sub: 1, kind: 'plush', releasedDaysAgo: 48 },
  { character: 5, sub: 0, kind: 'mug', releasedDaysAgo: 2 },
  { character: 5, sub: 1, kind: 'figure', releasedDaysAgo: 55, stock: 3 },
  { character: 5, sub: 0, kind: 'blanket', type: 'exclusive', releasedDaysAgo: 17 },
  { character: 5, sub: 1, kind: 'acrylic', releasedDaysAgo: 80 },
];

/** The catalogue tabs (§2.4) in display order; genre tabs come from the prize kinds' genres. */
export const SEED_TABS: readonly {
  readonly name: string;
  readonly slug: string;
  readonly kind: string;
  readonly genre?: string;
}[] = [
  { name: 'ホーム', slug: 'home', kind: 'home' },
  { name: 'すべて', slug: 'all', kind: 'all' },
  { name: '新着', slug: 'new', kind: 'new_face' },
  { name: 'バーチャルクレーン', slug: 'virtual', kind: 'virtual_crane' },
  { name: 'おすすめ', slug: 'recommend', kind: 'recommend' },
  { name: 'ぬいぐるみ', slug: 'plush', kind: 'genre', genre: 'ぬいぐるみ' },
  { name: 'フィギュア', slug: 'figure', kind: 'genre', genre: 'フィギュア' },
  { name: '雑貨', slug: 'goods', kind: 'genre', genre: '雑貨' },
  { name: 'お菓子', slug: 'sweets', kind: 'genre', genre: 'お菓子' },
  { name: '通常台', slug: 'normal', kind: 'type' },
  { name: 'VIP', slug: 'vip', kind: 'vip' },
  { name: 'VIP独占台', slug: 'exclusive', kind: 'exclusive' },
  { name: 'ナティア', slug: 'natia', kind: 'natia' },
  { name: '練習台', slug: 'practice', kind: 'practice' },
  { name: 'ポイントチケット景品', slug: 'point-ticket', kind: 'point_ticket' },
  { name: 'ギフト', slug: 'gift', kind: 'gift_type' },
];
