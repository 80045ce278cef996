import type { BuildTarget } from '../build-target';
import { TAB_KINDS, type TabKind, type TabListItem } from './prize.entity';

/**
 * The catalogue tab kinds [R2.4-1]: home, all, new-face, virtual crane, genre tabs, type tabs, VIP,
 * exclusive, natia, recommend, practice, point-ticket prize, gift type.
 */
export const CATALOGUE_TAB_KINDS: readonly TabKind[] = TAB_KINDS;

/** Who is looking at the tabs. */
export interface TabViewer {
  readonly signedIn: boolean;
  readonly target: BuildTarget;
  readonly hasSearchFilter: boolean;
}

/** The virtual-crane tab shows only to logged-in users, not on yahoo, with no search filter [R2.4-2]. */
export function isVirtualCraneTabVisible(viewer: TabViewer): boolean {
  return viewer.signedIn && viewer.target !== 'yahoo' && !viewer.hasSearchFilter;
}

/** The tabs to show, in the order given, without the virtual crane where it is hidden [R2.4-2]. */
export function visibleTabs<T extends Pick<TabListItem, 'tab_kind'>>(
  tabs: readonly T[],
  viewer: TabViewer,
): readonly T[] {
  const showVirtual = isVirtualCraneTabVisible(viewer);
  return tabs.filter((t) => t.tab_kind !== 'virtual_crane' || showVirtual);
}
