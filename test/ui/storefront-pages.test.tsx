/** @vitest-environment jsdom */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS, type PrizeSearchResult } from '../../src/application';
import { ContainerProvider } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import {
  aCarouselSlide,
  aCharacter,
  anIdentity,
  anInformationItem,
  aNewArrival,
  aPrizeItem,
  aTab,
  aTopPage,
  FakeSession,
  RecordingAnalytics,
  anAppConfig,
  ScriptedAccount,
  ScriptedAuth,
  ScriptedPrizeCatalog,
  ScriptedWallet,
} from '../../src/testing';
import type { BuildTarget } from '../../src/domain';

const anAppConfigFor = (target: BuildTarget) => anAppConfig({ target });
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

const slides = [1, 2, 3, 4].map((id) =>
  aCarouselSlide({
    id,
    title: `ピックアップ${id}`,
    type_id: id === 2 ? 2 : 1,
    link: id === 2 ? 'うさぎ' : `feature-${id}`,
  }),
);
const news = [
  anInformationItem({ id: 1, tag: 'winter', title: '冬の新景品が登場しました' }),
  anInformationItem({ id: 2, tag: 'maintenance-1', category: 'メンテナンス', title: '定期メンテナンスのお知らせ' }),
];
const tabs = [
  aTab({ tab_id: 1, tab_name: 'ホーム', tab_slug: 'home', tab_kind: 'home' }),
  aTab({ tab_id: 7, tab_name: 'VIP', tab_slug: 'vip', tab_kind: 'vip' }),
];

function catalogue() {
  return new ScriptedPrizeCatalog()
    .always(
      'topPage',
      aTopPage({
        tab_list: tabs,
        new_user: { img: '/api/images/new-user.svg' },
        sale_list: [
          {
            tab_id: 5,
            title: 'おすすめ',
            list: [aPrizeItem({ station_id: 9, prize_name: 'もちもちうさぎ ミルク BIGぬいぐるみ' })],
          },
        ],
      }),
    )
    .always('characters', [aCharacter()])
    .always('carousels', slides)
    .always('startNews', { list: news, total_count: 2 })
    .always('newArrivals', [aNewArrival({ name: 'ねこまる マスコット' })])
    .always('information', { list: news, total_count: 2, page: 1, num: 100, page_count: 1 });
}

function open(
  path: string,
  opts: {
    catalog?: ScriptedPrizeCatalog;
    session?: FakeSession;
    wallet?: ScriptedWallet;
    auth?: ScriptedAuth;
    analytics?: RecordingAnalytics;
    account?: ScriptedAccount;
  } = {},
) {
  const catalog = opts.catalog ?? catalogue();
  const session = opts.session ?? new FakeSession();
  const analytics = opts.analytics ?? new RecordingAnalytics();
  const { router, element: routed } = memoryRouter(routes, path);
  render(
    <ContainerProvider
      container={createTestContainer(
        [TOKENS.PrizeCatalogPort, catalog.port],
        [TOKENS.SessionPort, session],
        [TOKENS.AnalyticsPort, analytics],
        [TOKENS.WalletPort, (opts.wallet ?? new ScriptedWallet()).port],
        [TOKENS.AuthPort, (opts.auth ?? new ScriptedAuth()).port],
        [TOKENS.AccountPort, (opts.account ?? new ScriptedAccount()).port],
      )}
    >
      {routed}
    </ContainerProvider>,
  );
  return { router, catalog, analytics };
}

describe('the top page rows', () => {
  it('[R9-2] shows the carousel with the first 3 slides in the side banner, the news, the new arrivals and, for a guest, the new-user image', async () => {
    const { analytics, router } = open('/');
    const carousel = await screen.findByTestId('carousel');
    expect(within(carousel).getByRole('img').getAttribute('alt')).toBe('ピックアップ1');
    expect(
      within(screen.getByTestId('side-banner'))
        .getAllByRole('img')
        .map((i) => i.getAttribute('alt')),
    ).toEqual(['ピックアップ1', 'ピックアップ2', 'ピックアップ3']);
    expect(await screen.findByRole('link', { name: /冬の新景品が登場しました/ })).toBeTruthy();
    expect(screen.getByText('ねこまる マスコット')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'はじめての方へ：無料の練習台で遊び方をチェック' })).toBeTruthy();

    await userEvent.click(within(carousel).getByRole('button', { name: '次のピックアップ' }));
    const second = within(carousel).getByRole('link');
    expect(second.getAttribute('href')).toBe('/?keyword=%E3%81%86%E3%81%95%E3%81%8E');
    await userEvent.click(second);
    expect(analytics.sent.map((e) => [e.name, e.params])).toEqual([
      ['carousel_click', expect.objectContaining({ carousel_id: 2, title: 'ピックアップ2', type_id: 2, site_type: 1 })],
    ]);
    expect(router.state.location.search).toBe('?keyword=%E3%81%86%E3%81%95%E3%81%8E');
  });

  it('[R7-12] a tab click is reported as filtering_click with the tab', async () => {
    const { analytics } = open('/');
    await userEvent.click(await screen.findByRole('link', { name: 'VIP' }));
    expect(analytics.sent[0]).toMatchObject({
      name: 'filtering_click',
      params: { title_all: 'VIP', filter_type_id: 7, site_type: 1 },
    });
  });

  it("[R2.5-2] a station card's details button opens the prize detail, which leads to the play screen", async () => {
    const { router } = open('/');
    await userEvent.click(await screen.findByRole('button', { name: 'もちもちうさぎ ミルク BIGぬいぐるみの詳細' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('heading', { name: 'もちもちうさぎ ミルク BIGぬいぐるみ' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('link', { name: 'この台で遊ぶ' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/play\/.+\/9$/));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('the pick-up list opens from the carousel as a modal with every slide', async () => {
    open('/');
    await userEvent.click(await screen.findByRole('button', { name: 'すべて見る' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findAllByRole('img')).toHaveLength(4);
  });
});

describe('information pages (§2.1)', () => {
  it('[R2.1-1] /information lists the news and a row opens its detail at /information/{tag}', async () => {
    const { router, catalog } = open('/information');
    expect(await screen.findByRole('heading', { level: 1, name: 'お知らせ一覧' })).toBeTruthy();
    expect(catalog.callsOf('information')[0]).toEqual([{ shopId: 1, page: 1, num: 100 }]);
    await userEvent.click(screen.getByRole('link', { name: /定期メンテナンスのお知らせ/ }));
    expect(router.state.location.pathname).toBe('/information/maintenance-1');
    expect(await screen.findByRole('heading', { level: 1, name: '定期メンテナンスのお知らせ' })).toBeTruthy();
    expect(catalog.callsOf('information').at(-1)).toEqual([{ shopId: 1, page: 1, num: 1, tag: 'maintenance-1' }]);
  });

  it('[R2.1-5] an information tag that fails the route rule, or names nothing, is the 404 page with the full path', async () => {
    open('/information/Bad%20Tag');
    expect((await screen.findByTestId('error-path')).textContent).toBe('Page Not Found /information/Bad%20Tag');
    cleanup();
    const empty = catalogue().always('information', { list: [], total_count: 0, page: 1, num: 1, page_count: 0 });
    open('/information/nothing-here', { catalog: empty });
    expect((await screen.findByTestId('error-path')).textContent).toBe('Page Not Found /information/nothing-here');
  });

  it('[R2.5-1] [R2.5-2] the news modal opens from the menu (a sub-modal), so an item opens in place; opened alone, an item opens the news detail over it', async () => {
    open('/');
    await userEvent.click(await screen.findByRole('button', { name: 'メニュー' }));
    await userEvent.click(await screen.findByRole('button', { name: 'お知らせ' }));
    await userEvent.click(await screen.findByRole('button', { name: /冬の新景品が登場しました/ }));
    expect(await screen.findByRole('heading', { name: '冬の新景品が登場しました' })).toBeTruthy();
    expect(screen.getAllByRole('dialog')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'お知らせにもどる' }));
    expect(await screen.findByRole('button', { name: /定期メンテナンスのお知らせ/ })).toBeTruthy();
    // Escape closes the sub-modal, then the menu.
    await userEvent.keyboard('{Escape}');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryAllByRole('dialog')).toHaveLength(0));
  });
});

describe('guarded and account pages', () => {
  it('[R2.2-2] /emailvalid sends a guest to /', async () => {
    const { router } = open('/emailvalid');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('[R2.2-2] /emailvalid admits a new unverified account: it sends the code and verifies it', async () => {
    const auth = new ScriptedAuth()
      .always('emailStatus', {
        email: null,
        verified: false,
        verifiedAt: null,
        createdAt: '2026-11-20T00:00:00Z',
        verificationRequired: true,
        cutoff: '2025-04-01T00:00:00+09:00',
      })
      .always('sendEmailCode', { expiresAt: '2026-11-23T12:30:00+09:00' })
      .always('verifyEmail', { email: 'hana@example.jp', verifiedAt: '2026-11-23T12:01:00+09:00' });
    open('/emailvalid', { session: new FakeSession(anIdentity()), auth });
    await userEvent.type(await screen.findByRole('textbox', { name: 'メールアドレス' }), 'hana@example.jp');
    await userEvent.click(screen.getByRole('button', { name: '確認コードを送る' }));
    expect(await screen.findByText(/hana@example.jp に確認コードを送りました（12:30まで有効）/)).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: '確認コード' }), '123456');
    await userEvent.click(screen.getByRole('button', { name: '確認する' }));
    expect(await screen.findByText('hana@example.jp の確認が完了しました。ありがとうございます。')).toBeTruthy();
    expect(auth.callsOf('verifyEmail')).toEqual([['123456']]);
  });

  it('[R2.5-4] the settlement page sends a guest to the login page and back', async () => {
    const { router } = open('/settlement');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?next=%2Fsettlement');
  });

  it('[R8-9] the settlement page shows the product load error from error_info', async () => {
    const wallet = new ScriptedWallet()
      .always('balance', { tc_all: 1200, tc_free: 1000, tc_toll: 200 })
      .always('payMethods', [
        {
          id: 'credit_card',
          kind: 'credit_card',
          name: 'クレジットカード',
          info: '各種カードが使えます',
          imgUrl: '/c.svg',
          rank_id: 0,
        },
      ])
      .answer('products', {
        value: { products: [], registeredBirth: true, bonusItems: [], isTcSale: false, isTicketPresent: false },
      })
      .answer('products', {
        error: Object.assign(new Error('refused'), { code: 503, info: 'ただいま商品を準備しています。' }),
      });
    open('/settlement', { session: new FakeSession(anIdentity()), wallet });
    expect((await screen.findByTestId('product-error')).textContent).toBe('ただいま商品を準備しています。');
    expect(screen.getByTestId('tc-balance').textContent).toBe('所持TC 1,200（無償 1,000・有償 200）');
    // The page opened the purchase modal on arrival: its top step.
    expect(screen.getByTestId('modal-purchase').querySelector('[data-testid="purchase-top"]')).not.toBeNull();
  });

  it('[R2.1-5] a purchase slug other than ours, or a malformed settlement id, is the 404 page', async () => {
    open('/purchase/other-pay?product_id=1', { session: new FakeSession(anIdentity()) });
    expect((await screen.findByTestId('error-path')).textContent).toBe(
      'Page Not Found /purchase/other-pay?product_id=1',
    );
    cleanup();
    open('/purchase/account-pay/result/not-an-id', { session: new FakeSession(anIdentity()) });
    expect((await screen.findByTestId('error-path')).textContent).toBe(
      'Page Not Found /purchase/account-pay/result/not-an-id',
    );
  });

  it("[R2.1-1] /arrival-items lists the prize store's new arrivals", async () => {
    const { catalog } = open('/arrival-items');
    expect(await screen.findByRole('heading', { level: 1, name: '新入荷景品' })).toBeTruthy();
    expect(await screen.findByText('ねこまる マスコット')).toBeTruthy();
    expect(catalog.callsOf('newArrivals')[0]).toEqual([50]);
  });
});

describe('title search (§2.5) with every search param [R3-17]', () => {
  const found = (n: number): PrizeSearchResult => ({
    prize: {
      list: Array.from({ length: n }, (_, i) => aPrizeItem({ station_id: i + 1, prize_name: `景品${i + 1}` })),
      total_count: n,
      page: 1,
      page_count: n > 0 ? 1 : 0,
      page_items_count: 30,
    },
    tab_list: tabs,
    sale_list: [],
  });

  it('[R3-17] sends the chosen params and lists the results in the modal; search_word is reported', async () => {
    const catalog = catalogue().always('searchPrizes', found(2));
    const { analytics } = open('/', { catalog });
    await userEvent.click(await screen.findByRole('button', { name: 'メニュー' }));
    await userEvent.click(await screen.findByRole('button', { name: 'くわしく検索' }));
    const form = await screen.findByRole('search', { name: 'くわしく検索' });
    await userEvent.type(within(form).getByRole('searchbox'), 'うさぎ');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'キャラクター' }), '1');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: '台の種類' }), 'vip');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'プレイ方法' }), 'normal');
    await userEvent.type(within(form).getByRole('textbox', { name: '台番号（カンマ区切り）' }), '3, 5');
    for (const name of [
      'ギフト景品のみ',
      '新着のみ',
      'ナティアのみ',
      'VIP台のみ',
      'VIP独占台のみ',
      '今すぐ遊べる台のみ',
      'すべて表示（ページ分けしない）',
    ]) {
      await userEvent.click(within(form).getByRole('checkbox', { name }));
    }
    await userEvent.click(within(form).getByRole('button', { name: '検索する' }));
    expect(await screen.findByRole('heading', { name: '検索結果 2件' })).toBeTruthy();
    expect(catalog.callsOf('searchPrizes')[0]).toEqual([
      {
        shopId: 1,
        page: 1,
        params: {
          keyword: 'うさぎ',
          character_id: 1,
          station_type: 'vip',
          designated_type: 'normal',
          gift_type: '1',
          station_ids: [3, 5],
          new: 1,
          natia: 1,
          vip: 1,
          exclusive: 1,
          refine_search: 1,
          is_all: 1,
        },
      },
    ]);
    expect(analytics.sent.find((e) => e.name === 'search_word')?.params).toMatchObject({ search_word: 'うさぎ' });
  });

  it('[R8-8] no match opens the prize-not-found alert over the title search', async () => {
    const catalog = catalogue().always('searchPrizes', found(0));
    open('/', { catalog });
    await userEvent.click(await screen.findByRole('button', { name: 'メニュー' }));
    await userEvent.click(await screen.findByRole('button', { name: 'くわしく検索' }));
    await userEvent.click(await screen.findByRole('button', { name: '検索する' }));
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(2));
  });
});

describe('notice toast', () => {
  it('[R2.5-6] saving a setting shows a notice toast', async () => {
    open('/', { session: new FakeSession(anIdentity()), account: new ScriptedAccount().always('setVolume', 0) });
    await userEvent.click(await screen.findByRole('button', { name: 'メニュー' }));
    await userEvent.click(await screen.findByRole('button', { name: '設定' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'サウンド' }));
    expect((await screen.findByTestId('toast')).textContent).toBe('設定を保存しました');
  });
});

describe('the five build targets (§2.3) on the storefront', () => {
  const targets = ['web', 'ios', 'android', 'yahoo', 'mobage'] as const;
  const card = aPrizeItem({
    station_id: 9,
    prize_name: 'もちもちうさぎ ミルク BIGぬいぐるみ',
    character: 'もちもちうさぎ',
    sub_character: 'ミルク',
  });

  it.each(targets)(
    '[R2.3-2] [R2.3-5] [R2.3-6] %s: character browsing only on web, the play path of the target, tag paths 404 off web',
    async (target) => {
      const catalog = catalogue()
        .always('topPage', aTopPage({ tab_list: tabs, sale_list: [{ tab_id: 5, title: 'おすすめ', list: [card] }] }))
        .always('searchPrizes', {
          prize: { list: [card], total_count: 1, page: 1, page_count: 1, page_items_count: 30 },
          tab_list: tabs,
          sale_list: [],
        });
      const container = createTestContainer(
        [TOKENS.PrizeCatalogPort, catalog.port],
        [TOKENS.AppConfig, { ...anAppConfigFor(target) }],
        [TOKENS.AnalyticsPort, new RecordingAnalytics()],
        [TOKENS.AccountPort, new ScriptedAccount().port],
      );
      const { router, element: routed } = memoryRouter(routes, '/');
      render(<ContainerProvider container={container}>{routed}</ContainerProvider>);
      const link = (await screen.findByTestId('prize-card')).querySelector('a')!;
      expect(link.getAttribute('href')).toBe(
        target === 'web'
          ? '/play/%E3%82%82%E3%81%A1%E3%82%82%E3%81%A1%E3%81%86%E3%81%95%E3%81%8E/%E3%83%9F%E3%83%AB%E3%82%AF/%E3%81%8A%E3%81%99%E3%81%99%E3%82%81/9'
          : '/play/9',
      );
      expect(screen.queryByRole('navigation', { name: 'キャラクター' }) !== null).toBe(target === 'web');
      // The VIP tab: a listing on web, the 404 page elsewhere.
      await userEvent.click(screen.getByRole('link', { name: 'VIP' }));
      if (target === 'web') expect(await screen.findByRole('heading', { level: 1, name: 'VIP' })).toBeTruthy();
      else expect(router.state.location.pathname).toBe('/');
      cleanup();
      render(<ContainerProvider container={container}>{memoryRouter(routes, '/vip').element}</ContainerProvider>);
      if (target === 'web') expect(await screen.findByRole('heading', { level: 1, name: 'VIP' })).toBeTruthy();
      else expect((await screen.findByTestId('error-path')).textContent).toBe('Page Not Found /vip');
    },
  );
});
