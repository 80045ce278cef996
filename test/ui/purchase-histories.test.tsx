/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { ContainerProvider } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import {
  anIdentity,
  aPlayLogEntry,
  aTopPage,
  aUserData,
  FakeSession,
  ScriptedAccount,
  ScriptedClips,
  ScriptedPlay,
  ScriptedPrizeCatalog,
  ScriptedWallet,
} from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(() => cleanup());

const aPlay = aPlayLogEntry;

function app(user = aUserData()) {
  const wallet = new ScriptedWallet();
  const play = new ScriptedPlay();
  const account = new ScriptedAccount().always('userData', user);
  const catalog = new ScriptedPrizeCatalog().always('topPage', aTopPage()).always('characters', []);
  const clips = new ScriptedClips();
  const container = createTestContainer(
    [TOKENS.ClipPort, clips.port],
    [TOKENS.PrizeCatalogPort, catalog.port],
    [TOKENS.SessionPort, new FakeSession(anIdentity({ user_id: 42 }))],
    [TOKENS.AccountPort, account.port],
    [TOKENS.WalletPort, wallet.port],
    [TOKENS.PlayPort, play.port],
  );
  render(<ContainerProvider container={container}>{memoryRouter(routes, '/nowhere').element}</ContainerProvider>);
  return { wallet, play, clips };
}

async function openFromMenu(name: string) {
  await screen.findByTestId('error-page');
  fireEvent.click(screen.getByTestId('open-menu'));
  fireEvent.click(await screen.findByRole('button', { name }));
}

describe('the TC used history and play history modals', () => {
  it('the TC used history lists each operation newest first with free and paid TC apart, and pages on', async () => {
    const { wallet } = app();
    wallet
      .answer('tcHistory', {
        value: {
          entries: [
            {
              id: 'play:7',
              reason: 'play',
              reference: 'play:7',
              freeDelta: -100,
              tollDelta: -50,
              balanceAfter: 11_850,
              createdAt: '2026-11-24T03:05:00.000Z',
            },
          ],
          page: 1,
          hasMore: true,
          freeLots: [],
        },
      })
      .answer('tcHistory', {
        value: {
          entries: [
            {
              id: 'settlement:x',
              reason: 'purchase',
              reference: 'x',
              freeDelta: 2000,
              tollDelta: 10_000,
              balanceAfter: 12_000,
              createdAt: '2026-11-24T03:00:00.000Z',
            },
          ],
          page: 2,
          hasMore: false,
          freeLots: [],
        },
      });
    await openFromMenu('TC利用履歴');
    const modal = await screen.findByTestId('tc-history');
    await waitFor(() => expect(within(modal).getAllByRole('row')).toHaveLength(2));
    expect(within(modal).getAllByRole('row')[1]!.textContent).toBe('2026/11/24 12:05プレイ−100−5011,850');
    fireEvent.click(within(modal).getByRole('button', { name: 'もっと見る' }));
    await waitFor(() => expect(within(modal).getAllByRole('row')).toHaveLength(3));
    expect(within(modal).getAllByRole('row')[2]!.textContent).toBe('2026/11/24 12:00TC購入+2,000+10,00012,000');
    expect(within(modal).queryByRole('button', { name: 'もっと見る' })).toBeNull();
    expect(wallet.callsOf('tcHistory')).toEqual([[1], [2]]);
  });

  it('[R11-7] the header shows the free TC that ends next; the TC history the free lots held with their last days, each free credit\u2019s end, and an expiry', async () => {
    // Ends at 2027-02-23 00:00 JST: its last day is 02/22.
    const ends = '2027-02-22T15:00:00.000Z';
    const { wallet } = app(
      aUserData({
        tc_info: { tc_all: 800, tc_free: 700, tc_toll: 100 },
        tc_free_expiring: { amount: 500, expires_at: ends },
      }),
    );
    // The full line, and the short one a phone's header shows instead (CSS picks one).
    const expiring = await screen.findByTestId('header-free-expiring');
    expect(expiring.querySelector('.site-header__expiring-full')!.textContent).toBe('うち500TCは2/22まで');
    expect(expiring.querySelector('.site-header__expiring-short')!.textContent).toBe('一部2/22まで');
    expect(screen.getByTestId('header-balance-amount').textContent).toBe('800 TC');
    wallet.answer('tcHistory', {
      value: {
        entries: [
          {
            id: 'expire:lot:3',
            reason: 'expiry',
            reference: 'lot:3',
            freeDelta: -40,
            tollDelta: 0,
            balanceAfter: 800,
            createdAt: '2026-11-28T15:00:00.000Z',
          },
          {
            id: 'present:WELCOME500',
            reason: 'present_code',
            reference: 'WELCOME500',
            freeDelta: 500,
            tollDelta: 0,
            balanceAfter: 840,
            createdAt: '2026-11-24T03:00:00.000Z',
            freeExpiresAt: ends,
          },
        ],
        page: 1,
        hasMore: false,
        freeLots: [
          {
            lotId: 4,
            amount: 500,
            remaining: 500,
            expiresAt: ends,
            reason: 'present_code',
            createdAt: '2026-11-24T03:00:00.000Z',
          },
          // The same day's lots end together: one line.
          {
            lotId: 5,
            amount: 60,
            remaining: 60,
            expiresAt: ends,
            reason: 'admin',
            createdAt: '2026-11-24T05:00:00.000Z',
          },
          {
            lotId: 1,
            amount: 300,
            remaining: 200,
            expiresAt: null,
            reason: 'carried_over',
            createdAt: '2026-11-01T03:00:00.000Z',
          },
        ],
      },
    });
    await openFromMenu('TC利用履歴');
    const lots = await screen.findByTestId('tc-free-lots');
    expect(within(lots).getByRole('heading').textContent).toBe('有効期限のある無償TC');
    expect(
      within(lots)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['560TC（2027/02/22 24:00まで）', '200TC（期限なし）']);
    const rows = within(screen.getByTestId('tc-history')).getAllByRole('row');
    expect(rows[1]!.textContent).toBe('2026/11/29 00:00有効期限切れ−40—800');
    expect(rows[2]!.textContent).toBe('2026/11/24 12:00プレゼントコード無償TCの期限 2027/02/22+500—840');
  });

  it('the play history shows station, prize, time, result and charge; [R2.5-1] a play opens its settings log in place; [R11-6] it names the settings version', async () => {
    const { play } = app();
    play.answer('history', {
      value: {
        list: [aPlay({ settings_version: 3 }), aPlay({ play_id: 2, result: 'miss', currency: 'free', price: 0 })],
        page: 1,
        hasMore: false,
      },
    });
    await openFromMenu('プレイ履歴');
    const modal = await screen.findByTestId('play-history');
    await waitFor(() => expect(within(modal).getAllByRole('listitem')).toHaveLength(2));
    const [first, second] = within(modal).getAllByRole('listitem');
    expect(first!.textContent).toContain('もちもちうさぎ ぬいぐるみ');
    expect(first!.textContent).toContain('ステーション 12・2026/11/24 10:00');
    expect(first!.textContent).toContain('獲得');
    expect(first!.textContent).toContain('150 TC');
    expect(second!.textContent).toContain('残念');
    expect(second!.textContent).toContain('無料');
    // The settings log opens in place (the history is already the sub-modal over the menu) [R2.5-1].
    expect(screen.getByTestId('modal-playHistory').getAttribute('data-level')).toBe('sub');
    // Each dialog is named (the menu after its heading by the host, the history by its own title).
    expect(screen.getByRole('dialog', { name: 'メニュー' })).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'プレイ履歴' })).toBe(screen.getByTestId('modal-playHistory'));
    const log = within(first!).getByTestId('play-log') as HTMLDetailsElement;
    fireEvent.click(within(log).getByText('設定ログ'));
    await waitFor(() => expect(log.open).toBe(true));
    expect(log.textContent).toContain('乱数シード12345');
    expect(log.textContent).toContain('アシストレベル1');
    expect(log.textContent).toContain('操作の記録2件');
    // [R11-6] The station's settings version the play ran with (its settings history names it).
    expect(log.textContent).toContain('台の設定第3版');
    expect(within(second!).getByTestId('play-log').textContent).not.toContain('台の設定');
  });

  it("[R11-5] each play links its video: 動画 when ready, 録画中 while written (both open it), 動画なし when removed; it opens in the history's place and plays the clip", async () => {
    const { play, clips } = app();
    const ref = (status: 'ready' | 'recording' | 'removed', clip_id: string) => ({
      clip_id,
      status,
      shared: 0 as const,
      kept: 0 as const,
      expires_at: '2026-12-24T01:00:00.000Z',
    });
    play.answer('history', {
      value: {
        list: [
          aPlay({ play_id: 3, clip: ref('ready', 'AAAAAAAAAAAAAAAAAAAAAA') }),
          aPlay({ play_id: 2, clip: ref('recording', 'BBBBBBBBBBBBBBBBBBBBBB') }),
          aPlay({ play_id: 1, clip: ref('removed', 'CCCCCCCCCCCCCCCCCCCCCC') }),
          aPlay({ play_id: 4, clip: null }),
        ],
        page: 1,
        hasMore: false,
      },
    });
    clips.answer('ofPlay', {
      value: {
        ...ref('ready', 'AAAAAAAAAAAAAAAAAAAAAA'),
        play_id: 3,
        station_id: 12,
        cameras: ['front', 'side'],
        duration_ms: 14_000,
        bytes: 900_000,
        created_at: '2026-11-24T01:00:00.000Z',
        urls: {
          front: '/api/clips/AAAAAAAAAAAAAAAAAAAAAA/front.webm?e=1&k=2',
          side: '/api/clips/AAAAAAAAAAAAAAAAAAAAAA/side.webm?e=1&k=2',
        },
        share_path: null,
      },
    });
    await openFromMenu('プレイ履歴');
    const modal = await screen.findByTestId('play-history');
    await waitFor(() => expect(within(modal).getAllByRole('listitem')).toHaveLength(4));
    const rows = within(modal).getAllByRole('listitem');
    expect(rows.map((row) => within(row).queryByTestId('clip-link')?.textContent ?? null)).toEqual([
      '動画',
      '録画中',
      null,
      null,
    ]);
    expect(within(rows[2]!).getByTestId('clip-link-gone').textContent).toBe('動画なし');
    fireEvent.click(within(rows[0]!).getByRole('button', { name: '動画（もちもちうさぎ ぬいぐるみ）' }));
    const clip = await screen.findByTestId('play-clip');
    await waitFor(() => expect(clip.getAttribute('data-state')).toBe('clip'));
    expect(clips.callsOf('ofPlay')).toEqual([[3]]);
    expect(screen.getByRole('dialog', { name: 'プレイ動画' })).toBeTruthy();
    expect(screen.queryByTestId('play-history')).toBeNull();
    const video = within(clip).getByTestId('clip-video');
    expect([video.getAttribute('data-camera'), video.getAttribute('src')]).toEqual([
      'front',
      '/api/clips/AAAAAAAAAAAAAAAAAAAAAA/front.webm?e=1&k=2',
    ]);
    expect(within(clip).getByTestId('clip-facts').textContent).toMatch(/^14秒 ・ あと\d+日で削除されます$/);
  });
});
