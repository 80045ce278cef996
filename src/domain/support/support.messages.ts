import type { ContactCategory } from './support.entity';

/** The contact form's categories as the player reads them. */
export const CONTACT_CATEGORY_LABELS: Readonly<Record<ContactCategory, string>> = {
  play: 'プレイについて',
  prize: '景品について',
  delivery: '配送について',
  payment: 'TC購入・お支払いについて',
  account: 'アカウントについて',
  other: 'その他',
};
