/**
 * What a player reads about the account on every page (the header's sign-in links and new badge,
 * the profile prompt, the tutorials): apart from ACCOUNT, which the account's own screens load
 * with their code (issue 27), and part of it.
 */
export const ACCOUNT_SHELL = {
  signIn: 'ログイン',
  signUp: '新規登録',
  newBadge: 'NEW',
  newBadgeLabel: '未登録の項目があります',
  profilePromptTitle: 'プロフィールを登録しましょう',
  profilePromptLead: 'ニックネームとプロフィールを登録すると、すべての機能をお使いいただけます。',
  later: 'あとで',
  profileRegister: '登録する',
  tutorialNext: '次の説明へ',
  tutorialSkip: 'スキップ',
  tutorialDone: 'はじめる',
  tutorialStep: (n: number, of: number) => `${n} / ${of}`,
  tutorialTop: {
    title: 'オンクレへようこそ',
    steps: [
      '気になる景品を選ぶと、実際のクレーンゲーム台がライブ映像で見られます。',
      '「プレイする」で順番待ちの列に並び、順番が来たら遠隔で操作できます。',
      '獲得した景品は景品BOXに届き、まとめて自宅へ発送できます。',
    ],
  },
  tutorialPlay: {
    title: 'あそびかた',
    steps: [
      '正面と横のカメラを切り替えて、アームの位置を確かめましょう。',
      'ボタンを押している間アームが動きます。離すと止まります。',
      '時間内に操作しないと自動でアームが下ります。',
    ],
  },
} as const;
