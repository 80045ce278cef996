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
