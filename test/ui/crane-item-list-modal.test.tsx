/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKENS, type ModalStack } from '../../src/application';
import type { UserData } from '../../src/domain';
import { ContainerProvider } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import {
  anIdentity,
  aTopPage,
  aUserData,
  FakeSession,
  ScriptedAccount,
  ScriptedPrizeCatalog,
  type ScriptedAnswer,
} from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The app on a page with the site header, signed in (with the account's answers) or as a guest. */
function app(answers: ScriptedAnswer<UserData>[] | null) {
  const account = new ScriptedAccount();
  if (answers) account.answer('userData', ...answers);
  const session = new FakeSession(answers ? anIdentity({ user_id: 42 }) : null);
  const catalog = new ScriptedPrizeCatalog().always('topPage', aTopPage()).always('characters', []);
  const container = createTestContainer(
    [TOKENS.PrizeCatalogPort, catalog.port],
    [TOKENS.SessionPort, session],
    [TOKENS.AccountPort, account.port],
  );
  const { router, element: routed } = memoryRouter(routes, '/nowhere');
  render(<ContainerProvider container={container}>{routed}</ContainerProvider>);
  return { account, router, stack: container.get<ModalStack>(TOKENS.ModalStack) };
}

/** Opens the menu from the header, then the crane item list from the menu. */
async function openCraneItems() {
  await screen.findByTestId('error-page');
  fireEvent.click(screen.getByTestId('open-menu'));
  fireEvent.click(await screen.findByRole('button', { name: 'クレーンアイテム' }));
  return screen.findByTestId('crane-item-list');
}

const withItems = (items: UserData['crane_items']) => aUserData({ crane_items: items });

describe('the crane item list modal (spec §2.5)', () => {
  it("[R2.5-2] opens from the menu as a sub-modal and lists the signed-in player's crane items as name × count", async () => {
    const items = [
      { item_id: 1, name: 'アームパワーアップ', count: 3 },
      { item_id: 2, name: 'おためしチケット', count: 1200 },
    ];
    const { account } = app([{ value: withItems(items) }, { value: withItems(items) }]);
    const modal = await openCraneItems();
    expect(screen.getByTestId('modal-craneItemList').getAttribute('data-level')).toBe('sub');
    expect(within(modal).getByRole('heading', { name: 'クレーンアイテム' })).toBeTruthy();
    await waitFor(() => expect(within(modal).getAllByTestId('crane-item')).toHaveLength(2));
    expect(
      within(modal)
        .getAllByTestId('crane-item')
        .map((li) => li.textContent),
    ).toEqual(['アームパワーアップ× 3', 'おためしチケット× 1,200']);
    // Opening the list reads the user data again, so the counts are fresh.
    expect(account.callsOf('userData').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the empty state in Japanese for a player with no crane items', async () => {
    app([{ value: withItems([]) }, { value: withItems([]) }]);
    const modal = await openCraneItems();
    expect(await within(modal).findByText('まだクレーンアイテムはありません。')).toBeTruthy();
    expect(within(modal).queryAllByTestId('crane-item')).toEqual([]);
  });

  it('asks a guest to sign in; the sign-in link goes to the login page, coming back here, and closes the modals', async () => {
    const { account, router, stack } = app(null);
    const modal = await openCraneItems();
    expect(within(modal).getByText('クレーンアイテムを見るにはログインしてください。')).toBeTruthy();
    const signIn = within(modal).getByTestId('sign-in-link');
    expect(signIn.getAttribute('href')).toBe(`/login?next=${encodeURIComponent('/nowhere')}`);
    expect(within(modal).getByTestId('sign-up-link').getAttribute('href')).toBe(
      `/signup?next=${encodeURIComponent('/nowhere')}`,
    );
    fireEvent.click(signIn);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await waitFor(() => expect(screen.queryByTestId('crane-item-list')).toBeNull());
    expect(stack.depth).toBe(0);
    expect(account.callsOf('userData')).toEqual([]);
  });

  it('a failed read says so in Japanese (not a sign-in prompt) and the retry button reads again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const items = [{ item_id: 5, name: 'キャッチアシスト', count: 2 }];
    app([{ error: new Error('offline') }, { error: new Error('offline') }, { value: withItems(items) }]);
    const modal = await openCraneItems();
    expect((await within(modal).findByRole('alert')).textContent).toBe(
      'クレーンアイテムを読み込めませんでした。時間をおいてもう一度お試しください。',
    );
    expect(within(modal).queryByTestId('sign-in-link')).toBeNull();
    fireEvent.click(within(modal).getByRole('button', { name: 'もう一度読み込む' }));
    await waitFor(() =>
      expect(
        within(modal)
          .getAllByTestId('crane-item')
          .map((li) => li.textContent),
      ).toEqual(['キャッチアシスト× 2']),
    );
  });
});
