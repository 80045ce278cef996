import { filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountPayment,
  BuyTc,
  Notices,
  type ReadInformation,
  TOKENS,
  TopPageExtras,
  TrackEvent,
  type VerifyEmail,
  type AuthPort,
  type SessionPort,
  type StateStore,
} from '../../src/application';
import { createAppContainer } from '../../src/main/container';
import {
  anAppConfig,
  anIdentity,
  FakeSession,
  ManualClock,
  RecordingAnalytics,
  ScriptedAccount,
  ScriptedPrizeCatalog,
  ScriptedWallet,
} from '../../src/testing';
import { injectFetch } from '../support/inject-fetch';
import { cardFields, CARDS, providerStep } from '../support/payments';
import { PURCHASE_MESSAGES } from '../../src/domain';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

/** The first state of a use-case that passes `test`. */
function stateWhere<S>(useCase: StateStore<S>, test: (s: S) => boolean): Promise<S> {
  return firstValueFrom(useCase.state$.pipe(filter(test)));
}

describe('storefront use-cases against the reference server (real ky adapters, in-process through inject)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true });
  });
  afterAll(async () => t?.close());

  /** The app's real container over the test server; `paths` lists every call it makes. */
  function app() {
    const paths: string[] = [];
    const inject = injectFetch(t.server.app);
    const fetchVia: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      paths.push(new URL(request.url).pathname);
      return inject(request);
    };
    const visited: string[] = [];
    const container = createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, timeoutMs: 10_000 }, [], {
      storage: null,
      cookies: () => '',
      navigator: { reload: () => undefined, goTo: (url) => void visited.push(url) },
      fetch: fetchVia,
    });
    return { container, paths, visited, session: container.get<SessionPort>(TOKENS.SessionPort) };
  }

  it('[R2.1-1] [R9-2] the information list pages 100 at a time and a tag opens its one item', async () => {
    const { container } = app();
    const info = container.get<ReadInformation>(TOKENS.ReadInformation);
    info.openList(1);
    const first = await stateWhere(info, (s) => s.kind === 'list');
    expect(first.kind === 'list' && first.page).toMatchObject({ page: 1, num: 100, page_count: 2, total_count: 123 });
    expect(first.kind === 'list' && first.page.list).toHaveLength(100);
    info.openList(2);
    const second = await stateWhere(info, (s) => s.kind === 'list' && s.page.page === 2);
    expect(second.kind === 'list' && second.page.list).toHaveLength(23);
    info.openDetail('beginners-guide');
    const detail = await stateWhere(info, (s) => s.kind === 'detail');
    expect(detail.kind === 'detail' && detail.item).toMatchObject({
      tag: 'beginners-guide',
      title: 'はじめての方へ：オンクレの遊び方',
    });
    info.dispose();
  });

  it('[R2.1-5] a tag that fails the route rule is not found without asking; an unknown or scheduled tag is not found after asking', async () => {
    const { container, paths } = app();
    const info = container.get<ReadInformation>(TOKENS.ReadInformation);
    info.openDetail('../admin');
    expect(info.snapshot).toEqual({ kind: 'notFound' });
    expect(paths).toEqual([]);
    info.openDetail('info-scheduled');
    await stateWhere(info, (s) => s.kind === 'notFound' && paths.length === 1);
    expect(paths).toEqual(['/api/contents/information']);
    info.dispose();
  });

  it('[R9-2] [R7-7] the top page rows: every carousel slide, the first 3 in the side banner, the top-page news and 50 new arrivals at most', async () => {
    const { container } = app();
    const extras = container.get<TopPageExtras>(TOKENS.TopPageExtras);
    extras.load();
    const s = await stateWhere(
      extras,
      (x) => x.carousels.kind === 'loaded' && x.news.kind === 'loaded' && x.arrivals.kind === 'loaded',
    );
    const slides = s.carousels.kind === 'loaded' ? s.carousels.items : [];
    expect(slides.length).toBe(5);
    expect(s.sideBanner.map((x) => x.id)).toEqual(slides.slice(0, 3).map((x) => x.id));
    expect(s.news.kind === 'loaded' && s.news.items.every((i) => i.is_top_page === 1)).toBe(true);
    expect(s.news.kind === 'loaded' && s.news.items.length).toBe(12);
    expect(s.arrivals.kind === 'loaded' && s.arrivals.items.length).toBeGreaterThan(0);
    expect(s.arrivals.kind === 'loaded' && s.arrivals.items.length).toBeLessThanOrEqual(50);
    extras.dispose();
  });

  it('[R2.2-2] /emailvalid: a guest and an old account go to /, a new unverified account verifies its address with the code it was sent', async () => {
    const guest = app();
    const forGuest = guest.container.get<VerifyEmail>(TOKENS.VerifyEmail);
    await forGuest.start();
    expect(forGuest.snapshot).toEqual({ kind: 'redirect', to: '/' });
    expect(guest.paths).toEqual([]);

    const old = app();
    old.session.signIn(await createTestUser(t, { created_at: '2024-01-01T00:00:00Z' }));
    const forOld = old.container.get<VerifyEmail>(TOKENS.VerifyEmail);
    await forOld.start();
    expect(forOld.snapshot).toEqual({ kind: 'redirect', to: '/' });

    const fresh = app();
    fresh.session.signIn(await createTestUser(t));
    const verify = fresh.container.get<VerifyEmail>(TOKENS.VerifyEmail);
    await verify.start();
    expect(verify.snapshot).toMatchObject({ kind: 'form', email: '', sentTo: null });
    await verify.sendCode('not-an-address');
    expect(verify.snapshot).toMatchObject({
      kind: 'form',
      sentTo: null,
      error: expect.stringMatching(/メールアドレス/),
    });
    await verify.sendCode('shinki@example.jp');
    expect(verify.snapshot).toMatchObject({ kind: 'form', sentTo: 'shinki@example.jp', error: null });
    await verify.verify('000000');
    expect(verify.snapshot).toMatchObject({ kind: 'form', error: expect.stringMatching(/[ぁ-ん]/) });
    const outbox = await firstValueFrom(fresh.container.get<AuthPort>(TOKENS.AuthPort).devOutbox());
    const code = /(\d{6})/.exec(outbox[0]!.body)![1]!;
    await verify.verify(code);
    expect(verify.snapshot).toEqual({ kind: 'verified', email: 'shinki@example.jp' });
    // Verified now: the guard turns the same player away.
    const again = fresh.container.get<VerifyEmail>(TOKENS.VerifyEmail);
    await again.start();
    expect(again.snapshot).toEqual({ kind: 'redirect', to: '/' });
  });

  it('[R2.5-4] [R2.5-5] [R10-2] buying TC: a guest signs in first; no birth date means the age step; then the provider page, and the purchase adds TC once', async () => {
    const guest = app();
    const forGuest = guest.container.get<BuyTc>(TOKENS.BuyTc);
    await forGuest.start();
    expect(forGuest.snapshot).toEqual({ kind: 'signIn' });

    const { container, session } = app();
    session.signIn(await createTestUser(t));
    const buy = container.get<BuyTc>(TOKENS.BuyTc);
    await buy.start();
    expect(buy.snapshot).toMatchObject({ kind: 'age' });
    await buy.registerBirth('1990-05-05');
    const top = buy.snapshot;
    expect(top.kind).toBe('top');
    if (top.kind !== 'top') return;
    expect(top.balance.tc_all).toBe(0);
    expect(top.methods[0]?.id).toBe(top.method);
    expect(top.limit).toMatchObject({ capYen: null, spentYen: 0 });
    const card = top.methods.find((m) => m.kind === 'credit_card')!;
    await buy.chooseMethod(card.id);
    const product = (buy.snapshot.kind === 'top' ? buy.snapshot.list?.products : undefined)![0]!;
    await buy.buy(product.productId);
    const paying = buy.snapshot;
    expect(paying).toMatchObject({ kind: 'paying', checking: false, settlement: { status: 'pending' } });
    if (paying.kind !== 'paying') return;
    await providerStep(t, paying.settlement.paymentUrl!, 'card', cardFields(CARDS.ok));
    await buy.returned();
    expect(buy.snapshot).toMatchObject({
      kind: 'complete',
      settlement: { status: 'completed' },
      balance: { tc_all: product.toll_tc + product.free_tc },
    });
  });

  it("a declined card ends in the error step with the provider's message; a cancel in the cancel step", async () => {
    const { container, session } = app();
    session.signIn(await createTestUser(t, { birth: '1990-05-05' }));
    const buy = container.get<BuyTc>(TOKENS.BuyTc);
    for (const [fields, kind, message] of [
      [cardFields(CARDS.declined), 'failed', PURCHASE_MESSAGES.failure.card_declined],
      [null, 'cancelled', PURCHASE_MESSAGES.failure.cancelled],
    ] as const) {
      await buy.start();
      const product = (buy.snapshot.kind === 'top' ? buy.snapshot.list?.products : undefined)![0]!;
      await buy.buy(product.productId);
      const url = buy.snapshot.kind === 'paying' ? buy.snapshot.settlement.paymentUrl! : '';
      if (fields) await providerStep(t, url, 'card', fields);
      else await providerStep(t, url, 'cancel');
      await buy.returned();
      expect(buy.snapshot).toEqual({ kind, message });
    }
  });

  it('the account-based payment: the start page opens the settlement and goes to the bank pages; the result page reads it', async () => {
    const { container, session, visited } = app();
    session.signIn(await createTestUser(t, { birth: '1990-05-05' }));
    const buy = container.get<BuyTc>(TOKENS.BuyTc);
    await buy.start();
    await buy.chooseMethod('account_payment');
    const product = (buy.snapshot.kind === 'top' ? buy.snapshot.list?.products : undefined)![0]!;
    await buy.buy(product.productId);
    expect(buy.snapshot).toEqual({ kind: 'handOff', productId: product.productId });

    const pay = container.get<AccountPayment>(TOKENS.AccountPayment);
    await pay.open(product.productId);
    expect(pay.snapshot).toMatchObject({ kind: 'confirm', product: { productId: product.productId } });
    await pay.pay();
    const going = pay.snapshot;
    expect(going.kind).toBe('redirecting');
    const url = going.kind === 'redirecting' ? going.paymentUrl : '';
    expect(visited).toEqual([url]);
    const paid = await providerStep(t, url, 'confirm');
    const settlementId = paid.location!.split('/').pop()!;
    expect(paid.location).toBe(`/purchase/account-pay/result/${settlementId}`);
    const result = container.get<AccountPayment>(TOKENS.AccountPayment);
    await result.result(settlementId);
    expect(result.snapshot).toMatchObject({
      kind: 'result',
      settlement: { status: 'completed', payMethod: 'account_payment' },
      balance: { tc_all: product.toll_tc + product.free_tc },
    });

    // Another player never reads this settlement.
    const other = app();
    other.session.signIn(await createTestUser(t, { birth: '1990-05-05' }));
    const theirs = other.container.get<AccountPayment>(TOKENS.AccountPayment);
    await theirs.result(settlementId);
    expect(theirs.snapshot).toMatchObject({ kind: 'error', message: expect.stringMatching(/[ぁ-ん]/) });
  });
});

describe('storefront use-cases over scripted doubles', () => {
  it("[R8-9] a product list that fails to load shows the service's error_info, and the other pay methods still work", async () => {
    const wallet = new ScriptedWallet()
      .always('balance', { tc_all: 500, tc_free: 500, tc_toll: 0 })
      .always('payMethods', [
        { id: 'credit_card', kind: 'credit_card', name: 'クレジットカード', info: '', imgUrl: '/c.svg', rank_id: 0 },
        { id: 'emoney_a', kind: 'e_money', name: '電子マネーA', info: '', imgUrl: '/e.svg', rank_id: 2 },
      ])
      .answer('products', {
        value: { products: [], registeredBirth: true, bonusItems: [], isTcSale: false, isTicketPresent: false },
      })
      .answer('products', {
        error: Object.assign(new Error('refused'), {
          code: 503,
          info: 'ただいま商品を準備しています。しばらくお待ちください。',
        }),
      })
      .answer('products', {
        value: { products: [], registeredBirth: true, bonusItems: [], isTcSale: false, isTicketPresent: false },
      });
    const session = new FakeSession(anIdentity());
    wallet.always('spendingLimit', {
      limitYen: null,
      pending: null,
      minorLimitYen: null,
      capYen: null,
      spentYen: 0,
      remainingYen: null,
    });
    const buy = new BuyTc(
      wallet.port,
      new ScriptedAccount().port,
      session,
      new ManualClock(0),
      { track: () => undefined },
      { reload: () => undefined },
    );
    await buy.start();
    expect(buy.snapshot).toMatchObject({
      kind: 'top',
      method: 'credit_card',
      list: null,
      productError: 'ただいま商品を準備しています。しばらくお待ちください。',
    });
    await buy.chooseMethod('emoney_a');
    expect(buy.snapshot).toMatchObject({
      kind: 'top',
      method: 'emoney_a',
      productError: null,
      list: { products: [] },
    });
  });

  it('[R2.5-6] a notice goes by itself after 3.5 s on the clock; a newer one replaces it and gets its own 3.5 s', () => {
    const clock = new ManualClock();
    const notices = new Notices(clock);
    notices.show('設定を保存しました');
    expect(notices.snapshot).toMatchObject({ message: '設定を保存しました' });
    clock.advance(3499);
    expect(notices.snapshot).not.toBeNull();
    clock.advance(1);
    expect(notices.snapshot).toBeNull();
    notices.show('一つ目');
    clock.advance(2000);
    notices.show('二つ目');
    clock.advance(2000);
    expect(notices.snapshot).toMatchObject({ message: '二つ目' });
    clock.advance(1500);
    expect(notices.snapshot).toBeNull();
    // Dismissed by hand: its timer goes with it.
    notices.show('三つ目');
    notices.dismiss();
    expect(notices.snapshot).toBeNull();
    expect(clock.pendingTimers).toBe(0);
    notices.dispose();
  });

  it('[R7-12] [R9-15] TrackEvent sends the event with the signed-in user, the shop, its flags and the main id', () => {
    const analytics = new RecordingAnalytics();
    const tracker = new TrackEvent(
      analytics,
      new FakeSession(anIdentity({ user_id: 42 })),
      anAppConfig({ shopId: 3, analyticsIds: { main: 'G-MAIN', virtualCrane: 'G-VC' } }),
    );
    tracker.track('filtering_click', { title_all: 'VIP', img: '', filter_type_id: 7 });
    tracker.track('search_word', { search_word: 'うさぎ' });
    expect(analytics.sent).toEqual([
      {
        name: 'filtering_click',
        sendTo: 'G-MAIN',
        params: { title_all: 'VIP', img: '', filter_type_id: 7, user_id: 42, shop_id: 3, is_pc: 1, site_type: 1 },
      },
      { name: 'search_word', sendTo: 'G-MAIN', params: { search_word: 'うさぎ', user_id: 42, shop_id: 3, is_pc: 1 } },
    ]);
  });

  it('a failing row hides only itself: the carousel fails, the news and the arrivals still load', async () => {
    const catalog = new ScriptedPrizeCatalog()
      .answer('carousels', { error: new Error('offline') })
      .always('startNews', { list: [], total_count: 0 })
      .always('newArrivals', [{ name: 'ふわもこ ねこまる', release_date: '2026-11-20', img_url: '/a.svg' }]);
    const extras = new TopPageExtras(catalog.port, anAppConfig());
    extras.load();
    const s = await stateWhere(
      extras,
      (x) => x.carousels.kind !== 'loading' && x.news.kind !== 'loading' && x.arrivals.kind !== 'loading',
    );
    expect(s).toMatchObject({
      carousels: { kind: 'error' },
      sideBanner: [],
      news: { kind: 'loaded', items: [] },
      arrivals: { kind: 'loaded', items: [{ name: 'ふわもこ ねこまる' }] },
    });
    extras.dispose();
  });
});
