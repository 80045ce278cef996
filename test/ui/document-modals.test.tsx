/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS, type ModalStack, type PrizeSearchResult } from '../../src/application';
import {
  ASSIST_MAX_LEVEL,
  ASSIST_MISSES_PER_LEVEL,
  buildCataloguePath,
  DELIVERY_FEE_TC,
  deliveryFeeTc,
  formatThousands,
  KUJI_PER_DELIVERY_PARCEL,
  PLAY_TIMINGS,
  VIP_PURCHASE_WINDOW_DAYS,
  VIP_REQUIRED_PURCHASE_TC,
  VIP_WEEKLY_PRIZE_LIMIT,
  weekStartText,
} from '../../src/domain';
import { ContainerProvider, OnkureApp } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import {
  aCharacter,
  anAssistGauge,
  anIdentity,
  aPrizeItem,
  aStationInfo,
  aStationReserveInfo,
  aTab,
  aTopPage,
  FakeSession,
  ScriptedPlay,
  ScriptedPrizeCatalog,
  ScriptedReservation,
} from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

const TABS = [
  aTab(),
  aTab({ tab_id: 2, tab_name: 'すべて', tab_slug: 'all', tab_kind: 'all' }),
  aTab({ tab_id: 3, tab_name: '新顔', tab_slug: 'new-face', tab_kind: 'new_face' }),
];
const CHARACTERS = [
  aCharacter(),
  aCharacter({
    character_id: 2,
    character_name: 'ねむねむくま',
    character_slug: 'nemu-kuma',
    sub_character: [{ sub_character_id: 3, sub_character_name: 'ココア', sub_character_slug: 'cocoa' }],
  }),
];
const LISTING: PrizeSearchResult = {
  prize: {
    list: [aPrizeItem({ station_id: 1, prize_name: 'もちもちうさぎ BIGぬいぐるみ' })],
    total_count: 1,
    page: 1,
    page_count: 1,
    page_items_count: 30,
  },
  tab_list: TABS,
  sale_list: [],
};

function app(path = '/') {
  const catalog = new ScriptedPrizeCatalog()
    .always('topPage', aTopPage({ tab_list: TABS }))
    .always('characters', CHARACTERS)
    .always('searchPrizes', LISTING);
  const container = createTestContainer([TOKENS.PrizeCatalogPort, catalog.port]);
  const { router, element: routed } = memoryRouter(routes, path);
  render(<ContainerProvider container={container}>{routed}</ContainerProvider>);
  return { router, stack: container.get<ModalStack>(TOKENS.ModalStack) };
}

const footer = () => within(screen.getByRole('navigation', { name: 'サービス情報' }));

async function openFromMenu(title: string): Promise<HTMLElement> {
  if (!screen.queryByTestId('modal-menuTop')) fireEvent.click(screen.getByTestId('open-menu'));
  fireEvent.click(await within(await screen.findByTestId('modal-menuTop')).findByRole('button', { name: title }));
  return screen.findByRole('dialog', { name: title });
}

/** The cells of the table row whose header is `header`. */
const rowCells = (header: string): string[] =>
  [...screen.getByRole('rowheader', { name: header }).closest('tr')!.querySelectorAll('td')].map(
    (td) => td.textContent ?? '',
  );

describe('the information modals', () => {
  it('[R2.5-2] the footer opens the usage rules, TC rules, legal display, privacy policy and FAQ: each named by its title, with its own content; Escape closes it', async () => {
    app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    const cases: readonly (readonly [string, () => unknown])[] = [
      ['利用規約', () => screen.getByRole('heading', { level: 3, name: '第6条（禁止事項）' })],
      ['TC利用規約', () => screen.getByRole('heading', { level: 3, name: '資金決済法に基づく表示' })],
      ['特定商取引法に基づく表示', () => expect(rowCells('販売事業者')).toEqual(['株式会社オンクレ'])],
      ['プライバシーポリシー', () => screen.getByRole('heading', { level: 3, name: '1. 取得する情報' })],
      ['よくある質問', () => screen.getByText('どうやって遊ぶのですか？')],
    ];
    for (const [title, content] of cases) {
      fireEvent.click(footer().getByRole('button', { name: title }));
      const dialog = await screen.findByRole('dialog', { name: title });
      expect(within(dialog).getByRole('heading', { level: 2 }).textContent).toBe(title);
      expect(dialog.getAttribute('data-level')).toBe('main');
      content();
      // The long text scrolls inside the modal, in a region that takes keyboard focus.
      expect(within(dialog).getByRole('region', { name: title }).tabIndex).toBe(0);
      fireEvent.keyDown(dialog, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
  });

  it('[R2.5-2] the menu opens every guide as a sub-modal over it; Escape closes the guide and leaves the menu', async () => {
    app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    const titles = [
      '遊び方',
      'よくある質問',
      'タグ一覧',
      '送料について',
      'VIP特典',
      '利用規約',
      'TC利用規約',
      '特定商取引法に基づく表示',
      'プライバシーポリシー',
    ];
    for (const title of titles) {
      const dialog = await openFromMenu(title);
      expect(dialog.getAttribute('data-level')).toBe('sub');
      expect(within(dialog).getByRole('heading', { level: 2, name: title })).toBeTruthy();
      fireEvent.keyDown(dialog, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('dialog', { name: title })).toBeNull());
      expect(screen.getByTestId('modal-menuTop')).toBeTruthy();
    }
  });

  it('the FAQ is an accordion of <details> that opens from its question', async () => {
    app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    fireEvent.click(footer().getByRole('button', { name: 'よくある質問' }));
    const dialog = await screen.findByRole('dialog', { name: 'よくある質問' });
    for (const heading of [
      'プレイについて',
      '予約・順番待ちについて',
      'TCについて',
      '景品の配送について',
      'VIPについて',
      '台の故障・メンテナンスについて',
    ]) {
      expect(within(dialog).getByRole('heading', { level: 3, name: heading })).toBeTruthy();
    }
    const question = within(dialog).getByText('プレイ中に台が故障しました。使ったTCはどうなりますか？');
    expect(question.tagName).toBe('SUMMARY');
    const details = question.closest('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(question);
    expect(details.open).toBe(true);
    expect(details.textContent).toContain('消費したTCは自動的にお返しします');
    expect(
      within(dialog).getByText('有償TCと無償TCは、どちらから使われますか？').closest('details')!.textContent,
    ).toContain('無償TCから先に使われ');
  });

  it("[R9-1] [R5-3] the shipping cost shows the domain's charges: 8,000 TC a crane prize, kuji by 15 rounded up, waived by a ticket with crane prizes", async () => {
    app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    const dialog = await openFromMenu('送料について');
    const fee = (n: number) => `${formatThousands(n)}TC`;
    expect(within(dialog).getByText(`クレーン景品・オーダーメイド景品：1個につき${fee(DELIVERY_FEE_TC)}`)).toBeTruthy();
    expect(rowCells('クレーン景品1個')).toEqual(['なし', fee(deliveryFeeTc('crane', 1))]);
    expect(rowCells('クレーン景品1個')[1]).toBe('8,000TC');
    expect(rowCells('クレーン景品3個')).toEqual(['なし', '24,000TC']);
    expect(rowCells('オーダーメイド景品1個')).toEqual(['なし', '8,000TC']);
    expect(rowCells(`くじ景品${KUJI_PER_DELIVERY_PARCEL}個`)).toEqual([
      'なし',
      fee(deliveryFeeTc('kuji', KUJI_PER_DELIVERY_PARCEL)),
    ]);
    expect(rowCells('くじ景品15個')[1]).toBe('8,000TC');
    expect(rowCells('くじ景品16個')).toEqual(['なし', fee(deliveryFeeTc('kuji', 16))]);
    expect(rowCells('くじ景品16個')[1]).toBe('16,000TC');
    expect(rowCells('くじ景品30個')[1]).toBe('16,000TC');
    const withTicket = [...dialog.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(withTicket).toContainEqual(['クレーン景品2個＋くじ景品10個', 'なし', '24,000TC']);
    expect(withTicket).toContainEqual(['クレーン景品2個＋くじ景品10個', 'あり', '0TC（通常24,000TCが無料）']);
    expect(withTicket).toContainEqual(['くじ景品10個', 'あり', '8,000TC']);
  });

  it("[R6-3] [R6-4] the VIP benefits state the domain's condition (100,000 TC in 30 days) and the weekly limit reset on Monday", async () => {
    app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    const dialog = await openFromMenu('VIP特典');
    const condition = within(dialog).getByTestId('vip-condition').textContent;
    expect(condition).toBe(
      `過去${VIP_PURCHASE_WINDOW_DAYS}日間の有償TCのご購入額が、合計${formatThousands(VIP_REQUIRED_PURCHASE_TC)}TC以上であること。`,
    );
    expect(condition).toContain('過去30日間');
    expect(condition).toContain('100,000TC');
    const weekly = within(dialog).getByTestId('vip-weekly').textContent;
    expect(weekly).toContain(`1週間に${VIP_WEEKLY_PRIZE_LIMIT}個まで`);
    expect(weekly).toContain(`${weekStartText('long')}（日本時間）にリセット`);
    expect(weekly).toContain('毎週月曜日0時（日本時間）にリセット');
    expect(
      within(dialog).getByText('VIP独占台をプレイできます。プレイ中はほかのお客様が入れないため、じっくり遊べます。'),
    ).toBeTruthy();
  });

  it('the TC rules say free TC is spent first, that TC do not expire (the ledger expires nothing), and no refund except by law', async () => {
    app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    fireEvent.click(footer().getByRole('button', { name: 'TC利用規約' }));
    const dialog = await screen.findByRole('dialog', { name: 'TC利用規約' });
    expect(dialog.textContent).toContain('無償TCが先に使われ、無償TCで足りない分に有償TCが使われます');
    expect(dialog.textContent).toContain('TCに有効期限はありません。');
    expect(dialog.textContent).toContain('法令に定める場合を除き、払い戻し（換金）できません');
    expect(rowCells('発行者')).toEqual(['株式会社オンクレ']);
  });

  it("[R2.3-1] the tag list shows the catalogue's tabs and characters as links; a click goes to that catalogue path and closes the modals", async () => {
    const { router } = app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    const dialog = await openFromMenu('タグ一覧');
    const link = await within(dialog).findByRole('link', { name: 'ねむねむくま' });
    expect(within(dialog).getByRole('link', { name: '新顔' }).getAttribute('href')).toBe(
      buildCataloguePath('web', { tab: 'new-face' }),
    );
    expect(within(dialog).getByRole('link', { name: 'ココア' }).getAttribute('href')).toBe(
      buildCataloguePath('web', { character: 'nemu-kuma', subCharacter: 'cocoa' }),
    );
    expect(link.getAttribute('href')).toBe('/nemu-kuma');
    fireEvent.click(link);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(buildCataloguePath('web', { character: 'nemu-kuma' })),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('ねむねむくま');
  });

  it('[R2.5-1] with the menu and a guide open, a third modal is refused, from the footer too', async () => {
    const { stack, router } = app();
    await screen.findByRole('navigation', { name: 'カテゴリ' });
    await openFromMenu('よくある質問');
    const before = router.state.location.key;
    expect(stack.open('legal')).toBe(false);
    fireEvent.click(footer().getByRole('button', { name: '特定商取引法に基づく表示' }));
    expect(router.state.location.key).toBe(before);
    expect(screen.queryByTestId('modal-legal')).toBeNull();
    expect(screen.getAllByRole('dialog')).toHaveLength(2);
  });
});

describe('the play method on the play screen', () => {
  function playScreen() {
    const catalog = new ScriptedPrizeCatalog().always('lookUpPrizes', {
      prize: [aPrizeItem({ station_id: 7, prize_name: 'もちもちうさぎ ミルク BIGぬいぐるみ' })],
      prize_fes: [],
      prize_ticket: [],
    });
    const plays = new ScriptedPlay()
      .always('stationInfo', { kind: 'info', info: aStationInfo() })
      .always('gauge', anAssistGauge())
      .always('current', null);
    const reservations = new ScriptedReservation().always('visit', {
      kind: 'watching',
      info: aStationReserveInfo({ station_id: 7, reserve_status: null, reserve_num: 0 }),
    });
    const container = createTestContainer(
      [TOKENS.PrizeCatalogPort, catalog.port],
      [TOKENS.PlayPort, plays.port],
      [TOKENS.ReservationPort, reservations.port],
      [TOKENS.SessionPort, new FakeSession(anIdentity({ user_id: 42 }))],
    );
    render(<OnkureApp container={container} initialPath="/game/7" />);
  }

  it("[R2.5-2] the play screen's 遊び方 button opens the play method with the PLAY_TIMINGS windows and the assist gauge steps", async () => {
    playScreen();
    fireEvent.click(await screen.findByTestId('open-play-method'));
    const dialog = await screen.findByRole('dialog', { name: '遊び方' });
    const s = (ms: number) => `${ms / 1000}秒`;
    expect(rowCells('順番が来てから「プレイ開始」を押すまで')).toEqual([s(PLAY_TIMINGS.confirmMs)]);
    expect(rowCells('ボタンが自動で押されるまで（各ボタン）')).toEqual([s(PLAY_TIMINGS.buttonLimitMs)]);
    expect(rowCells('「続けてプレイ」を受け付ける時間')).toEqual([s(PLAY_TIMINGS.continueMs)]);
    expect(rowCells('通信が切れたとき、続きから遊べる時間')).toEqual([s(PLAY_TIMINGS.graceMs)]);
    expect(rowCells('順番が来てから「プレイ開始」を押すまで')).toEqual(['15秒']);
    const text = dialog.textContent ?? '';
    expect(text).toContain('「→」ボタン：押している間、アームが右へ動きます。');
    expect(text).toContain('「↑」ボタン：押している間、アームが奥へ動きます。');
    expect(text).toContain('それぞれ1回ずつ');
    expect(text).toContain(`アームの準備（約${PLAY_TIMINGS.resetMs / 1000}秒）`);
    expect(text).toContain(
      `${ASSIST_MISSES_PER_LEVEL}回ミスするごとにレベルが1つ上がり、アームパワーが+6%ずつ強くなります（最大レベル${ASSIST_MAX_LEVEL}・+30%）`,
    );
  });

  it("arrow keys inside the play method scroll it and never reach the play screen's crane keys", async () => {
    playScreen();
    fireEvent.click(await screen.findByTestId('open-play-method'));
    const dialog = await screen.findByRole('dialog', { name: '遊び方' });
    const seen: string[] = [];
    const onKey = (e: KeyboardEvent) => seen.push(e.key);
    window.addEventListener('keydown', onKey);
    try {
      fireEvent.keyDown(within(dialog).getByRole('region', { name: '遊び方' }), { key: 'ArrowUp' });
      fireEvent.keyDown(within(dialog).getByRole('region', { name: '遊び方' }), { key: 'ArrowRight' });
    } finally {
      window.removeEventListener('keydown', onKey);
    }
    expect(seen).toEqual([]);
  });
});
