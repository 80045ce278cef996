import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  itemInfoResponseSchema,
  kujiDrawResponseSchema,
  kujiFairnessResponseSchema,
  kujiListResponseSchema,
  kujiReserveResponseSchema,
  tcResponseSchema,
} from '../../src/contract';
import { verifyKujiBox } from '../../src/domain';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
});
afterAll(async () => t?.close());

const post = (url: string, body: object) => t.server.app.inject({ method: 'POST', url: `/api/${url}`, payload: body });
const as = (u: TestUser, extra: object = {}) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });

describe('kuji draws under concurrency (issue 12)', () => {
  it('200 concurrent draws over four boxes end with the exact stock, the exact ledger and each ticket drawn once', async () => {
    const kuji = kujiListResponseSchema.parse((await post('contents/kuji', { type: 1 })).json()).list;
    const boxes = kuji.flatMap((k) =>
      k.boxes
        .filter((b) => b.box_status === 'onSale')
        .map((b) => ({
          kuji_id: k.kuji_id,
          box_id: b.box_id,
          price: k.price,
          left: b.remaining_count,
          lastOne: b.prizes.some((p) => p.last_one === 1 && p.remaining > 0),
        })),
    );
    expect(boxes.length).toBe(4);
    const START = 100_000;
    const holders = await Promise.all(
      boxes.map(async (b) => {
        const u = await createTestUser(t, {}, { freeTc: START });
        const info = kujiReserveResponseSchema.parse(
          (await post('play/kuji_reserve', as(u, { kuji_id: b.kuji_id, box_id: b.box_id }))).json(),
        ).play_info;
        return { u, info, b };
      }),
    );
    // 50 single draws per box at once, every fifth one a resend of the previous request id.
    const calls = holders.flatMap(({ u, info, b }) =>
      Array.from({ length: 50 }, (_, i) => {
        const requestId = `concurrent-${b.box_id}-${i % 5 === 4 ? i - 1 : i}`;
        return post(
          'play/kuji_draw',
          as(u, {
            reserve_token: info.reserve_token,
            kuji_id: b.kuji_id,
            box_id: b.box_id,
            count: 1,
            request_id: requestId,
          }),
        ).then((r) => ({ b, status: r.statusCode, body: r.json() }));
      }),
    );
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => ![200, 409].includes(a.status)).map((a) => [a.status, a.body])).toEqual([]);

    for (const { u, b } of holders) {
      const mine = answers
        .filter((a) => a.b.box_id === b.box_id && a.status === 200)
        .map((a) => kujiDrawResponseSchema.parse(a.body).draw);
      const fresh = mine.filter((d) => d.replayed === 0);
      // Every ticket drawn once: as many fresh draws as the box had tickets, no position twice.
      expect(fresh.length).toBe(b.left);
      const positions = fresh.flatMap((d) => d.tickets.map((x) => x.position));
      expect(new Set(positions).size).toBe(b.left);
      // A resend answered its first draw.
      for (const d of mine.filter((x) => x.replayed === 1))
        expect(fresh.some((f) => f.draw_id === d.draw_id)).toBe(true);
      // The ledger: exactly one charge per ticket.
      expect(tcResponseSchema.parse((await post('user/tc', as(u))).json()).data.tc_all).toBe(START - b.left * b.price);
      // The stock: empty, the box sold out; the player holds every ticket and the last-one prize once.
      const now = kujiListResponseSchema
        .parse((await post('contents/kuji', { type: 1 })).json())
        .list.flatMap((k) => k.boxes)
        .find((x) => x.box_id === b.box_id)!;
      expect(now.box_status).toBe('outOfStock');
      expect(now.prizes.every((p) => p.remaining === 0)).toBe(true);
      const items = itemInfoResponseSchema
        .parse((await post('user/item', as(u))).json())
        .item_info.list.filter((i) => i.prize_kind === 'kuji');
      expect(items.reduce((n, i) => n + i.prize_count, 0)).toBe(b.left + (b.lastOne ? 1 : 0));
      // And the box's published seed re-derives every one of those draws.
      const fairness = kujiFairnessResponseSchema.parse(
        (await post('contents/kuji_fairness', { box_id: b.box_id })).json(),
      ).fairness;
      expect(
        verifyKujiBox({
          boxId: b.box_id,
          seed: fairness.seed!,
          commitment: fairness.commitment,
          stock: fairness.stock,
          draws: fairness.draws,
        }).ok,
      ).toBe(true);
      expect(fairness.draws).toHaveLength(b.left);
    }
  }, 60_000);
});

describe('kuji draws on one box under concurrency (issue 41)', () => {
  it('[R10-1] 200 draws at once on one box — its holder’s (a fifth of them resends) and its line’s — exact stock, exact charges, each ticket once, each prize once', async () => {
    const [kuji] = await t.server
      .store()
      .query<{ kuji_id: number; price: number }>(`SELECT kuji_id, price FROM kuji ORDER BY kuji_id LIMIT 1`);
    const { kuji_id, price } = kuji!;
    // A box of its own with 300 tickets, so that 200 draws of one never sell it out.
    const [box] = await t.server
      .store()
      .query<{ box_id: number }>(
        `INSERT INTO kuji_boxes (kuji_id, box_no, box_status) SELECT $1, max(box_no) + 1, 'onSale' FROM kuji_boxes WHERE kuji_id = $1 RETURNING box_id`,
        [kuji_id],
      );
    const box_id = box!.box_id;
    await t.server.store().query(
      `INSERT INTO kuji_box_prizes (box_id, rank, prize_name, image_key, quantity, remaining, sort)
       SELECT $1, rank, prize_name, image_key, 100, 100, sort FROM kuji_box_prizes
        WHERE box_id = (SELECT min(box_id) FROM kuji_boxes WHERE kuji_id = $2) AND NOT is_last_one ORDER BY sort LIMIT 3`,
      [box_id, kuji_id],
    );
    const START = 1_000_000;
    const holder = await createTestUser(t, {}, { freeTc: START });
    const waiting = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t, {}, { freeTc: START })));
    const reserve = async (u: TestUser) =>
      kujiReserveResponseSchema.parse((await post('play/kuji_reserve', as(u, { kuji_id, box_id }))).json()).play_info;
    const held = await reserve(holder);
    const queued = await Promise.all(waiting.map(reserve));
    expect([held, ...queued].map((i) => i.reserve_status)).toEqual(['firstReserved', ...waiting.map(() => 'reserve')]);
    const draw = (u: TestUser, token: string, requestId: string) =>
      post('play/kuji_draw', as(u, { reserve_token: token, kuji_id, box_id, count: 1, request_id: requestId })).then(
        (r) => ({ user: u.user_id, status: r.statusCode, body: r.json() }),
      );
    // 180 from the holder (every fifth resends the one before), 20 from the line (not their turn).
    const calls = [
      ...Array.from({ length: 180 }, (_, i) => draw(holder, held.reserve_token, `one-box-${i % 5 === 4 ? i - 1 : i}`)),
      ...Array.from({ length: 20 }, (_, i) => draw(waiting[i % 4]!, queued[i % 4]!.reserve_token, `line-draw-${i}`)),
    ];
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const mine = answers.filter((a) => a.user === holder.user_id);
    expect(mine.every((a) => a.status === 200)).toBe(true);
    const draws = mine.map((a) => kujiDrawResponseSchema.parse(a.body).draw);
    const fresh = draws.filter((d) => d.replayed === 0);
    // 144 distinct request ids: 144 draws, each answered once fresh; each resend answered its first draw.
    expect(fresh).toHaveLength(144);
    expect(new Set(fresh.map((d) => d.draw_id)).size).toBe(144);
    for (const d of draws.filter((x) => x.replayed === 1))
      expect(fresh.some((f) => f.draw_id === d.draw_id)).toBe(true);
    const positions = fresh.flatMap((d) => d.tickets.map((x) => x.position));
    expect(new Set(positions).size).toBe(144);
    // The line drew nothing: every one of its draws was 409 (not their turn), its balance whole.
    const theirs = answers.filter((a) => a.user !== holder.user_id);
    expect(theirs.map((a) => [a.status, (a.body as { error_info: string }).error_info])).toEqual(
      theirs.map(() => [409, 'まだあなたの順番ではありません。順番が来るまでお待ちください。']),
    );
    for (const u of waiting)
      expect(tcResponseSchema.parse((await post('user/tc', as(u))).json()).data.tc_all).toBe(START);
    // The money, the stock and the prizes, exact.
    expect(tcResponseSchema.parse((await post('user/tc', as(holder))).json()).data.tc_all).toBe(START - 144 * price);
    const [stock] = await t.server
      .store()
      .query<{ remaining: number; drawn: number; charged: number; charges: number }>(
        `SELECT (SELECT sum(remaining)::int FROM kuji_box_prizes WHERE box_id = $1) AS remaining,
                (SELECT count(*)::int FROM kuji_box_tickets WHERE box_id = $1 AND draw_id IS NOT NULL) AS drawn,
                (SELECT coalesce(sum(-delta), 0)::int FROM tc_ledger WHERE user_id = $2 AND reason = 'kuji') AS charged,
                (SELECT count(DISTINCT idempotency_key)::int FROM tc_ledger WHERE user_id = $2 AND reason = 'kuji') AS charges`,
        [box_id, holder.user_id],
      );
    expect(stock).toEqual({ remaining: 300 - 144, drawn: 144, charged: 144 * price, charges: 144 });
    const items = itemInfoResponseSchema
      .parse((await post('user/item', as(holder))).json())
      .item_info.list.filter((i) => i.prize_kind === 'kuji');
    expect(items.reduce((n, i) => n + i.prize_count, 0)).toBe(144);
  }, 120_000);
});
