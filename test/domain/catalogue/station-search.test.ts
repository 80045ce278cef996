import { describe, expect, it } from 'vitest';
import {
  foldText,
  hasStationSearchFilter,
  saleSections,
  searchResultPage,
  searchStations,
  stationInTab,
  type CatalogueTab,
  type SearchableStation,
} from '../../../src/domain';

const aStation = (over: Partial<SearchableStation> = {}): SearchableStation => ({
  station_id: 1,
  prize_name: 'もちうさ ぬいぐるみ',
  character: 'もちもちうさぎ',
  sub_character: 'ミルク',
  genre: 'plush',
  station_status: 'open',
  new: 0,
  type: 'normal',
  natia: 0,
  designated_type: 'normal',
  recommend: false,
  gift_type: 0,
  character_id: 1,
  stock: 10,
  ...over,
});
const tab = (tab_id: number, tab_kind: CatalogueTab['tab_kind'], genre: string | null = null): CatalogueTab => ({
  tab_id,
  tab_name: `t${tab_id}`,
  tab_kind,
  genre,
});

describe('station search', () => {
  it('[R3-17] the keyword matches prize, character, sub-character or genre, folded (全角/半角, case, katakana)', () => {
    expect(foldText('ＭＯＣＨＩ ウサギ')).toBe('mochi うさぎ');
    const stations = [
      aStation({ station_id: 1 }),
      aStation({ station_id: 2, prize_name: 'x', character: 'y', sub_character: 'z', genre: 'Figure' }),
    ];
    expect(searchStations(stations, { keyword: 'ミルク' }, []).map((s) => s.station_id)).toEqual([1]);
    expect(searchStations(stations, { keyword: 'ｆｉｇ' }, []).map((s) => s.station_id)).toEqual([2]);
    expect(searchStations(stations, {}, []).map((s) => s.station_id)).toEqual([1, 2]);
  });

  it('[R3-17] a category is a tab: genre by genre, a kind by its kind; an unknown tab matches nothing', () => {
    const stations = [aStation({ station_id: 1, type: 'vip' }), aStation({ station_id: 2, genre: 'figure' })];
    const tabs = [tab(10, 'vip'), tab(11, 'genre', 'figure')];
    expect(searchStations(stations, { category_id: 10 }, tabs).map((s) => s.station_id)).toEqual([1]);
    expect(searchStations(stations, { category_id: 11 }, tabs).map((s) => s.station_id)).toEqual([2]);
    expect(searchStations(stations, { category_id: 99 }, tabs)).toEqual([]);
    expect(stationInTab(tab(1, 'virtual_crane'), aStation())).toBe(false);
  });

  it('[R3-17] vip means any non-normal type; refine_search keeps playable stations in stock', () => {
    const stations = [
      aStation({ station_id: 1 }),
      aStation({ station_id: 2, type: 'exclusive' }),
      aStation({ station_id: 3, station_status: 'maintenance' }),
      aStation({ station_id: 4, stock: 0 }),
    ];
    expect(searchStations(stations, { vip: 1 }, []).map((s) => s.station_id)).toEqual([2]);
    expect(searchStations(stations, { refine_search: 1 }, []).map((s) => s.station_id)).toEqual([1, 2]);
  });

  it('[R3-17] is_all and an empty id list are not filters', () => {
    expect(hasStationSearchFilter({})).toBe(false);
    expect(hasStationSearchFilter({ is_all: 1, station_ids: [] })).toBe(false);
    expect(hasStationSearchFilter({ keyword: '' })).toBe(true);
  });

  it('[R3-17] pages of results, or with is_all everything (up to the cap) on page 1', () => {
    const matches = [1, 2, 3, 4, 5];
    expect(searchResultPage(matches, { page: 2, isAll: false, pageSize: 2 }, String)).toEqual({
      list: ['3', '4'],
      total_count: 5,
      page: 2,
      page_count: 3,
      page_items_count: 2,
    });
    expect(searchResultPage(matches, { page: 3, isAll: true, pageSize: 2 }, String).list).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
  });

  it('[R3-17] sale sections: kind rows in order, then genre rows, empty rows left out', () => {
    const stations = [
      aStation({ station_id: 1, natia: 1 }),
      aStation({ station_id: 2, recommend: true, genre: 'figure' }),
    ];
    const tabs = [tab(1, 'genre', 'figure'), tab(2, 'natia'), tab(3, 'recommend'), tab(4, 'vip')];
    expect(saleSections(stations, tabs, (s) => s.station_id)).toEqual([
      { tab_id: 3, title: 't3', list: [2] },
      { tab_id: 2, title: 't2', list: [1] },
      { tab_id: 1, title: 't1', list: [2] },
    ]);
  });
});
