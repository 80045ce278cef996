/** @vitest-environment jsdom */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ModalStack, TOKENS, type PrizeSearchResult } from '../../src/application';
import { ContainerProvider } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import { aPrizeItem, aTab, aTopPage, ScriptedPrizeCatalog } from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

const found = (n: number): PrizeSearchResult => ({
  prize: {
    list: Array.from({ length: n }, (_, i) => aPrizeItem({ station_id: i + 1, prize_name: `うさぎ景品${i + 1}` })),
    total_count: n,
    page: 1,
    page_count: 1,
    page_items_count: 30,
  },
  tab_list: [aTab()],
  sale_list: [],
});

function app(search: PrizeSearchResult[] = []) {
  const catalog = new ScriptedPrizeCatalog().always('topPage', aTopPage()).always('characters', []);
  for (const r of search) catalog.answer('searchPrizes', { value: r });
  const container = createTestContainer([TOKENS.PrizeCatalogPort, catalog.port]);
  const { router, element: routed } = memoryRouter(routes, '/');
  render(<ContainerProvider container={container}>{routed}</ContainerProvider>);
  return { router, catalog, stack: container.get<ModalStack>(TOKENS.ModalStack) };
}

describe('the modal system', () => {
  it('[R2.5-1] keeps at most one main modal and one sub-modal: a third is refused', () => {
    const stack = new ModalStack();
    expect(stack.open('search')).toBe(true);
    expect(stack.open('alert', { message: 'x' })).toBe(true);
    expect(stack.open('config')).toBe(false);
    expect(stack.snapshot).toEqual({
      main: { name: 'search', props: {} },
      sub: { name: 'alert', props: { message: 'x' } },
    });
    stack.close();
    expect(stack.snapshot.sub).toBeNull();
    stack.open('config');
    stack.closeTo(0);
    expect(stack.snapshot).toEqual({ main: null, sub: null });
  });

  it('[R8-8] [R2.5-2] the header opens the search; a search with no results shows the prize-not-found alert over it; Escape closes the top one', async () => {
    const { stack } = app([found(0)]);
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    fireEvent.click(screen.getByTestId('open-search'));
    const input = await screen.findByRole('searchbox', { name: 'キーワード' });
    expect(document.activeElement).toBe(input); // focus moves into the modal
    fireEvent.change(input, { target: { value: 'ないもの' } });
    fireEvent.click(screen.getByRole('button', { name: '検索する' }));
    expect((await screen.findByTestId('alert-message')).textContent).toBe(
      '条件に合う景品が見つかりませんでした。条件を変えてお試しください。',
    );
    expect(screen.getByTestId('modal-alert').getAttribute('data-level')).toBe('sub');
    expect(stack.open('config')).toBe(false); // a third modal is refused [R2.5-1]
    fireEvent.keyDown(screen.getByTestId('modal-alert'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('modal-alert')).toBeNull());
    expect(screen.getByTestId('modal-search')).toBeTruthy();
  });

  it('a search with results goes to the keyword listing and closes the modal; the back button closes an open modal', async () => {
    const { router } = app([found(2), found(2)]);
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    fireEvent.click(screen.getByTestId('open-search'));
    fireEvent.change(await screen.findByRole('searchbox', { name: 'キーワード' }), { target: { value: 'うさぎ' } });
    fireEvent.click(screen.getByRole('button', { name: '検索する' }));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('うさぎ');
    expect(router.state.location.search).toBe(`?keyword=${encodeURIComponent('うさぎ')}`);
    expect(screen.queryByTestId('modal-search')).toBeNull();
    fireEvent.click(screen.getByTestId('open-menu'));
    await screen.findByTestId('modal-menuTop');
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.queryByTestId('modal-menuTop')).toBeNull());
  });

  it('[R2.5-2] the menu opens the settings as a sub-modal over it; the back button closes the settings, then the menu', async () => {
    const { router } = app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    fireEvent.click(screen.getByTestId('open-menu'));
    fireEvent.click(await screen.findByRole('button', { name: '設定' }));
    expect((await screen.findByTestId('modal-config')).getAttribute('data-level')).toBe('sub');
    expect(await screen.findByRole('checkbox', { name: 'サウンド' })).toBeTruthy();
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.queryByTestId('modal-config')).toBeNull());
    expect(screen.getByTestId('modal-menuTop')).toBeTruthy();
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.queryByTestId('modal-menuTop')).toBeNull());
  });
});
