import { PAGE_ITEMS_COUNT, SIDE_BANNER_CAROUSEL_COUNT } from '../constants';

/** The carousels the side banner shows: the first 3 [R9-2]. */
export function sideBannerCarousels<T>(carousels: readonly T[]): readonly T[] {
  return carousels.slice(0, SIDE_BANNER_CAROUSEL_COUNT);
}

/** One page of an item list; page numbers start at 1 [R9-3]. */
export function pageOfItems<T>(items: readonly T[], page: number, pageSize: number = PAGE_ITEMS_COUNT): readonly T[] {
  if (!Number.isSafeInteger(page) || page < 1 || !Number.isSafeInteger(pageSize) || pageSize < 1) return [];
  return items.slice((page - 1) * pageSize, page * pageSize);
}
