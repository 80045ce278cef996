/**
 * The history rows' links to a play's video [R11-5]: apart from the clip page's and the modal's texts
 * (clips.messages.ts), which the histories need not load.
 */
export const CLIP_LINK_MESSAGES = {
  watch: '動画',
  linkLabel: (text: string, prize: string) => `${text}（${prize}）`,
  recordingShort: '録画中',
  goneShort: '動画なし',
} as const;
