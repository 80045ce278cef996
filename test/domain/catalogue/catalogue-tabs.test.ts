import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUILD_TARGETS,
  CATALOGUE_TAB_KINDS,
  EMPTY_SEARCH_PARAMS,
  hasActiveSearchFilter,
  isVirtualCraneTabVisible,
  pageTitle,
  visibleTabs,
  type TabListItem,
} from '../../../src/domain';

describe('catalogue tabs', () => {
  it('[R2.4-2] the virtual-crane tab shows only to logged-in users, off yahoo, with no search filter', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.constantFrom(...BUILD_TARGETS),
        fc.boolean(),
        (signedIn, target, hasSearchFilter) => {
          const expected = signedIn && target !== 'yahoo' && !hasSearchFilter;
          expect(isVirtualCraneTabVisible({ signedIn, target, hasSearchFilter })).toBe(expected);
          const tabs: TabListItem[] = CATALOGUE_TAB_KINDS.map((tab_kind, i) => ({
            tab_id: i,
            tab_name: tab_kind,
            tab_slug: tab_kind,
            tab_kind,
          }));
          const shown = visibleTabs(tabs, { signedIn, target, hasSearchFilter });
          expect(shown.some((t) => t.tab_kind === 'virtual_crane')).toBe(expected);
          expect(shown.filter((t) => t.tab_kind !== 'virtual_crane')).toEqual(
            tabs.filter((t) => t.tab_kind !== 'virtual_crane'),
          );
        },
      ),
    );
  });

  it('[R2.4-2] a search filter is any search param set, except is_all', () => {
    expect(hasActiveSearchFilter(EMPTY_SEARCH_PARAMS)).toBe(false);
    expect(hasActiveSearchFilter({ ...EMPTY_SEARCH_PARAMS, is_all: 1 })).toBe(false);
    expect(hasActiveSearchFilter({ keyword: '  ' })).toBe(false);
    expect(hasActiveSearchFilter(null)).toBe(false);
    for (const set of [
      { keyword: 'うさ' },
      { character_id: 3 },
      { station_ids: [1] },
      { vip: 1 as const },
      { gift_type: 'x' },
      { refine_search: 1 as const },
    ]) {
      expect(hasActiveSearchFilter({ ...EMPTY_SEARCH_PARAMS, ...set })).toBe(true);
    }
  });
});

describe('page title', () => {
  it('[R7-13] prize + list then the title tag; under /play prize alone then the title tag', () => {
    expect(pageTitle('/')).toBe('景品一覧 | オンラインクレーンゲーム オンクレ');
    expect(pageTitle('/mochiusa/milk/plush')).toBe('景品一覧 | オンラインクレーンゲーム オンクレ');
    expect(pageTitle('/play/mochiusa/milk/plush/42')).toBe('景品 | オンラインクレーンゲーム オンクレ');
    expect(pageTitle('/play/42?x=1')).toBe('景品 | オンラインクレーンゲーム オンクレ');
    expect(pageTitle('/player')).toBe('景品一覧 | オンラインクレーンゲーム オンクレ');
  });
});
