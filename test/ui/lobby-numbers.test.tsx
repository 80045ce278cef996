/** @vitest-environment jsdom */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { OnkureApp } from '../../src/ui';
import { aPrizeItem, aTopPage, FakeRealtime } from '../../src/testing';
import { storefrontCatalog } from '../support/storefront-catalog';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

describe('the lobby numbers on the catalogue cards (issue 45)', () => {
  it('each card shows its viewers and line as the lobby call answered, and a pushed update changes them in place', async () => {
    const catalog = storefrontCatalog(
      aTopPage({
        sale_list: [
          { tab_id: 5, title: 'おすすめ', list: [aPrizeItem({ station_id: 1 }), aPrizeItem({ station_id: 2 })] },
        ],
      }),
    ).always('lobby', [
      { station_id: 1, station_status: 'open', playing: 0, visit_count: 4, reserve_count: 1 },
      { station_id: 2, station_status: 'open', playing: 1, visit_count: 12, reserve_count: 3 },
    ]);
    const realtime = new FakeRealtime();
    render(
      <OnkureApp
        container={createTestContainer([TOKENS.PrizeCatalogPort, catalog.port], [TOKENS.RealtimePort, realtime])}
        initialPath="/"
      />,
    );
    const card = async (id: number) =>
      (await screen.findAllByTestId('prize-card')).find((c) => c.getAttribute('data-station-id') === String(id))!;
    await waitFor(async () =>
      expect(within(await card(1)).getByTestId('prize-card-lobby').textContent).toBe('視聴 4人・待ち 1人'),
    );
    expect(within(await card(2)).getByTestId('prize-card-lobby').textContent).toBe('視聴 12人・待ち 3人');
    act(() =>
      realtime.emit(
        { kind: 'top' },
        {
          type: 'list',
          stations: [{ station_id: 2, station_status: 'open', playing: 1, visit_count: 13, reserve_count: 4 }],
        },
      ),
    );
    await waitFor(async () =>
      expect(within(await card(2)).getByTestId('prize-card-lobby').textContent).toBe('視聴 13人・待ち 4人'),
    );
    expect(within(await card(1)).getByTestId('prize-card-lobby').textContent).toBe('視聴 4人・待ち 1人');
  });
});
