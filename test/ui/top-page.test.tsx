/** @vitest-environment jsdom */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { OnkureApp } from '../../src/ui';
import { ScriptedPrizeCatalog, anAppConfig, aPrizeItem, aTopPage } from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

describe('top page over a scripted catalogue bound in the container', () => {
  it('[R1-4] shows the prize list from the use-case, in Japanese', async () => {
    const api = new ScriptedPrizeCatalog()
      .always('characters', [])
      .always('carousels', [])
      .always('startNews', { list: [], total_count: 0 })
      .always('newArrivals', [])
      .always(
        'topPage',
        aTopPage({
          sale_list: [
            {
              tab_id: 5,
              title: 'おすすめ',
              list: [
                aPrizeItem(),
                aPrizeItem({
                  station_id: 2,
                  prize_name: 'ねこまる しろまる マグカップ',
                  type: 'vip',
                  new: 1,
                  play_price: 250,
                }),
              ],
            },
            {
              tab_id: 9,
              title: '練習台',
              list: [
                aPrizeItem({
                  station_id: 3,
                  prize_name: 'ぱんだ日和 こぱん クッキー缶',
                  designated_type: 'practice',
                  play_price: 0,
                }),
              ],
            },
          ],
        }),
      );
    render(<OnkureApp container={createTestContainer([TOKENS.PrizeCatalogPort, api.port])} initialPath="/" />);

    const cards = await screen.findAllByTestId('prize-card');
    expect(cards).toHaveLength(3);
    expect(screen.getByRole('heading', { name: 'おすすめ' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '練習台' })).toBeTruthy();
    const vip = cards[1]!;
    expect(within(vip).getByText('ねこまる しろまる マグカップ')).toBeTruthy();
    expect(within(vip).getByText('VIP')).toBeTruthy();
    expect(within(vip).getByText('NEW')).toBeTruthy();
    expect(within(vip).getByText('1回 250 TC')).toBeTruthy();
    expect(within(cards[2]!).getByText('無料練習')).toBeTruthy();
    // StrictMode mounts the page twice in development: the first scope's request is cancelled.
    expect(new Set(api.calls.map((call) => JSON.stringify(call)))).toEqual(
      new Set([
        JSON.stringify({ method: 'topPage', args: [{ shopId: 1 }] }),
        JSON.stringify({ method: 'characters', args: [] }),
        // The editorial rows, each asked for by itself: carousel, top-page news (100), new arrivals (50).
        JSON.stringify({ method: 'carousels', args: [{ shopId: 1 }] }),
        JSON.stringify({ method: 'startNews', args: [{ shopId: 1, only: 'topPage', page: 1, num: 100 }] }),
        JSON.stringify({ method: 'newArrivals', args: [50] }),
        // The lobby's numbers (issue 45).
        JSON.stringify({ method: 'lobby', args: [] }),
      ]),
    );
  });

  it("[R2.3-6] [R5-2] each card opens its station's play screen at the play path of the build target", async () => {
    const items = [
      aPrizeItem({ station_id: 4, character: 'もちもちうさぎ', sub_character: 'ミルク' }),
      aPrizeItem({ station_id: 9, type: 'vip', disclosure: 1 }),
    ];
    const api = new ScriptedPrizeCatalog()
      .always('characters', [])
      .always('topPage', aTopPage({ sale_list: [{ tab_id: 5, title: 'おすすめ', list: items }] }));
    render(<OnkureApp container={createTestContainer([TOKENS.PrizeCatalogPort, api.port])} initialPath="/" />);
    const cards = await screen.findAllByTestId('prize-card');
    const href = (card: HTMLElement) => within(card).getByRole('link').getAttribute('href');
    expect(href(cards[0]!)).toBe(
      `/play/${encodeURIComponent('もちもちうさぎ')}/${encodeURIComponent('ミルク')}/${encodeURIComponent('おすすめ')}/4`,
    );
    // A VIP card opens directly too; the play screen asks the server, which answers the gate [R5-2].
    expect(href(cards[1]!)).toMatch(/\/9$/);
    expect(cards[1]!.getAttribute('data-disclosure')).toBe('1');
    cleanup();
    render(
      <OnkureApp
        container={createTestContainer(
          [TOKENS.PrizeCatalogPort, api.port],
          [TOKENS.AppConfig, anAppConfig({ target: 'ios' })],
        )}
        initialPath="/"
      />,
    );
    expect(href((await screen.findAllByTestId('prize-card'))[0]!)).toBe('/play/4');
  });

  it('renders a prize name with markup as inert text', async () => {
    const api = new ScriptedPrizeCatalog().always('characters', []).always(
      'topPage',
      aTopPage({
        sale_list: [
          {
            tab_id: 5,
            title: 'おすすめ',
            list: [aPrizeItem({ prize_name: '<img src=x onerror=alert(1)>ぬいぐるみ' })],
          },
        ],
      }),
    );
    const { container } = render(
      <OnkureApp container={createTestContainer([TOKENS.PrizeCatalogPort, api.port])} initialPath="/" />,
    );
    expect(await screen.findByText('<img src=x onerror=alert(1)>ぬいぐるみ')).toBeTruthy();
    expect(container.querySelector('img[src="x"]')).toBeNull();
  });

  it('shows a Japanese error with a retry button when the catalogue cannot be read, and retries', async () => {
    // Every read fails until the network is back (however often the page asks meanwhile); the retry succeeds.
    let online = false;
    const api = new ScriptedPrizeCatalog().always('characters', []).always('topPage', aTopPage());
    const port = new Proxy(api.port, {
      get: (target, key, receiver) =>
        key === 'topPage' && !online
          ? () => throwError(() => new Error('offline'))
          : Reflect.get(target, key, receiver),
    });
    render(<OnkureApp container={createTestContainer([TOKENS.PrizeCatalogPort, port])} initialPath="/" />);
    expect((await screen.findByRole('alert')).textContent).toContain('景品一覧を読み込めませんでした');
    online = true;
    await userEvent.click(screen.getByRole('button', { name: 'もう一度読み込む' }));
    expect(await screen.findAllByTestId('prize-card')).toHaveLength(1);
  });

  it('[R2.6-1] shows the Japanese not-found page for an unknown path', async () => {
    render(
      <OnkureApp
        container={createTestContainer([
          TOKENS.PrizeCatalogPort,
          new ScriptedPrizeCatalog().always('characters', []).always('topPage', aTopPage()).port,
        ])}
        initialPath="/no/such/page"
      />,
    );
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('ページが見つかりません。');
  });
});
