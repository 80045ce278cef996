/** @vitest-environment jsdom */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS, type AppConfig, type PrizeSearchResult } from '../../src/application';
import { ContainerProvider } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import {
  aCharacter,
  anAppConfig,
  aPrizeItem,
  aTab,
  aTopPage,
  FakeRealtime,
  ScriptedPrizeCatalog,
} from '../../src/testing';
import { marqueeDurationMs } from '../../src/domain';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

const tabs = [
  aTab({ tab_id: 1, tab_name: 'ホーム', tab_slug: 'home', tab_kind: 'home' }),
  aTab({ tab_id: 7, tab_name: 'VIP', tab_slug: 'vip', tab_kind: 'vip' }),
];
const items = [
  aPrizeItem({
    station_id: 1,
    prize_name: 'もちもちうさぎ ミルク BIGぬいぐるみ',
    character: 'もちもちうさぎ',
    sub_character: 'ミルク',
  }),
  aPrizeItem({
    station_id: 2,
    prize_name: 'もちもちうさぎ あんこ マグカップ',
    character: 'もちもちうさぎ',
    sub_character: 'あんこ',
  }),
];
const result = (list = items): PrizeSearchResult => ({
  prize: { list, total_count: list.length, page: 1, page_count: 1, page_items_count: 30 },
  tab_list: tabs,
  sale_list: [],
});

function open(path: string, config: Partial<AppConfig> = {}, realtime = new FakeRealtime()) {
  const catalog = new ScriptedPrizeCatalog()
    .always('topPage', aTopPage({ tab_list: tabs }))
    .always('characters', [
      aCharacter({
        sub_character: [
          { sub_character_id: 1, sub_character_name: 'ミルク', sub_character_slug: 'milk' },
          { sub_character_id: 2, sub_character_name: 'あんこ', sub_character_slug: 'anko' },
        ],
      }),
    ])
    .always('searchPrizes', result());
  const { router, element: routed } = memoryRouter(routes, path);
  render(
    <ContainerProvider
      container={createTestContainer(
        [TOKENS.PrizeCatalogPort, catalog.port],
        [TOKENS.AppConfig, anAppConfig(config)],
        [TOKENS.RealtimePort, realtime],
      )}
    >
      {routed}
    </ContainerProvider>,
  );
  return { catalog, router, realtime };
}

describe('catalogue navigation (§2.3) over a scripted catalogue', () => {
  it('[R2.3-1] [R2.3-7] a character / sub-character path lists its stations under the breadcrumb ホーム › 景品一覧 › character › sub-character', async () => {
    const { catalog } = open('/mochi-usagi/milk');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('もちもちうさぎ / ミルク');
    const crumbs = within(screen.getByRole('navigation', { name: 'パンくずリスト' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(crumbs).toEqual(['ホーム', '景品一覧', 'もちもちうさぎ', 'ミルク']);
    // The sub-character is not a search param: every match of the character is asked for and filtered here.
    expect(catalog.callsOf('searchPrizes')[0]).toEqual([
      { shopId: 1, params: { character_id: 1, is_all: 1 }, page: 1 },
    ]);
    expect(screen.getAllByTestId('prize-card').map((c) => c.getAttribute('data-station-id'))).toEqual(['1']);
  });

  it('a tab path asks for that tab, and the tab bar marks it', async () => {
    const { catalog } = open('/vip');
    await screen.findByRole('heading', { level: 1, name: 'VIP' });
    expect(catalog.callsOf('searchPrizes')[0]).toEqual([{ shopId: 1, params: { category_id: 7 }, page: 1 }]);
    expect(screen.getByRole('link', { name: 'VIP' }).getAttribute('aria-current')).toBe('page');
  });

  it('[R2.3-3] [R2.1-5] a segment that is no character, sub-character or tab shows the 404 page with the full path', async () => {
    open('/mochi-usagi/nope');
    expect((await screen.findByTestId('error-path')).textContent).toBe('Page Not Found /mochi-usagi/nope');
  });

  it('[R2.3-5] on a non-web build any tag path is the 404 page', async () => {
    open('/vip', { target: 'ios' });
    expect((await screen.findByTestId('error-path')).textContent).toBe('Page Not Found /vip');
  });

  it('[R2.3-4] on web a catalogue path with a hash is redirected to the clean path', async () => {
    const { router } = open('/vip?keyword=%E3%81%86%E3%81%95%E3%81%8E#list');
    await screen.findByRole('heading', { level: 1 });
    expect(`${router.state.location.pathname}${router.state.location.search}${router.state.location.hash}`).toBe(
      '/vip?keyword=%E3%81%86%E3%81%95%E3%81%8E',
    );
  });

  it('[R7-11] [R9-5] the live catalogue: maintenance and playing update the cards without a reload; a winner scrolls at a speed set by its length', async () => {
    const { realtime } = open('/mochi-usagi');
    await screen.findByRole('heading', { level: 1, name: 'もちもちうさぎ' });
    expect(realtime.joined).toContain('top');
    const card = () => screen.getAllByTestId('prize-card')[0]!;
    expect(within(card()).queryByText('メンテナンス中')).toBeNull();
    act(() => realtime.emit({ kind: 'top' }, { type: 'maintenance', stationId: 1, stationStatus: 'maintenance' }));
    expect(within(card()).getByText('メンテナンス中')).toBeTruthy();
    act(() =>
      realtime.emit(
        { kind: 'top' },
        { type: 'list', stations: [{ station_id: 1, station_status: 'open', playing: 1, visit_count: 4 }] },
      ),
    );
    expect(within(card()).queryByText('メンテナンス中')).toBeNull();
    expect(within(card()).getByText('プレイ中')).toBeTruthy();
    cleanup();
    const top = open('/');
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    const message = 'はなこさんが「もちもちうさぎ ミルク BIGぬいぐるみ」をゲット！';
    act(() =>
      top.realtime.emit(
        { kind: 'top' },
        { type: 'winner', announcement: { station_id: 1, prize_name: 'もちもちうさぎ ミルク BIGぬいぐるみ', message } },
      ),
    );
    const marquee = screen.getByTestId('winner-marquee');
    expect(marquee.textContent).toBe(message);
    expect((marquee.firstChild as HTMLElement).style.animationDuration).toBe(`${marqueeDurationMs(message)}ms`);
  });

  it('the root shows the top page rows with the tabs and characters as links', async () => {
    const { router } = open('/');
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    const character = screen.getByRole('link', { name: 'もちもちうさぎ' });
    expect(character.getAttribute('href')).toBe('/mochi-usagi');
    await act(() => router.navigate('/mochi-usagi'));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('もちもちうさぎ');
  });
});
