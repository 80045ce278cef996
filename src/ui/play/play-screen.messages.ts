/**
 * The play screen's own texts that are not shared with the rest of the app (those live in
 * ../messages.ts): they load with the play screen's chunk only.
 */
export const PLAY_SCREEN_MESSAGES = {
  /** Opens the station's settings history (the dialog's texts: settings-history.messages.ts) [R11-6]. */
  settingsHistory: '設定の変更履歴',
  /** The result's way to the play's video (issue 44) [R11-5]. */
  resultClip: 'この動画を見る・共有する',
} as const;
