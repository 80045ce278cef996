/**
 * The documents' names, apart from their text: the footer and the menu on every page need only
 * these, so the documents' bodies load with the modal that shows them.
 */
export const DOCUMENT_NAMES_MESSAGES = {
  /** Each modal's title: its heading and the dialog's accessible name. */
  titles: {
    faq: 'よくある質問',
    usageRules: '利用規約',
    tcRules: 'TC利用規約',
    legal: '特定商取引法に基づく表示',
    privacy: 'プライバシーポリシー',
    shippingCost: '送料について',
    profit: 'VIP特典',
    playMethod: '遊び方',
    tag: 'タグ一覧',
  },
  /** The menu's group of these modals. */
  guideMenu: 'ご利用ガイド',
  /** The footer's links. */
  footerNav: 'サービス情報',
} as const;
