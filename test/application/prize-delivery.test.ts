import { firstValueFrom, throwError } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TOKENS,
  type AddressBook,
  type DeliveryRequestFlow,
  type PrizeBox,
  type PrizeDeliveryPort,
  type SessionPort,
} from '../../src/application';
import { deliveryTicketWeek } from '../../src/domain';
import { createAppContainer } from '../../src/main/container';
import { FakeRealtime } from '../../src/testing';
import { injectFetch } from '../support/inject-fetch';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/** The prize box, the delivery request and the address book over the real server (real ky adapters, in-process). */
describe('prize delivery use-cases against the reference server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true });
  });
  afterAll(async () => t?.close());

  function client(user: TestUser, port?: (real: PrizeDeliveryPort) => PrizeDeliveryPort) {
    const base = createAppContainer(
      { ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, timeoutMs: 10_000 },
      [[TOKENS.RealtimePort, new FakeRealtime()]],
      {
        storage: null,
        cookies: () => '',
        navigator: { reload: () => undefined, goTo: () => undefined },
        fetch: injectFetch(t.server.app),
      },
    );
    base.get<SessionPort>(TOKENS.SessionPort).signIn(user);
    if (port) {
      const real = base.get<PrizeDeliveryPort>(TOKENS.PrizeDeliveryPort);
      base.rebind(TOKENS.PrizeDeliveryPort).toConstantValue(port(real));
    }
    return {
      box: base.get<PrizeBox>(TOKENS.PrizeBox),
      flow: base.get<DeliveryRequestFlow>(TOKENS.DeliveryRequestFlow),
      book: base.get<AddressBook>(TOKENS.AddressBook),
    };
  }
  const win = (u: TestUser, w: Record<string, unknown> = {}) =>
    t.server.services().prizes.recordWin(u.user_id, { prize_kind: 'crane', product_name: 'まるまる ぺんぎん', ...w });
  const address = {
    id: 0,
    isMain: true,
    lastName: '鈴木',
    firstName: '一郎',
    zip: '５３０−０００１',
    address1: '大阪府',
    address2: '大阪市北区梅田',
    address3: '1-1-1 ねこまるタワー3F',
    tel: '０６−１２３４−５６７８',
    email: '',
    leadTimes: '',
  };

  it('[R4.5-1] [R5-4] the prize box groups the lists, clears the prize marks when seen and checks an order-made choice', async () => {
    const u = await createTestUser(t);
    const a = await win(u, { prize_kind: 'order_made', product_name: '名入れマグカップ' });
    await win(u, { prize_kind: 'order_made', product_name: '名入れマグカップ' });
    await win(u, { prize_type: 'digital', product_name: '限定壁紙', digital_url: '/api/images/wall' });
    const { box } = client(u);
    await box.start();
    const view = box.view();
    expect(view.lists.before).toHaveLength(2);
    expect(view.lists.after.map((p) => p.product_name)).toEqual(['限定壁紙']);
    const [flags] = await t.server
      .store()
      .query<{ n: number }>('SELECT count(*)::int AS n FROM user_unread WHERE user_id = $1', [u.user_id]);
    // order_made_prize and prize are cleared; digital waits for its own modal.
    expect(flags!.n).toBe(1);
    box.toggle(a);
    expect(box.view().shortfalls).toEqual([{ product_name: '名入れマグカップ', unsent: 2, chosen: 1 }]);
    // A digital prize cannot be chosen.
    box.toggle(view.lists.after[0]!.play_history_id);
    expect(box.snapshot.selected.size).toBe(1);
  });

  it('[R10-4] a lost answer is resent under the same request id: the fee is charged once; the address is added in place with full-width input', async () => {
    const u = await createTestUser(t, {}, { freeTc: 20_000 });
    await t.server.store().query(
      // This week's ticket (weeks start Monday 00:00 Asia/Tokyo, as the server counts them) already used.
      // (It was `date_trunc('week', now()) - 9 h`: a UTC week, wrong from Sunday 15:00 UTC, when Monday starts in Tokyo.)
      'INSERT INTO delivery_tickets (user_id, week_start, granted_at, used_at) VALUES ($1, $2, now(), now()) ON CONFLICT DO NOTHING',
      [u.user_id, new Date(deliveryTicketWeek(t.server.services().clock.now().getTime())).toISOString()],
    );
    const id = await win(u);
    let drops = 1;
    const { flow, book } = client(u, (real) => ({
      ...real,
      wonPrizes: () => real.wonPrizes(),
      delivery: (n) => real.delivery(n),
      quote: (ids) => real.quote(ids),
      deliveries: () => real.deliveries(),
      change: (d, c) => real.change(d, c),
      ticket: () => real.ticket(),
      // The first answer is lost after the server did the work (a dropped connection).
      request: (order) => {
        if (drops-- > 0) {
          void firstValueFrom(real.request(order));
          return throwError(() => new TypeError('Failed to fetch'));
        }
        return real.request(order);
      },
    }));
    await flow.start([id]);
    expect(flow.snapshot).toMatchObject({ step: 'review', addressId: null, addresses: [] });
    const saved = await book.save(address);
    expect(saved).toMatchObject({ zip: '530-0001', tel: '0612345678' });
    flow.addressesChanged(book.snapshot.list, saved!.id);
    const review = flow.snapshot;
    expect(review.step === 'review' && review.quote.feeTc).toBe(8_000);
    await flow.confirm();
    expect(flow.snapshot).toMatchObject({ step: 'review', error: expect.any(String) });
    await flow.confirm();
    expect(flow.snapshot).toMatchObject({ step: 'done', tcAll: 12_000 });
    expect((await t.server.services().ledger.balance(u.user_id)).tc_all).toBe(12_000);
    const [fees] = await t.server
      .store()
      .query<{ n: number }>("SELECT count(*)::int AS n FROM tc_ledger WHERE user_id = $1 AND reason = 'delivery_fee'", [
        u.user_id,
      ]);
    expect(fees!.n).toBe(1);
  });

  it('[R10-4] too little TC: the review says so and offers buying TC; nothing is charged', async () => {
    const u = await createTestUser(t, {}, { freeTc: 1_000 });
    const id = await win(u, { prize_kind: 'kuji', kuji_name: 'ぱんだくじ', prize_count: 16 });
    const { flow, book } = client(u);
    const saved = await book.save(address);
    await flow.start([id]);
    expect(flow.snapshot).toMatchObject({ step: 'review', addressId: saved!.id, needTc: true });
    const review = flow.snapshot;
    expect(review.step === 'review' && review.quote).toMatchObject({
      feeTc: 16_000,
      waived: false,
      ticketHeld: true,
      enough: false,
    });
  });
});
