/** The editorial contents around the catalogue: carousel slides, information (news) and new arrivals. */

/** A carousel slide; type_id 1 opens an information page, 2 a prize search, 3 a station. */
export interface CarouselSlide {
  readonly id: number;
  readonly title: string;
  readonly type_id: 1 | 2 | 3;
  readonly link: string;
  readonly pc_img_url: string;
  readonly sp_img_url: string;
}

/** A piece of information (news). */
export interface InformationItem {
  readonly id: number;
  readonly tag: string;
  readonly category: string;
  readonly title: string;
  readonly body: string;
  readonly img_url: string;
  readonly published_at: string;
  readonly is_top_page: 0 | 1;
  readonly is_pick_up: 0 | 1;
}

/** A new arrival of the public prize-store listing [R7-7]. */
export interface NewArrival {
  readonly name: string;
  /** YYYY-MM-DD, Japan time. */
  readonly release_date: string;
  readonly img_url: string;
}

/**
 * What an information tag looks like (the /information/{tag} route's validation rule, R2.1-5):
 * lower-case letters, digits and hyphens, 1–64 characters.
 */
export const INFORMATION_TAG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function isInformationTag(tag: string): boolean {
  return INFORMATION_TAG_PATTERN.test(tag);
}
