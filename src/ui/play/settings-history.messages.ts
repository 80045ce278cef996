/** The station's settings history dialog (docs/fair-play.md) [R11-6]. */
export const SETTINGS_HISTORY_MESSAGES = {
  title: '設定の変更履歴',
  lead: 'このマシンのアームパワー・料金・景品・スタッフアシストの設定の変更をすべて公開しています。プレイ中のお客さまがいる間の変更は、そのプレイが終わってから反映されます。',
  assistsTitle: 'スタッフアシストの記録',
  assistsLead: '決められた回数続けて取れなかったお客さまの依頼で、スタッフが対応した記録です。',
  assistAfter: (misses: number) => `${misses}回続けて取れなかったあとの依頼`,
  loading: '読み込み中…',
  empty: 'このマシンの設定はまだ変更されていません。',
  version: (n: number) => `設定 第${n}版`,
  current: '現在の設定',
  reason: (label: string) => `理由：${label}`,
  more: 'さらに表示',
  close: 'とじる',
} as const;
