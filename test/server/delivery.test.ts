import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  deliveryListResponseSchema,
  deliveryQuoteResponseSchema,
  deliveryRequestResponseSchema,
  deliveryTicketResponseSchema,
  getDeliveryResponseSchema,
  itemInfoResponseSchema,
  tcHistoryResponseSchema,
  type PushMessage,
} from '../../src/contract';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import { DAY_MS, deliveryTicketWeek, fromJstParts, HOUR_MS } from '../../src/domain';
import { Ledger } from '../../server/wallet/ledger';
import { PrizeStorage } from '../../server/delivery/prize-storage';
import { DeliveryTickets } from '../../server/delivery/delivery-tickets';
import type { Store } from '../../server/store/store';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, post, validAddress } from './user-helpers';

const TOKEN = 'operator-token-for-delivery-tests-0123';
// Wednesday 2026-11-25 12:00 JST: this week's ticket week began Monday 2026-11-23 00:00 JST.
const clock = new ManualServerClock(new Date(fromJstParts(2026, 11, 25, 12)));
let t: TestServer;
let pushes: { userId: number; push: PushMessage }[] = [];

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
  vi.spyOn(t.server.services().realtime, 'push').mockImplementation((userId, push) => {
    pushes.push({ userId, push });
  });
});
afterAll(async () => t?.close());

/** The ledger equals the sum of its rows, and no prize is in two requests, after every test. */
afterEach(async () => {
  const ledger = new Ledger(db(), clock);
  for (const { user_id } of await db().query<{ user_id: number }>('SELECT user_id FROM wallets')) {
    const b = await ledger.balance(user_id);
    const rows = await ledger.fromRows(user_id);
    expect({ tc_free: rows.tc_free, tc_toll: rows.tc_toll }).toEqual({ tc_free: b.tc_free, tc_toll: b.tc_toll });
  }
  pushes = [];
});

const db = () => t.server.store();
let seq = 0;
const rid = () => `req-${Date.now().toString(36)}-${(seq += 1)}`;
const player = async (freeTc = 0) => {
  const u = await createTestUser(t, {}, freeTc > 0 ? { freeTc } : {});
  return u;
};
const withAddress = async (u: TestUser, over: Record<string, unknown> = {}) => {
  const a = expectOk(await post(t, 'account/address/register', as(u, { address: validAddress(over) })));
  return (a.address as { id: number }).id;
};
const win = (u: TestUser, w: Record<string, unknown> = {}) =>
  t.server
    .services()
    .prizes.recordWin(u.user_id, { prize_kind: 'crane', product_name: 'ふわもこ ねこクッション', ...w });
/** This week's ticket granted and already used: the player holds none. */
const noTicket = async (u: TestUser) => {
  await db().query(
    'INSERT INTO delivery_tickets (user_id, week_start, granted_at, used_at) VALUES ($1, $2, $2, $2) ON CONFLICT DO NOTHING',
    [u.user_id, new Date(deliveryTicketWeek(clock.now().getTime())).toISOString()],
  );
};
const quote = async (u: TestUser, ids: number[]) =>
  deliveryQuoteResponseSchema.parse(
    expectOk(await post(t, 'delivery/quote', as(u, { delivery_quote: { play_history_ids: ids } }))),
  ).quote;
const request = (u: TestUser, ids: number[], addressId: number, requestId = rid(), lead_times = '') =>
  post(
    t,
    'delivery/request',
    as(u, { delivery_request: { request_id: requestId, play_history_ids: ids, address_id: addressId, lead_times } }),
  );
const operator = async (path: string, body: object) => {
  const res = await t.server.app.inject({
    method: 'POST',
    url: `/api/operator/${path}`,
    payload: body,
    headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${TOKEN}` },
  });
  return { status: res.statusCode, json: res.json() };
};
const balance = (u: TestUser) => new Ledger(db(), clock).balance(u.user_id);
const items = async (u: TestUser) =>
  itemInfoResponseSchema.parse(expectOk(await post(t, 'user/item', as(u)))).item_info.list;

describe('the delivery fee, charged through the ledger with the request [R9-1, R10-4]', () => {
  it('[R9-1][R10-4] a request takes 8,000 TC per crane prize in the same transaction that moves the prizes; the TC history shows it', async () => {
    const u = await player(20_000);
    await noTicket(u);
    const addressId = await withAddress(u);
    const a = await win(u);
    const b = await win(u, { product_name: 'ぴよぴよ ミニマスコット' });
    expect(await quote(u, [a, b])).toMatchObject({ base_fee_tc: 16_000, fee_tc: 16_000, waived: 0, enough: 1 });
    const done = deliveryRequestResponseSchema.parse(expectOk(await request(u, [a, b], addressId, rid(), '午前中')));
    expect(done.delivery).toMatchObject({
      delivery_status: 'requested',
      fee_tc: 16_000,
      waived: 0,
      lead_times: '午前中',
    });
    expect(done.delivery.prizeData.map((p) => p.play_history_id).sort()).toEqual([a, b].sort());
    expect(done.delivery.address).toMatchObject({ last_name: '山田', zip: '150-0001' });
    expect(done.tc_info.tc_all).toBe(4_000);
    expect((await items(u)).filter((p) => p.delivery_id === done.delivery.delivery_id)).toHaveLength(2);
    const history = tcHistoryResponseSchema.parse(expectOk(await post(t, 'purchase/tc_history', as(u, { page: 1 }))));
    expect(history.history.list[0]).toMatchObject({
      reason: 'delivery_fee',
      free_delta: -16_000,
      balance_after: 4_000,
    });
  });

  it('[R9-1] kuji prizes ship 15 to a parcel: 1, 15, 16, 30, 31 cost 1, 1, 2, 2, 3 parcels; none chosen is refused', async () => {
    const u = await player();
    await noTicket(u);
    for (const [n, fee] of [
      [1, 8_000],
      [15, 8_000],
      [16, 16_000],
      [30, 16_000],
      [31, 24_000],
    ] as const) {
      const id = await win(u, {
        prize_kind: 'kuji',
        product_name: 'A賞 ぬいぐるみ',
        kuji_name: 'ねこまるくじ',
        prize_count: n,
      });
      expect((await quote(u, [id])).fee_tc, `${n} kuji`).toBe(fee);
    }
    const refused = await expectRefusedUnchanged(t, () =>
      post(t, 'delivery/quote', as(u, { delivery_quote: { play_history_ids: [] } })),
    );
    expect(refused.json.error_info).toBe('発送する景品を1つ以上選んでください。');
  });

  it('[R10-4] too little TC is a 402 that names the shortfall, and nothing moves or is charged', async () => {
    const u = await player(7_999);
    await noTicket(u);
    const addressId = await withAddress(u);
    const id = await win(u);
    const refused = await expectRefusedUnchanged(t, () => request(u, [id], addressId), 402);
    expect(refused.json.error_code).toBe(402);
    expect((await items(u))[0]!.delivery_status).toBe('not_requested');
    expect((await balance(u)).tc_all).toBe(7_999);
  });

  it('[R10-4] resending a request_id answers the first request and charges nothing more; another id for the same prizes is 409', async () => {
    const u = await player(8_000);
    await noTicket(u);
    const addressId = await withAddress(u);
    const id = await win(u);
    const key = rid();
    const first = deliveryRequestResponseSchema.parse(expectOk(await request(u, [id], addressId, key)));
    const again = deliveryRequestResponseSchema.parse(expectOk(await request(u, [id], addressId, key)));
    expect(again).toMatchObject({ replayed: 1, delivery: { delivery_id: first.delivery.delivery_id } });
    expect(again.tc_info.tc_all).toBe(0);
    await expectRefusedUnchanged(t, () => request(u, [id], addressId), 409);
    const other = await win(u);
    expect((await expectRefusedUnchanged(t, () => request(u, [other], addressId, key), 409)).json.error_info).toBe(
      'このリクエストIDはすでに別の発送依頼で使われています。',
    );
  });

  it('[R10-4] 100 concurrent requests for the same prizes charge once and move each prize once', async () => {
    const u = await player(100_000);
    await noTicket(u);
    const addressId = await withAddress(u);
    const ids = [await win(u), await win(u), await win(u, { prize_kind: 'kuji', kuji_name: 'くじ', prize_count: 3 })];
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => request(u, ids, addressId, i % 2 === 0 ? 'same-request-id' : rid())),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(new Set(ok.map((a) => (a.json.delivery as { delivery_id: number }).delivery_id)).size).toBe(1);
    const [count] = await db().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM delivery_request_items WHERE play_history_id = ANY($1::int[])',
      [ids],
    );
    expect(count!.n).toBe(3);
    expect((await balance(u)).tc_all).toBe(100_000 - 24_000);
    const [fees] = await db().query<{ n: number }>(
      "SELECT count(DISTINCT idempotency_key)::int AS n FROM tc_ledger WHERE user_id = $1 AND reason = 'delivery_fee'",
      [u.user_id],
    );
    expect(fees!.n).toBe(1);
  });
});

describe('the free-delivery ticket [R5-3, R10-6]', () => {
  it('[R10-6][R5-3] a player holds this week’s ticket; it waives a request with a crane prize and is used', async () => {
    const u = await player();
    const addressId = await withAddress(u);
    const ticket = deliveryTicketResponseSchema.parse(
      expectOk(await post(t, 'delivery/ticket', as(u))),
    ).delivery_ticket;
    expect(ticket).toEqual({ held: 1, next_grant_at: '2026-11-29T15:00:00.000Z' });
    const crane = await win(u);
    const kuji = await win(u, { prize_kind: 'kuji', kuji_name: 'くじ', prize_count: 20 });
    expect(await quote(u, [crane, kuji])).toMatchObject({ base_fee_tc: 24_000, fee_tc: 0, waived: 1, ticket_held: 1 });
    const done = deliveryRequestResponseSchema.parse(expectOk(await request(u, [crane, kuji], addressId)));
    expect(done.delivery).toMatchObject({ fee_tc: 0, waived: 1 });
    expect(
      deliveryTicketResponseSchema.parse(expectOk(await post(t, 'delivery/ticket', as(u)))).delivery_ticket.held,
    ).toBe(0);
  });

  it('[R5-3] the ticket does not waive kuji-only prizes: the fee is charged and the ticket kept', async () => {
    const u = await player(8_000);
    const addressId = await withAddress(u);
    const kuji = await win(u, { prize_kind: 'kuji', kuji_name: 'くじ', prize_count: 2 });
    expect(await quote(u, [kuji])).toMatchObject({ fee_tc: 8_000, waived: 0, ticket_held: 1 });
    expectOk(await request(u, [kuji], addressId));
    expect(
      deliveryTicketResponseSchema.parse(expectOk(await post(t, 'delivery/ticket', as(u)))).delivery_ticket.held,
    ).toBe(1);
  });

  it('[R10-6] one ticket a week at Monday 00:00 JST, at most one held; none granted for a week started with one held', async () => {
    const local = new ManualServerClock(new Date(fromJstParts(2026, 11, 25, 12)));
    const tickets = new DeliveryTickets();
    const u = await player();
    const held = () => db().transaction((q) => tickets.held(q, u.user_id, local.now()));
    const first = await held();
    expect(first).not.toBeNull();
    // Held over Monday: the next week grants nothing, and there is never a second ticket.
    local.set(new Date(fromJstParts(2026, 11, 30, 0, 0, 1)));
    expect(await held()).toEqual(first);
    const [n] = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM delivery_tickets WHERE user_id = $1', [
      u.user_id,
    ]);
    expect(n!.n).toBe(1);
    // Used during that week: nothing until the following Monday, then exactly one.
    await db().query('UPDATE delivery_tickets SET used_at = $2 WHERE ticket_id = $1', [
      first!.ticket_id,
      local.now().toISOString(),
    ]);
    local.set(new Date(fromJstParts(2026, 12, 6, 23, 59)));
    expect(await held()).toBeNull();
    local.set(new Date(fromJstParts(2026, 12, 7, 0, 0)));
    const [a, b] = await Promise.all([held(), held()]);
    expect(a).not.toBeNull();
    expect(a).toEqual(b);
  });
});

describe('changing a request, and the operator’s fulfilment', () => {
  it('[R3-15][R4.5-1] the operator ships with a tracking number: the player is told and sees it in the after list', async () => {
    const u = await player(8_000);
    await noTicket(u);
    const addressId = await withAddress(u);
    const id = await win(u);
    const done = deliveryRequestResponseSchema.parse(expectOk(await request(u, [id], addressId)));
    const deliveryId = done.delivery.delivery_id;
    const queue = await operator('deliveries', { delivery_status: 'requested' });
    expect(queue.json.list.map((d: { delivery_id: number }) => d.delivery_id)).toContain(deliveryId);
    const before = getDeliveryResponseSchema.parse(
      expectOk(await post(t, 'user/get_delivery', as(u, { get_delivery: { play_history_id: id } }))),
    ).get_delivery_address.data;
    expect(before).toMatchObject({ delivery_status: 'requested', prize_contact_number: '', prize_shipmented_at: '-' });
    // A change while not shipped: the time slot.
    expectOk(
      await post(
        t,
        'delivery/change',
        as(u, { delivery_change: { delivery_id: deliveryId, lead_times: '18時〜20時' } }),
      ),
    );
    expect(
      (await operator('delivery_ship', { delivery_id: deliveryId, tracking_number: '4455-6677-8899' })).status,
    ).toBe(200);
    expect(pushes.filter((p) => p.userId === u.user_id).map((p) => p.push.title)).toContain('景品を発送しました');
    const list = deliveryListResponseSchema.parse(expectOk(await post(t, 'delivery/list', as(u)))).list;
    expect(list[0]).toMatchObject({
      delivery_id: deliveryId,
      delivery_status: 'shipped',
      prize_contact_number: '4455-6677-8899',
      lead_times: '18時〜20時',
    });
    expect(list[0]!.prize_shipmented_at).not.toBe('-');
    // The prize box's after list carries the tracking number too.
    expect((await items(u)).find((p) => p.play_history_id === id)).toMatchObject({
      delivery_status: 'shipped',
      prize_contact_number: '4455-6677-8899',
    });
    // Shipped: no more changes.
    await expectRefusedUnchanged(
      t,
      () => post(t, 'delivery/change', as(u, { delivery_change: { delivery_id: deliveryId, lead_times: '午前中' } })),
      409,
    );
  });

  it('[R10-4] a cancel refunds the fee exactly once, also when two operators cancel at once; the prize becomes invalid', async () => {
    const u = await player(10_000);
    await noTicket(u);
    const addressId = await withAddress(u);
    const id = await win(u);
    const done = deliveryRequestResponseSchema.parse(expectOk(await request(u, [id], addressId)));
    expect((await balance(u)).tc_all).toBe(2_000);
    const [a, b] = await Promise.all([
      operator('delivery_cancel', { delivery_id: done.delivery.delivery_id, reason: '景品の破損のため' }),
      operator('delivery_cancel', { delivery_id: done.delivery.delivery_id, reason: '景品の破損のため' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.json.refunded_tc, b.json.refunded_tc].sort()).toEqual([0, 8_000]);
    expect((await balance(u)).tc_all).toBe(10_000);
    expect((await items(u))[0]!.delivery_status).toBe('cancelled');
    await expectRefusedUnchanged(t, () => request(u, [id], addressId), 409);
    expect(
      (await operator('delivery_ship', { delivery_id: done.delivery.delivery_id, tracking_number: '1111-2222' }))
        .status,
    ).toBe(409);
  });

  it("[R3-1] another player's prize, address or request is 404 everywhere and nothing changes", async () => {
    const a = await player(50_000);
    const b = await player(50_000);
    const aAddress = await withAddress(a);
    const bAddress = await withAddress(b, { last_name: '佐藤' });
    const aPrize = await win(a);
    const bPrize = await win(b);
    const aDelivery = deliveryRequestResponseSchema.parse(expectOk(await request(a, [aPrize], aAddress))).delivery;
    await expectRefusedUnchanged(
      t,
      () => post(t, 'delivery/quote', as(b, { delivery_quote: { play_history_ids: [aPrize] } })),
      404,
    );
    await expectRefusedUnchanged(t, () => request(b, [aPrize], bAddress), 404);
    await expectRefusedUnchanged(t, () => request(b, [bPrize], aAddress), 404);
    await expectRefusedUnchanged(
      t,
      () =>
        post(
          t,
          'delivery/change',
          as(b, { delivery_change: { delivery_id: aDelivery.delivery_id, lead_times: '午前中' } }),
        ),
      404,
    );
    await expectRefusedUnchanged(
      t,
      () =>
        post(
          t,
          'delivery/change',
          as(a, { delivery_change: { delivery_id: aDelivery.delivery_id, address_id: bAddress } }),
        ),
      404,
    );
    await expectRefusedUnchanged(
      t,
      () => post(t, 'user/get_delivery', as(b, { get_delivery: { play_history_id: aPrize } })),
      404,
    );
    const list = deliveryListResponseSchema.parse(expectOk(await post(t, 'delivery/list', as(b)))).list;
    expect(list).toEqual([]);
    expect(JSON.stringify(list)).not.toContain('山田');
  });

  it('a digital prize cannot be requested; an incomplete address is refused', async () => {
    const u = await player(50_000);
    const addressId = await withAddress(u);
    const digital = await t.server.services().prizes.recordWin(u.user_id, {
      prize_kind: 'crane',
      prize_type: 'digital',
      product_name: '限定壁紙',
      digital_url: '/api/images/x',
    });
    expect((await expectRefusedUnchanged(t, () => request(u, [digital], addressId), 409)).json.error_info).toContain(
      'デジタル',
    );
    expect((await items(u))[0]).toMatchObject({
      prize_type: 'digital',
      keep_until: null,
      digital_url: '/api/images/x',
    });
  });
});

describe('the postal-code lookup', () => {
  it('names the prefecture, city and town of a 7-digit code (full-width too); unknown or malformed codes name none', async () => {
    const u = await player();
    const lookup = async (zip: unknown) => post(t, 'account/address/zip_lookup', as(u, { zip_lookup: { zip } }));
    expect(expectOk(await lookup('150-0001'))).toMatchObject({
      zip: '1500001',
      places: [{ prefecture: '東京都', city: '渋谷区', town: '神宮前' }],
    });
    expect(expectOk(await lookup('５３０－０００１')).places).toEqual([
      expect.objectContaining({ prefecture: '大阪府', city: '大阪市北区' }),
    ]);
    expect(expectOk(await lookup('0000000')).places).toEqual([]);
    expect(expectOk(await lookup('abc')).places).toEqual([]);
    await expectRefusedUnchanged(t, () => lookup(12), 400);
    await expectRefusedUnchanged(
      t,
      () => post(t, 'account/address/zip_lookup', { zip_lookup: { zip: '1500001' } }),
      401,
    );
  });
});

describe('the storage period [R10-5]', () => {
  /** A player with prizes won `daysAgo` days before now (so their period ends 30 − daysAgo days from now). */
  const aged = async (u: TestUser, daysAgo: number, w: Record<string, unknown> = {}) => {
    const id = await win(u, w);
    await db().query(
      `UPDATE won_prizes SET won_at = $2::timestamptz, keep_until = $2::timestamptz + interval '30 days' WHERE play_history_id = $1`,
      [id, new Date(clock.now().getTime() - daysAgo * DAY_MS).toISOString()],
    );
    return id;
  };
  const stateOf = async (id: number) =>
    (
      await db().query<{ expired: boolean; requested: boolean; notice: number | null }>(
        `SELECT p.expired_at IS NOT NULL AS expired, i.play_history_id IS NOT NULL AS requested, p.storage_notice_days AS notice
           FROM won_prizes p LEFT JOIN delivery_request_items i ON i.play_history_id = p.play_history_id WHERE p.play_history_id = $1`,
        [id],
      )
    )[0]!;

  it('[R10-5] 7 days and 1 day before the end the player is told (push and the unread mark), each once', async () => {
    const u = await player();
    const id = await aged(u, 23);
    await t.server.services().prizeStorage.runDue();
    await t.server.services().prizeStorage.runDue();
    expect((await stateOf(id)).notice).toBe(7);
    const told = pushes.filter((p) => p.userId === u.user_id);
    expect(told).toHaveLength(1);
    expect(told[0]!.push.message).toContain('あと7日');
    const flags = expectOk(await post(t, 'user/read_info', as(u, { read_info: { type: 'news' } })));
    expect((flags.unread as Record<string, number>).prize).toBe(1);
    await db().query(
      "UPDATE won_prizes SET keep_until = $2::timestamptz + interval '20 hours' WHERE play_history_id = $1",
      [id, clock.now().toISOString()],
    );
    await t.server.services().prizeStorage.runDue();
    expect((await stateOf(id)).notice).toBe(1);
    expect(pushes.filter((p) => p.userId === u.user_id).at(-1)!.push.message).toContain('あと1日');
  });

  it('[R10-5] at the end: requested to the main address with a ticket or enough TC, else invalid', async () => {
    const withTicket = await player();
    await withAddress(withTicket);
    const withTc = await player(8_000);
    await noTicket(withTc);
    await withAddress(withTc);
    const poor = await player(7_999);
    await noTicket(poor);
    await withAddress(poor);
    const homeless = await player(50_000);
    const ids = {
      withTicket: await aged(withTicket, 30),
      withTc: await aged(withTc, 31),
      poor: await aged(poor, 30),
      homeless: await aged(homeless, 30),
    };
    await t.server.services().prizeStorage.runDue();
    expect(await stateOf(ids.withTicket)).toMatchObject({ requested: true, expired: false });
    expect(await stateOf(ids.withTc)).toMatchObject({ requested: true, expired: false });
    expect((await balance(withTc)).tc_all).toBe(0);
    expect(await stateOf(ids.poor)).toMatchObject({ requested: false, expired: true });
    expect(await stateOf(ids.homeless)).toMatchObject({ requested: false, expired: true });
    expect((await items(poor))[0]!.delivery_status).toBe('expired');
    const auto = deliveryListResponseSchema.parse(expectOk(await post(t, 'delivery/list', as(withTicket)))).list[0]!;
    expect(auto).toMatchObject({ auto_requested: 1, fee_tc: 0, waived: 1 });
  });

  it('[R10-5] a crash in the middle of the deadline handling, then a restart: each prize is requested or expired exactly once', async () => {
    const players = await Promise.all(Array.from({ length: 6 }, () => player(8_000)));
    const ids: number[] = [];
    for (const [i, u] of players.entries()) {
      await noTicket(u);
      if (i % 2 === 0) await withAddress(u);
      ids.push(await aged(u, 30), await aged(u, 35));
    }
    // The first run dies on its fourth player's transaction (a process killed mid-run).
    const s = t.server.services();
    let transactions = 0;
    const dying = new Proxy(db(), {
      get(target, key, receiver) {
        if (key === 'transaction')
          return (work: Parameters<Store['transaction']>[0]) => {
            transactions += 1;
            if (transactions === 4) return Promise.reject(new Error('killed'));
            return target.transaction(work);
          };
        return Reflect.get(target, key, receiver) as unknown;
      },
    }) as Store;
    const crashed = new PrizeStorage(
      dying,
      clock,
      s.ledger,
      s.addresses,
      new DeliveryTickets(),
      s.deliveries,
      () => null,
      () => undefined,
    );
    await expect(crashed.runDue()).rejects.toThrow('killed');
    // The restarted server's run handles what is left, and a second run finds nothing to do.
    await s.prizeStorage.runDue();
    expect(await s.prizeStorage.runDue()).toBe(0);
    for (const id of ids) {
      const st = await stateOf(id);
      expect(st.requested !== st.expired, `prize ${id}`).toBe(true);
    }
    for (const [i, u] of players.entries()) {
      const [fees] = await db().query<{ n: number }>(
        "SELECT count(*)::int AS n FROM tc_ledger WHERE user_id = $1 AND reason = 'delivery_fee'",
        [u.user_id],
      );
      // With an address the two prizes go in one request (16,000 TC > 8,000): all expire; none is charged twice.
      expect(fees!.n, `player ${i}`).toBeLessThanOrEqual(1);
    }
  });

  it('[R10-5] the timer fires by itself when the clock reaches the next event', async () => {
    const u = await player();
    await withAddress(u);
    const id = await aged(u, 29);
    const storage = t.server.services().prizeStorage;
    storage.poke();
    await storage.settled();
    expect(await stateOf(id)).toMatchObject({ requested: false, notice: null });
    await clock.advanceSettling(DAY_MS + HOUR_MS, () => storage.settled());
    expect(await stateOf(id)).toMatchObject({ requested: true, notice: 1 });
  });
});
