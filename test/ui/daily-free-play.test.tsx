/** @vitest-environment jsdom */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { OnkureApp } from '../../src/ui';
import {
  anAssistGauge,
  anIdentity,
  aPrizeItem,
  aStationInfo,
  aStationReserveInfo,
  aTab,
  aTopPage,
  aUserData,
  FakeSession,
  ScriptedAccount,
  ScriptedPlay,
  ScriptedReservation,
} from '../../src/testing';
import { storefrontCatalog } from '../support/storefront-catalog';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

const today = { day: '2026-11-25', expires_at: '2026-11-25T15:00:00.000Z' };
const STATION = 31;

function app(path: string, available: 0 | 1 | null) {
  const catalog = storefrontCatalog(
    aTopPage({
      tab_list: [aTab(), aTab({ tab_id: 7, tab_name: 'チケット台', tab_slug: 'ticket', tab_kind: 'point_ticket' })],
    }),
  ).always('lookUpPrizes', {
    prize: [aPrizeItem({ station_id: STATION, designated_type: 'point_ticket', play_price: 0 })],
    prize_fes: [],
    prize_ticket: [],
  } as never);
  const user = aUserData(available === null ? {} : { daily_free_play: { available, ...today } });
  const account = new ScriptedAccount().always('userData', user);
  const plays = new ScriptedPlay()
    .always('stationInfo', { kind: 'info', info: aStationInfo() })
    .always('current', null)
    .always('gauge', anAssistGauge());
  const reservations = new ScriptedReservation().always('visit', {
    kind: 'watching',
    info: aStationReserveInfo({ station_id: STATION, reserve_status: null, reserve_num: 0 }),
  });
  render(
    <OnkureApp
      container={createTestContainer(
        [TOKENS.PrizeCatalogPort, catalog.port],
        [TOKENS.AccountPort, account.port],
        [TOKENS.PlayPort, plays.port],
        [TOKENS.ReservationPort, reservations.port],
        [TOKENS.SessionPort, new FakeSession(anIdentity({ user_id: 42 }))],
      )}
      initialPath={path}
    />,
  );
}

describe('the daily free play in the pages [R11-8]', () => {
  it('[R11-8] the top page shows the day\u2019s free play while it is there, with the way to the ticket stations; not once used', async () => {
    app('/', 1);
    const note = await screen.findByTestId('daily-free-play');
    expect(within(note).getByRole('heading').textContent).toBe('本日の無料プレイ');
    expect(note.textContent).toContain('ポイントチケット台で1回、無料で遊べます（今日の24:00まで）');
    expect(within(note).getByRole('link', { name: 'チケット台を見る' }).getAttribute('href')).toBe('/ticket');
    cleanup();
    app('/', 0);
    await screen.findAllByTestId('prize-card');
    expect(screen.queryByTestId('daily-free-play')).toBeNull();
  });

  it('[R11-8] a ticket station says the free play is usable today, or that it was used', async () => {
    app(`/game/${STATION}`, 1);
    expect((await screen.findByTestId('daily-free-station')).textContent).toBe(
      '本日の無料プレイが使えます。チケットは減りません（今日の24:00まで）',
    );
    cleanup();
    app(`/game/${STATION}`, 0);
    expect((await screen.findByTestId('daily-free-station')).textContent).toBe(
      '本日の無料プレイは使いました。明日またログインすると1回遊べます',
    );
  });
});
