import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  kujiDrawResponseSchema,
  kujiFairnessResponseSchema,
  kujiListResponseSchema,
  kujiReserveResponseSchema,
  tcResponseSchema,
  itemInfoResponseSchema,
  type KujiItem,
  type KujiPlayInfo,
} from '../../src/contract';
import { verifyKujiBox } from '../../src/domain';
import { kujiLineClient, type DrawCount } from '../support/kuji-line-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

let t: TestServer;
let kuji: KujiItem[];

beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  kuji = await list();
});
afterAll(async () => t?.close());

const post = (url: string, body: object) => t.server.app.inject({ method: 'POST', url: `/api/${url}`, payload: body });
const as = (u: TestUser, extra: object = {}) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });
const list = async () => kujiListResponseSchema.parse((await post('contents/kuji', { type: 1 })).json()).list;
/** The on-sale boxes of the seeded kuji, each with its kuji's price. */
const onSaleBoxes = () =>
  kuji.flatMap((k) =>
    k.boxes
      .filter((b) => b.box_status === 'onSale')
      .map((b) => ({ kuji_id: k.kuji_id, box_id: b.box_id, price: k.price })),
  );
const boxNow = async (boxId: number) => (await list()).flatMap((k) => k.boxes).find((b) => b.box_id === boxId);
let requests = 0;
const rid = () => `req-${Date.now().toString(36)}-${(requests += 1)}`;

async function reserve(u: TestUser, b: { kuji_id: number; box_id: number }): Promise<KujiPlayInfo> {
  const res = await post('play/kuji_reserve', as(u, { kuji_id: b.kuji_id, box_id: b.box_id }));
  expect(res.statusCode).toBe(200);
  return kujiReserveResponseSchema.parse(res.json()).play_info;
}
const { draw: drawOf } = kujiLineClient(() => t);
const draw = (u: TestUser, info: KujiPlayInfo, count: DrawCount, requestId = rid()) =>
  drawOf(u, info, count, requestId);
const balance = async (u: TestUser) => tcResponseSchema.parse((await post('user/tc', as(u))).json()).data.tc_all;

describe('the kuji draw (issue 12)', () => {
  it("the holder draws 3: charged 3 × the price, the stock drops by exactly the ranks drawn, the prizes join the player's items", async () => {
    const b = onSaleBoxes()[1]!;
    const before = (await boxNow(b.box_id))!;
    const u = await createTestUser(t, {}, { freeTc: 50_000 });
    const info = await reserve(u, b);
    expect(info.reserve_status).toBe('firstReserved');
    const res = await draw(u, info, 3);
    expect(res.statusCode).toBe(200);
    const { draw: d, play_info } = kujiDrawResponseSchema.parse(res.json());
    expect(d.tickets).toHaveLength(3);
    expect(d.price_total).toBe(3 * b.price);
    expect(d.tc.tc_all).toBe(50_000 - 3 * b.price);
    expect(await balance(u)).toBe(50_000 - 3 * b.price);
    expect(d.remaining_count).toBe(before.remaining_count - 3);
    expect(play_info.reserve_status).toBe('confirm');
    const after = (await boxNow(b.box_id))!;
    expect(after.remaining_count).toBe(before.remaining_count - 3);
    for (const p of after.prizes) {
      const drawnOfRank = d.tickets.filter((x) => x.rank === p.rank).length;
      expect(p.remaining).toBe(before.prizes.find((x) => x.rank === p.rank)!.remaining - drawnOfRank);
    }
    const items = itemInfoResponseSchema.parse((await post('user/item', as(u))).json()).item_info.list;
    expect(items.filter((i) => i.prize_kind === 'kuji').reduce((n, i) => n + i.prize_count, 0)).toBe(3);
  });

  it('refusals change nothing: a player still in line, an unknown token, too many tickets, not enough TC (402, in Japanese)', async () => {
    const b = onSaleBoxes()[2]!;
    const holder = await createTestUser(t, {}, { freeTc: b.price - 1 });
    const waiting = await createTestUser(t, {}, { freeTc: 50_000 });
    const hi = await reserve(holder, b);
    const wi = await reserve(waiting, b);
    expect(wi.reserve_status).toBe('reserve');
    const before = (await boxNow(b.box_id))!;

    const notYet = await draw(waiting, wi, 1);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().error_info).toBe('まだあなたの順番ではありません。順番が来るまでお待ちください。');
    const unknown = await post(
      'play/kuji_draw',
      as(holder, { reserve_token: 'x'.repeat(32), kuji_id: b.kuji_id, box_id: b.box_id, count: 1, request_id: rid() }),
    );
    expect(unknown.statusCode).toBe(404);
    const poor = await draw(holder, hi, 1);
    expect(poor.statusCode).toBe(402);
    expect(poor.json().error_info).toMatch(/TC/);
    const badCount = await draw(holder, hi, 2 as never);
    expect(badCount.statusCode).toBe(400);
    expect(badCount.json().error_info).toMatch(/[ぁ-ん]/);

    const after = (await boxNow(b.box_id))!;
    expect(after).toEqual(before);
    expect(await balance(holder)).toBe(b.price - 1);
    const fairness = kujiFairnessResponseSchema.parse(
      (await post('contents/kuji_fairness', { box_id: b.box_id })).json(),
    ).fairness;
    expect(fairness.draws).toEqual([]);
  });

  it('a resent request id answers the first draw and charges once', async () => {
    const b = onSaleBoxes()[3]!;
    const u = await createTestUser(t, {}, { freeTc: 50_000 });
    const info = await reserve(u, b);
    const id = rid();
    const first = kujiDrawResponseSchema.parse((await draw(u, info, 1, id)).json()).draw;
    const again = kujiDrawResponseSchema.parse((await draw(u, info, 1, id)).json()).draw;
    expect(again).toMatchObject({ draw_id: first.draw_id, tickets: first.tickets, replayed: 1 });
    expect(await balance(u)).toBe(50_000 - b.price);
  });

  it('drawing all: the last-one prize, the box sells out, the line ends, and the published seed re-derives every draw of the box', async () => {
    const b = onSaleBoxes()[0]!;
    const opened = kujiFairnessResponseSchema.parse(
      (await post('contents/kuji_fairness', { box_id: b.box_id })).json(),
    ).fairness;
    expect(opened.seed).toBeNull();
    expect(opened.commitment).toMatch(/^[0-9a-f]{64}$/);

    const u = await createTestUser(t, {}, { freeTc: 100_000 });
    const other = await createTestUser(t, {}, { freeTc: 100_000 });
    const info = await reserve(u, b);
    const waitingInfo = await reserve(other, b);
    const first = kujiDrawResponseSchema.parse((await draw(u, info, 1)).json()).draw;
    const rest = kujiDrawResponseSchema.parse((await draw(u, info, 'all')).json());
    expect(rest.draw.last_one).toMatchObject({ rank: 'ラストワン賞', position: null });
    expect(rest.draw.box_status).toBe('outOfStock');
    expect(rest.draw.remaining_count).toBe(0);
    expect(rest.play_info.reserve_status).toBe('end');
    const theirs = await post(
      'play/kuji_polling',
      as(other, { reserve_token: waitingInfo.reserve_token, kuji_id: b.kuji_id, box_id: b.box_id }),
    );
    expect(theirs.json().polling.play_info).toMatchObject({ reserve_status: 'end', box_status: 'outOfStock' });

    const fairness = kujiFairnessResponseSchema.parse(
      (await post('contents/kuji_fairness', { box_id: b.box_id })).json(),
    ).fairness;
    expect(fairness.commitment).toBe(opened.commitment);
    expect(fairness.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(fairness.draws.map((d) => d.rank)).toEqual([...first.tickets, ...rest.draw.tickets].map((x) => x.rank));
    const check = verifyKujiBox({
      boxId: b.box_id,
      seed: fairness.seed!,
      commitment: fairness.commitment,
      stock: fairness.stock,
      draws: fairness.draws,
    });
    expect(check.ok).toBe(true);
    // The player got every ticket and the last-one prize.
    const items = itemInfoResponseSchema
      .parse((await post('user/item', as(u))).json())
      .item_info.list.filter((i) => i.prize_kind === 'kuji');
    expect(items.reduce((n, i) => n + i.prize_count, 0)).toBe(fairness.draws.length + 1);
  });

  it('a box that is not on sale has no order to show yet; an unknown box is 404 in Japanese', async () => {
    const ready = kuji.flatMap((k) => k.boxes).find((x) => x.box_status === 'ready')!;
    const res = await post('contents/kuji_fairness', { box_id: ready.box_id });
    expect(res.statusCode).toBe(404);
    expect(res.json().error_info).toBe('このBOXはまだ販売を開始していません。');
    expect((await post('contents/kuji_fairness', { box_id: 999_999 })).statusCode).toBe(404);
  });
});

describe('the operator opens, stocks and ends kuji boxes (issue 12)', () => {
  const TOKEN = 'operator-token-for-kuji-tests-0123456789';
  let op: TestServer;
  beforeAll(async () => {
    op = await startTestServer({ inMemory: true, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
  });
  afterAll(async () => op?.close());
  const operator = (path: string, body: object) =>
    op.server.app.inject({
      method: 'POST',
      url: `/api/operator/${path}`,
      payload: body,
      headers: { 'x-operator-authorization': `Bearer ${TOKEN}` },
    });
  const postOp = (url: string, body: object) =>
    op.server.app.inject({ method: 'POST', url: `/api/${url}`, payload: body });

  it('stock is set only before the box opens; opening publishes the commitment; ending publishes the seed, which checks out', async () => {
    const [ready] = await op.server
      .store()
      .query<{ kuji_id: number; box_id: number }>(
        `SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'ready' ORDER BY box_id LIMIT 1`,
      );
    const stocked = await operator('kuji_box_stock', {
      box_id: ready!.box_id,
      prizes: [
        { rank: 'A賞', quantity: 2 },
        { rank: 'D賞', quantity: 3 },
      ],
    });
    expect(stocked.statusCode).toBe(200);
    expect(stocked.json().box.prizes.find((p: { rank: string }) => p.rank === 'A賞')).toMatchObject({
      quantity: 2,
      remaining: 2,
    });
    expect(
      (await operator('kuji_box_stock', { box_id: ready!.box_id, prizes: [{ rank: 'Z賞', quantity: 1 }] })).json(),
    ).toMatchObject({ error_code: 404, error_info: 'このBOXにない賞が指定されています。' });
    expect((await postOp('contents/kuji_fairness', { box_id: ready!.box_id })).statusCode).toBe(404);

    expect((await operator('kuji_box_status', { box_id: ready!.box_id, box_status: 'onSale' })).statusCode).toBe(200);
    const opened = kujiFairnessResponseSchema.parse(
      (await postOp('contents/kuji_fairness', { box_id: ready!.box_id })).json(),
    ).fairness;
    expect(opened).toMatchObject({ seed: null, box_status: 'onSale' });
    expect(opened.stock.find((s) => s.rank === 'A賞')).toEqual({ rank: 'A賞', quantity: 2 });
    const late = await operator('kuji_box_stock', { box_id: ready!.box_id, prizes: [{ rank: 'A賞', quantity: 9 }] });
    expect(late.json()).toMatchObject({
      error_code: 409,
      error_info: 'このBOXは販売を開始しているため、在庫を変更できません。',
    });

    const buyer = await createTestUser(op, {}, { freeTc: 100_000 });
    const info = kujiReserveResponseSchema.parse(
      (
        await postOp('play/kuji_reserve', { user_id: buyer.user_id, access_token: buyer.access_token, ...ready })
      ).json(),
    ).play_info;
    expect(
      (
        await postOp('play/kuji_draw', {
          user_id: buyer.user_id,
          access_token: buyer.access_token,
          reserve_token: info.reserve_token,
          ...ready,
          count: 3,
          request_id: 'operator-test-0001',
        })
      ).statusCode,
    ).toBe(200);
    const waiting = await createTestUser(op, {}, { freeTc: 1_000 });
    const waitInfo = kujiReserveResponseSchema.parse(
      (
        await postOp('play/kuji_reserve', { user_id: waiting.user_id, access_token: waiting.access_token, ...ready })
      ).json(),
    ).play_info;
    expect(waitInfo.reserve_status).toBe('reserve');
    expect((await operator('kuji_box_status', { box_id: ready!.box_id, box_status: 'endOfSale' })).statusCode).toBe(
      200,
    );
    // The line of the ended box is over for everyone in it.
    const after = await postOp('play/kuji_polling', {
      user_id: waiting.user_id,
      access_token: waiting.access_token,
      reserve_token: waitInfo.reserve_token,
      ...ready,
    });
    expect(after.json().polling.play_info).toMatchObject({ reserve_status: 'end', box_status: 'endOfSale' });
    const ended = kujiFairnessResponseSchema.parse(
      (await postOp('contents/kuji_fairness', { box_id: ready!.box_id })).json(),
    ).fairness;
    expect(ended.commitment).toBe(opened.commitment);
    expect(ended.draws).toHaveLength(3);
    expect(
      verifyKujiBox({
        boxId: ready!.box_id,
        seed: ended.seed!,
        commitment: ended.commitment,
        stock: ended.stock,
        draws: ended.draws,
      }).ok,
    ).toBe(true);
  });
});
