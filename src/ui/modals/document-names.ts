import type { DOCUMENT_NAMES_MESSAGES } from './document-names.messages';

/** The information modals of spec §2.5 whose content is our own text. */
export type DocumentModalName = keyof typeof DOCUMENT_NAMES_MESSAGES.titles;

/** The menu's guide group, in the order a player looks for them [R2.5-2]. */
export const GUIDE_MENU: readonly DocumentModalName[] = [
  'playMethod',
  'faq',
  'tag',
  'shippingCost',
  'profit',
  'usageRules',
  'tcRules',
  'legal',
  'privacy',
];

/** The footer's links: the documents a visitor expects at the bottom of every page [R2.5-2]. */
export const FOOTER_DOCUMENTS: readonly DocumentModalName[] = ['usageRules', 'tcRules', 'legal', 'privacy', 'faq'];
