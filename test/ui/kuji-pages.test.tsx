/** @vitest-environment jsdom */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import {
  boxTickets,
  deriveTicketOrder,
  fairnessCommitment,
  type KujiDrawResult,
  type KujiPlayInfo,
} from '../../src/domain';
import { ContainerProvider } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import {
  aKujiBox,
  aKujiOnSale,
  anIdentity,
  FakeRealtime,
  FakeSession,
  ManualClock,
  ScriptedKujiPlay,
  ScriptedPrizeCatalog,
} from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

const kuji = aKujiOnSale({
  kuji_id: 3,
  kuji_name: 'ぱんだ日和 ささのはくじ',
  price: 600,
  boxes: [aKujiBox({ box_id: 7, box_no: 1 })],
});
const holder: KujiPlayInfo = {
  reserve_polling_id: 1,
  kuji_play_reserve_id: 1,
  reserve_token: 'token-0123456789abcdef',
  reserve_num: 1,
  reserve_status: 'firstReserved',
  kuji_id: 3,
  box_id: 7,
  box_status: 'onSale',
  // What the server answers at 12:00:10 (the page's clock) for a 60 s window begun at 12:00:00.
  reserve_remaintime: 50,
  play_at: '2026-11-23T12:00:00Z',
};

function open(path: string, kujiPlay = new ScriptedKujiPlay(), signedIn = true, realtime = new FakeRealtime()) {
  const catalog = new ScriptedPrizeCatalog().always('kujiOnSale', [kuji]);
  const clock = new ManualClock(Date.parse('2026-11-23T12:00:10Z'));
  const container = createTestContainer(
    [TOKENS.PrizeCatalogPort, catalog.port],
    [TOKENS.KujiPlayPort, kujiPlay.port],
    [TOKENS.RealtimePort, realtime],
    [TOKENS.SessionPort, new FakeSession(signedIn ? anIdentity() : null)],
    [TOKENS.ClockPort, clock],
  );
  render(<ContainerProvider container={container}>{memoryRouter(routes, path).element}</ContainerProvider>);
  return { kujiPlay, realtime, clock };
}

describe('kuji screens', () => {
  it('the list shows each kuji with its price and its boxes, each a link to its page', async () => {
    open('/kuji');
    const card = await screen.findByTestId('kuji-card');
    expect(within(card).getByRole('heading', { name: 'ぱんだ日和 ささのはくじ' })).toBeTruthy();
    expect(within(card).getByText('1回 600 TC')).toBeTruthy();
    expect(within(card).getByRole('link').getAttribute('href')).toBe('/kuji/3/7');
  });

  it('a guest sees the stock and a sign-in link instead of the line', async () => {
    open('/kuji/3/7', new ScriptedKujiPlay(), false);
    expect(await screen.findByRole('heading', { level: 1, name: 'ぱんだ日和 ささのはくじ' })).toBeTruthy();
    expect(screen.getAllByTestId('kuji-prize').map((p) => p.getAttribute('data-rank'))).toEqual([
      'A賞',
      'B賞',
      'ラストワン賞',
    ]);
    expect(screen.getByTestId('sign-in-link').getAttribute('href')).toBe('/login?next=%2Fkuji%2F3%2F7');
    expect(screen.getByTestId('sign-up-link').getAttribute('href')).toBe('/signup?next=%2Fkuji%2F3%2F7');
  });

  it('[R4.4-1] [R4.4-5] the holder sees the countdown and draw buttons with their prices; a draw shows the reveal', async () => {
    const draw: KujiDrawResult = {
      draw_id: 1,
      kuji_id: 3,
      box_id: 7,
      price_total: 1800,
      remaining_count: 77,
      box_status: 'onSale',
      replayed: 0,
      last_one: null,
      tc: { tc_all: 8200, tc_free: 8200, tc_toll: 0 },
      tickets: [0, 1, 2].map((position) => ({
        position,
        rank: 'B賞',
        prize_name: 'ぱんだ日和 こぱん マグカップ',
        img_url: '/b.svg',
      })),
    };
    const kujiPlay = new ScriptedKujiPlay().always('currentKujiReservation', holder).always('drawKuji', {
      draw,
      playInfo: { ...holder, reserve_status: 'confirm', reserve_remaintime: 180, play_at: '2026-11-23T12:00:10Z' },
    });
    const { clock } = open('/kuji/3/7', kujiPlay);
    expect((await screen.findByTestId('kuji-status')).textContent).toBe('あなたの番です！あと50秒以内に引いてください');
    // The page counts the server's answer down on its clock.
    act(() => clock.advance(1000));
    expect(screen.getByTestId('kuji-status').textContent).toBe('あなたの番です！あと49秒以内に引いてください');
    expect(screen.getByTestId('kuji-draw-1').textContent).toBe('1回引く（600 TC）');
    expect(screen.getByTestId('kuji-draw-10').textContent).toBe('10回引く（6,000 TC）');
    expect(screen.getByTestId('kuji-draw-all').textContent).toBe('残り全部引く（48,000 TC）');
    await userEvent.click(screen.getByTestId('kuji-draw-3'));
    const reveal = await screen.findByTestId('kuji-reveal');
    expect(within(reveal).getAllByText('B賞')).toHaveLength(3);
    expect(within(reveal).getByText('1,800 TC を使いました')).toBeTruthy();
    expect(kujiPlay.callsOf('drawKuji')[0]?.[1]).toBe(3);
    await userEvent.click(within(reveal).getByRole('button', { name: 'とじる' }));
    expect(screen.queryByTestId('kuji-reveal')).toBeNull();
    expect(screen.getByTestId('kuji-status').textContent).toContain('続けて引くなら、あと180秒以内');
  });

  it("[R4.4-2] play_end on the box channel ends a waiting player's line with the box-ended alert", async () => {
    const realtime = new FakeRealtime();
    const kujiPlay = new ScriptedKujiPlay().always('currentKujiReservation', {
      ...holder,
      reserve_status: 'reserve',
      reserve_num: 2,
      play_at: null,
    });
    open('/kuji/3/7', kujiPlay, true, realtime);
    expect((await screen.findByTestId('kuji-status')).textContent).toBe('あなたは2番目です');
    await act(async () =>
      realtime.emit({ kind: 'kujiBox', kujiId: 3, boxId: 7 }, { type: 'playEnd', kujiId: 3, boxId: 7 }),
    );
    expect((await screen.findByTestId('kuji-alert')).textContent).toContain('このくじの販売は終了しました。');
  });

  it('the fairness modal checks a finished box in the browser with the published seed', async () => {
    const seed = 'c5'.repeat(32);
    const stock = [
      { rank: 'A賞', quantity: 1 },
      { rank: 'B賞', quantity: 3 },
    ];
    const order = deriveTicketOrder(seed, boxTickets(stock));
    const kujiPlay = new ScriptedKujiPlay().always('currentKujiReservation', null).always('kujiFairness', {
      version: 'onkure-kuji-fairness-v1',
      kuji_id: 3,
      box_id: 7,
      box_status: 'outOfStock',
      commitment: fairnessCommitment(7, seed, order),
      opened_at: '2026-11-23T00:00:00Z',
      stock,
      seed,
      revealed_at: '2026-11-23T03:00:00Z',
      draws: order.map((rank, position) => ({ position, rank })),
    });
    open('/kuji/3/7', kujiPlay);
    await userEvent.click(await screen.findByRole('button', { name: '公平性の確認' }));
    expect((await screen.findByTestId('kuji-verified')).getAttribute('data-ok')).toBe('1');
    expect(screen.getByTestId('kuji-seed').textContent).toBe(seed);
  });
});
