/**
 * Attacker's probes of the kuji draw (`POST /play/kuji_draw`) and its fairness record
 * (`POST /contents/kuji_fairness`), docs/kuji.md. Every refusal must be non-200 with a Japanese
 * error_info and change nothing (stock via /contents/kuji, balance via /user/tc, and the store's
 * draws, ledger rows, prizes and line); no answer may be a 5xx; no ticket is drawn twice, no stock
 * goes negative, the ledger charges exactly tickets × price; the seed stays secret until the box ends.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  KUJI_REMAIN_MAX_SECONDS,
  kujiDrawResponseSchema,
  kujiFairnessResponseSchema,
  kujiListResponseSchema,
  kujiPollingResponseSchema,
  kujiReserveResponseSchema,
  tcResponseSchema,
  type KujiDraw,
  type KujiFairness,
  type KujiItem,
  type KujiPlayInfo,
} from '../../src/contract';
import { verifyKujiBox } from '../../src/domain';
import { ManualServerClock } from '../support/manual-server-clock';
import type { ScheduledTask } from '../../server/clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

const OPERATOR_TOKEN = 'operator-token-for-kuji-probe-0123456789';
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;
const M = {
  notFound: 'くじの予約が見つかりませんでした。',
  ended: 'このくじの予約はすでに終了しています。',
  notYourTurn: 'まだあなたの順番ではありません。順番が来るまでお待ちください。',
  notEnough: (left: number) => `このBOXの残りは${left}枚です。枚数を選び直してください。`,
  notOpened: 'このBOXはまだ販売を開始していません。',
  noRecord: 'このBOXには公開できる抽選の記録がありません。',
  boxNotOnSale: 'このBOXは現在販売していません。',
} as const;

type Box = { kuji_id: number; box_id: number; price: number };
type Answer = { url: string; status: number; text: string };

let requests = 0;
const rid = (tag = 'probe') => `${tag}-${Date.now().toString(36)}-${(requests += 1)}`;

/** Calls of one test server; every answer is kept so a test can assert there was never a 5xx. */
function client(get: () => TestServer) {
  const answers: Answer[] = [];
  const raw = async (url: string, payload: object | string, headers: Record<string, string> = {}) => {
    const res = await get().server.app.inject({
      method: 'POST',
      url: `/api/${url}`,
      payload,
      headers: typeof payload === 'string' ? { 'content-type': 'application/json', ...headers } : headers,
    });
    answers.push({ url, status: res.statusCode, text: res.body });
    return res;
  };
  const post = (url: string, body: object | string) => raw(url, body);
  const as = (u: TestUser, extra: object = {}) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });
  const store = () => get().server.store();
  const list = async (): Promise<KujiItem[]> =>
    kujiListResponseSchema.parse((await post('contents/kuji', { type: 1 })).json()).list;
  const balance = async (u: TestUser) => tcResponseSchema.parse((await post('user/tc', as(u))).json()).data;
  const reserve = async (u: TestUser, b: { kuji_id: number; box_id: number }): Promise<KujiPlayInfo> => {
    const res = await post('play/kuji_reserve', as(u, { kuji_id: b.kuji_id, box_id: b.box_id }));
    expect(res.statusCode, res.body).toBe(200);
    return kujiReserveResponseSchema.parse(res.json()).play_info;
  };
  const draw = (
    u: TestUser,
    info: { reserve_token: string; kuji_id: number; box_id: number },
    count: unknown,
    requestId: unknown = rid(),
  ) =>
    post(
      'play/kuji_draw',
      as(u, {
        reserve_token: info.reserve_token,
        kuji_id: info.kuji_id,
        box_id: info.box_id,
        count,
        request_id: requestId,
      }),
    );
  const poll = async (u: TestUser, info: KujiPlayInfo) => {
    const res = await post(
      'play/kuji_polling',
      as(u, { reserve_token: info.reserve_token, kuji_id: info.kuji_id, box_id: info.box_id }),
    );
    expect(res.statusCode, res.body).toBe(200);
    return kujiPollingResponseSchema.parse(res.json()).polling.play_info;
  };
  const fairness = async (boxId: number, extra: object = {}): Promise<KujiFairness> => {
    const res = await post('contents/kuji_fairness', { box_id: boxId, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return kujiFairnessResponseSchema.parse(res.json()).fairness;
  };
  const secretSeed = async (boxId: number) =>
    (await store().query<{ seed: string }>('SELECT seed FROM kuji_box_fairness WHERE box_id = $1', [boxId]))[0]?.seed ??
    null;

  /** A new box on sale in a seeded kuji, with the given tickets per rank (and the kuji's last-one prize if asked). */
  const makeBox = async (kujiIndex: number, stock: Record<string, number>, lastOne = true): Promise<Box> => {
    const kuji = (await list())[kujiIndex]!;
    const db = store();
    const [box] = await db.query<{ box_id: number }>(
      `INSERT INTO kuji_boxes (kuji_id, box_no, box_status) VALUES ($1, (SELECT max(box_no) + 1 FROM kuji_boxes WHERE kuji_id = $1), 'onSale') RETURNING box_id`,
      [kuji.kuji_id],
    );
    const template = await db.query<{
      rank: string;
      prize_name: string;
      image_key: string;
      sort: number;
      is_last_one: boolean;
    }>(
      'SELECT rank, prize_name, image_key, sort, is_last_one FROM kuji_box_prizes WHERE box_id = (SELECT min(box_id) FROM kuji_boxes WHERE kuji_id = $1)',
      [kuji.kuji_id],
    );
    for (const p of template) {
      if (p.is_last_one && !lastOne) continue;
      const n = p.is_last_one ? 1 : (stock[p.rank] ?? 0);
      await db.query(
        'INSERT INTO kuji_box_prizes (box_id, rank, prize_name, image_key, quantity, remaining, sort, is_last_one) VALUES ($1, $2, $3, $4, $5, $5, $6, $7)',
        [box!.box_id, p.rank, p.prize_name, p.image_key, n, p.sort, p.is_last_one],
      );
    }
    return { kuji_id: kuji.kuji_id, box_id: box!.box_id, price: kuji.price };
  };

  /** Everything a refusal must leave as it was: stock, balances, and the store's draws, ledger, prizes, tickets and lines. */
  const snapshot = async (users: TestUser[], boxIds: number[]) => {
    const boxes = (await list())
      .flatMap((k) => k.boxes)
      .filter((b) => boxIds.includes(b.box_id))
      .map((b) => ({
        box_id: b.box_id,
        box_status: b.box_status,
        remaining_count: b.remaining_count,
        prizes: b.prizes.map((p) => [p.rank, p.remaining]),
      }));
    const balances = await Promise.all(users.map(balance));
    const ids = users.map((u) => u.user_id);
    const [counts] = await store().query(
      `SELECT (SELECT count(*)::int FROM kuji_draws) AS draws, (SELECT count(*)::int FROM tc_ledger WHERE user_id = ANY($1::int[])) AS ledger,
              (SELECT count(*)::int FROM won_prizes WHERE user_id = ANY($1::int[])) AS won,
              (SELECT count(*)::int FROM kuji_box_tickets WHERE box_id = ANY($2::int[]) AND draw_id IS NOT NULL) AS drawn`,
      [ids, boxIds],
    );
    const lines = await store().query(
      'SELECT kuji_play_reserve_id, user_id, reserve_status, play_at, end_reason FROM kuji_reservations WHERE user_id = ANY($1::int[]) OR box_id = ANY($2::int[]) ORDER BY kuji_play_reserve_id',
      [ids, boxIds],
    );
    const fair = await store().query(
      'SELECT box_id, commitment, revealed_at FROM kuji_box_fairness WHERE box_id = ANY($1::int[]) ORDER BY box_id',
      [boxIds],
    );
    return { boxes, balances, counts, lines, fair };
  };
  const expectRefusal = (
    res: { statusCode: number; body: string; json(): unknown },
    status: number,
    info?: string | RegExp,
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json() as { error_code: number; error_info: string };
    expect(body.error_code, res.body).not.toBe(200);
    expect(body.error_info, res.body).toMatch(JAPANESE);
    if (typeof info === 'string') expect(body.error_info).toBe(info);
    else if (info) expect(body.error_info).toMatch(info);
  };
  /** Store-level accounting of a user's kuji: ledger charges, draws, tickets and won prizes. */
  const accounts = async (userId: number) => {
    const [row] = await store().query<{
      charged: number;
      keys: number;
      draws: number;
      tickets: number;
      claimed: number;
      won: number;
    }>(
      `SELECT (SELECT coalesce(sum(-delta), 0)::int FROM tc_ledger WHERE user_id = $1 AND reason = 'kuji') AS charged,
              (SELECT count(DISTINCT idempotency_key)::int FROM tc_ledger WHERE user_id = $1 AND reason = 'kuji') AS keys,
              (SELECT count(*)::int FROM kuji_draws WHERE user_id = $1) AS draws,
              (SELECT coalesce(sum(price_total), 0)::int FROM kuji_draws WHERE user_id = $1) AS claimed,
              (SELECT count(*)::int FROM kuji_box_tickets t JOIN kuji_draws d ON d.draw_id = t.draw_id WHERE d.user_id = $1) AS tickets,
              (SELECT coalesce(sum(prize_count), 0)::int FROM won_prizes WHERE user_id = $1 AND prize_kind = 'kuji') AS won`,
      [userId],
    );
    return row!;
  };
  const noServerErrors = () =>
    expect(answers.filter((a) => a.status >= 500).map((a) => `${a.url} ${a.status} ${a.text}`)).toEqual([]);
  return {
    answers,
    raw,
    post,
    as,
    store,
    list,
    balance,
    reserve,
    draw,
    poll,
    fairness,
    secretSeed,
    makeBox,
    snapshot,
    expectRefusal,
    accounts,
    noServerErrors,
  };
}

let t: TestServer;
const c = client(() => t);
const { post, as, reserve, draw, poll, fairness, secretSeed, makeBox, snapshot, expectRefusal, accounts, balance } = c;
const operator = (path: string, body: object) =>
  t.server.app.inject({
    method: 'POST',
    url: `/api/operator/${path}`,
    payload: body,
    headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
  });
const parseDraw = (res: { statusCode: number; body: string; json(): unknown }): KujiDraw => {
  expect(res.statusCode, res.body).toBe(200);
  return kujiDrawResponseSchema.parse(res.json()).draw;
};

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, env: { ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
});
// Each test answers for its own calls' 5xx.
beforeEach(() => {
  c.answers.length = 0;
});
afterAll(async () => {
  await t?.close();
});

describe('kuji_draw: whose reservation it is', () => {
  it("another user's reserve_token with my identity (and vice versa), a token of another box or kuji, my token with someone else's user_id: refused, nothing changes", async () => {
    const p = await makeBox(0, { A賞: 1, D賞: 4 });
    const q = await makeBox(1, { A賞: 1, D賞: 4 });
    const alice = await createTestUser(t, {}, { freeTc: 50_000 });
    const bob = await createTestUser(t, {}, { freeTc: 50_000 });
    const a = await reserve(alice, p);
    const b = await reserve(bob, q);
    expect([a.reserve_status, b.reserve_status]).toEqual(['firstReserved', 'firstReserved']);
    const before = await snapshot([alice, bob], [p.box_id, q.box_id]);

    // Bob presents Alice's token (her box) with his own identity, and the other way round.
    expectRefusal(await draw(bob, a, 1), 404, M.notFound);
    expectRefusal(await draw(alice, b, 1), 404, M.notFound);
    // Alice's token on Bob's box, on the right box of the wrong kuji, on the right kuji with the wrong box.
    expectRefusal(await draw(alice, { ...a, kuji_id: q.kuji_id, box_id: q.box_id }, 1), 404, M.notFound);
    expectRefusal(await draw(alice, { ...a, kuji_id: q.kuji_id }, 1), 404, M.notFound);
    expectRefusal(await draw(alice, { ...a, box_id: q.box_id }, 1), 404, M.notFound);
    // A well-formed token nobody holds.
    expectRefusal(await draw(alice, { ...a, reserve_token: 'A'.repeat(32) }, 1), 404, M.notFound);
    // Alice's token with Bob's user_id and Alice's access token (or Bob's access token and Alice's user_id): not signed in.
    const forged = await post('play/kuji_draw', {
      user_id: bob.user_id,
      access_token: alice.access_token,
      reserve_token: a.reserve_token,
      kuji_id: p.kuji_id,
      box_id: p.box_id,
      count: 1,
      request_id: rid(),
    });
    expectRefusal(forged, 401);
    const forged2 = await post('play/kuji_draw', {
      user_id: alice.user_id,
      access_token: bob.access_token,
      reserve_token: a.reserve_token,
      kuji_id: p.kuji_id,
      box_id: p.box_id,
      count: 1,
      request_id: rid(),
    });
    expectRefusal(forged2, 401);
    // "all" with her token changes nothing either.
    expectRefusal(await draw(bob, a, 'all'), 404, M.notFound);

    expect(await snapshot([alice, bob], [p.box_id, q.box_id])).toEqual(before);
    // The control: with her own token Alice draws (so the refusals above were about the token).
    expect(parseDraw(await draw(alice, a, 1)).tickets).toHaveLength(1);
    c.noServerErrors();
  });

  it('a cancelled reservation, a player still waiting in line, and a sold-out box: 409 in Japanese, nothing changes', async () => {
    const p = await makeBox(0, { A賞: 1, B賞: 1, D賞: 2 });
    const alice = await createTestUser(t, {}, { freeTc: 50_000 });
    const wanda = await createTestUser(t, {}, { freeTc: 50_000 });
    const zed = await createTestUser(t, {}, { freeTc: 50_000 });
    const a = await reserve(alice, p);
    const w = await reserve(wanda, p);
    const z = await reserve(zed, p);
    expect([a.reserve_status, w.reserve_status, z.reserve_status]).toEqual(['firstReserved', 'reserve', 'reserve']);

    let before = await snapshot([alice, wanda, zed], [p.box_id]);
    expectRefusal(await draw(wanda, w, 1), 409, M.notYourTurn);
    expectRefusal(await draw(zed, z, 'all'), 409, M.notYourTurn);
    expect(await snapshot([alice, wanda, zed], [p.box_id])).toEqual(before);

    // Alice cancels: her token is dead, Wanda holds the box.
    expect(
      (
        await post(
          'play/kuji_reserve_cancel',
          as(alice, { reserve_token: a.reserve_token, kuji_id: p.kuji_id, box_id: p.box_id }),
        )
      ).statusCode,
    ).toBe(200);
    expect((await poll(wanda, w)).reserve_status).toBe('firstReserved');
    before = await snapshot([alice, wanda, zed], [p.box_id]);
    expectRefusal(await draw(alice, a, 1), 409, M.ended);
    expectRefusal(await draw(alice, a, 'all'), 409, M.ended);
    expect(await snapshot([alice, wanda, zed], [p.box_id])).toEqual(before);

    // Wanda sells the box out: the last-one prize once, every reservation of the box ended.
    const all = parseDraw(await draw(wanda, w, 'all'));
    expect(all.tickets).toHaveLength(4);
    expect(all.last_one).not.toBeNull();
    expect(all.box_status).toBe('outOfStock');
    before = await snapshot([alice, wanda, zed], [p.box_id]);
    expectRefusal(await draw(wanda, w, 1), 409, M.ended);
    expectRefusal(await draw(wanda, w, 'all'), 409, M.ended);
    expectRefusal(await draw(zed, z, 1), 409, M.ended);
    // A new line on the sold-out box is refused, so there is no token to draw with.
    const late = await post('play/kuji_reserve', as(alice, { kuji_id: p.kuji_id, box_id: p.box_id }));
    expectRefusal(late, 409, M.boxNotOnSale);
    expect(await snapshot([alice, wanda, zed], [p.box_id])).toEqual(before);
    expect(await poll(zed, z)).toMatchObject({ reserve_status: 'end', box_status: 'outOfStock' });
    c.noServerErrors();
  });
});

describe('kuji_draw: bad bodies', () => {
  it('counts other than 1, 3, 5, 10, "all" and malformed request ids are 400 in Japanese and change nothing; the limits themselves draw', async () => {
    const p = await makeBox(0, { A賞: 1, B賞: 2, C賞: 6, D賞: 12 });
    const u = await createTestUser(t, {}, { freeTc: 100_000 });
    const info = await reserve(u, p);
    const before = await snapshot([u], [p.box_id]);

    const badCounts: unknown[] = [
      0,
      -1,
      2,
      4,
      11,
      100,
      'ALL',
      'All',
      'all ',
      ' all',
      '1',
      '3',
      1.5,
      0.999,
      -0.5,
      1e9,
      Number.MAX_SAFE_INTEGER,
      2 ** 31,
      -(2 ** 31),
      1e308,
      [1],
      [1, 3],
      [],
      {},
      { count: 1 },
      null,
      true,
      false,
      '',
    ];
    for (const count of badCounts) expectRefusal(await draw(u, info, count), 400);
    // Numbers JSON.stringify cannot write, sent as raw JSON text.
    for (const literal of ['1e400', '-1e400', '1.0000000000000002', '9007199254740993', '3e0x']) {
      const text = `{"user_id":${u.user_id},"access_token":"${u.access_token}","reserve_token":"${info.reserve_token}","kuji_id":${p.kuji_id},"box_id":${p.box_id},"count":${literal},"request_id":"${rid()}"}`;
      const res = await c.raw('play/kuji_draw', text);
      expectRefusal(res, 400);
    }
    // A missing count.
    expectRefusal(
      await post(
        'play/kuji_draw',
        as(u, { reserve_token: info.reserve_token, kuji_id: p.kuji_id, box_id: p.box_id, request_id: rid() }),
      ),
      400,
    );

    const badIds: unknown[] = [
      'short7c',
      '',
      'x'.repeat(65),
      'x'.repeat(10_000),
      'has space1',
      'semi;colon',
      'dot.dot.dot',
      'slash/slash',
      'quote"quote',
      "it's-a-draw",
      'くじくじくじくじくじ',
      'ａｂｃｄｅｆｇｈ',
      'abcdefgh\u0000',
      'abcdefgh\n',
      'abcdéfgh',
      '😀😀😀😀😀😀😀😀',
      null,
      12345678,
      ['abcdefgh'],
      { id: 'abcdefgh' },
      true,
    ];
    for (const id of badIds) expectRefusal(await draw(u, info, 1, id), 400);
    expectRefusal(
      await post(
        'play/kuji_draw',
        as(u, { reserve_token: info.reserve_token, kuji_id: p.kuji_id, box_id: p.box_id, count: 1 }),
      ),
      400,
    );
    // Bad ids of the box and kuji: 400 before anything is looked up.
    for (const boxId of [0, -1, 2 ** 31, 1e20, 1.5, '1', null]) {
      expectRefusal(
        await post(
          'play/kuji_draw',
          as(u, { reserve_token: info.reserve_token, kuji_id: p.kuji_id, box_id: boxId, count: 1, request_id: rid() }),
        ),
        400,
      );
    }
    // Bodies that are not objects.
    for (const body of ['[]', 'null', '"draw"', '42', '{"count":1', '']) {
      const res = await c.raw('play/kuji_draw', body);
      expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect((res.json() as { error_info: string }).error_info).toMatch(JAPANESE);
    }
    expect(await snapshot([u], [p.box_id])).toEqual(before);

    // The limits are accepted: an id of exactly 8 and of exactly 64 characters of the whole alphabet.
    expect(parseDraw(await draw(u, info, 1, 'Az09_-Az')).tickets).toHaveLength(1);
    expect(parseDraw(await draw(u, info, 3, `${'Az09_-'.repeat(10)}abcd`)).tickets).toHaveLength(3);
    expect((await balance(u)).tc_all).toBe(100_000 - 4 * p.price);
    c.noServerErrors();
  });

  it('the same request_id with another count (or the same) answers the first draw, replayed: 1 — no second draw, no second charge', async () => {
    const p = await makeBox(0, { A賞: 1, B賞: 2, C賞: 6, D賞: 12 });
    const u = await createTestUser(t, {}, { freeTc: 100_000 });
    const info = await reserve(u, p);
    const id = rid('same');
    const first = parseDraw(await draw(u, info, 1, id));
    expect(first).toMatchObject({ replayed: 0, price_total: p.price });
    expect(first.tickets).toHaveLength(1);
    const before = await snapshot([u], [p.box_id]);
    const ledgerBefore = await accounts(u.user_id);

    for (const count of [3, 5, 10, 'all', 1] as const) {
      const again = parseDraw(await draw(u, info, count, id));
      // The answer is the first draw, whatever the count asked now.
      expect(again).toMatchObject({
        draw_id: first.draw_id,
        tickets: first.tickets,
        price_total: first.price_total,
        replayed: 1,
      });
    }
    // Fired at once, too.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => draw(u, info, ([1, 3, 5, 10, 'all'] as const)[i % 5], id)),
    );
    for (const res of burst) expect(parseDraw(res)).toMatchObject({ draw_id: first.draw_id, replayed: 1 });

    expect(await snapshot([u], [p.box_id])).toEqual(before);
    expect(await accounts(u.user_id)).toEqual(ledgerBefore);
    expect(ledgerBefore).toMatchObject({ charged: p.price, keys: 1, draws: 1, tickets: 1, claimed: p.price, won: 1 });

    // The id belongs to the user: another player using it draws (and pays) for himself only.
    const v = await createTestUser(t, {}, { freeTc: 100_000 });
    const q = await makeBox(0, { D賞: 3 });
    const vi = await reserve(v, q);
    expect(parseDraw(await draw(v, vi, 1, id))).toMatchObject({ replayed: 0, box_id: q.box_id });
    expect((await balance(v)).tc_all).toBe(100_000 - q.price);
    expect(await accounts(u.user_id)).toEqual(ledgerBefore);

    // After the box is left, the id resent with a reservation of another box still answers the first draw (of the first box) and draws nothing there.
    expect(
      (
        await post(
          'play/kuji_reserve_cancel',
          as(u, { reserve_token: info.reserve_token, kuji_id: p.kuji_id, box_id: p.box_id }),
        )
      ).statusCode,
    ).toBe(200);
    const r = await makeBox(1, { D賞: 5 });
    const ri = await reserve(u, r);
    const other = await snapshot([u], [p.box_id, r.box_id]);
    expect(parseDraw(await draw(u, ri, 10, id))).toMatchObject({
      draw_id: first.draw_id,
      box_id: p.box_id,
      replayed: 1,
    });
    // With a token that is not the caller's, the replayed id is still no way in: 404, nothing changes.
    expectRefusal(await draw(u, { ...ri, reserve_token: vi.reserve_token }, 1, id), 404, M.notFound);
    expect(await snapshot([u], [p.box_id, r.box_id])).toEqual(other);
    expect(await accounts(u.user_id)).toEqual(ledgerBefore);
    c.noServerErrors();
  });
});

describe('kuji_draw: TC exactly at the boundary', () => {
  it('balance = price × count − 1 is 402 and changes nothing; one more TC (toll) and the same request draws, leaving exactly 0 (free first)', async () => {
    const p = await makeBox(0, { C賞: 2, D賞: 8 });
    const price3 = 3 * p.price;
    const u = await createTestUser(t, {}, { freeTc: price3 - 1 });
    const info = await reserve(u, p);
    const before = await snapshot([u], [p.box_id]);
    const id = rid('boundary');

    expectRefusal(await draw(u, info, 3, id), 402, /TC/);
    expectRefusal(await draw(u, info, 5, rid()), 402, /TC/);
    expectRefusal(await draw(u, info, 10, rid()), 402, /TC/);
    expectRefusal(await draw(u, info, 'all', rid()), 402, /TC/);
    expect(await snapshot([u], [p.box_id])).toEqual(before);
    expect(before.balances[0]).toEqual({ tc_all: price3 - 1, tc_free: price3 - 1, tc_toll: 0 });

    await t.server
      .services()
      .ledger.credit(u.user_id, 'toll', { amount: 1, reason: 'admin', idempotencyKey: 'probe:one-more' });
    // The refused request id was not spent: it draws now.
    const d = parseDraw(await draw(u, info, 3, id));
    expect(d).toMatchObject({ replayed: 0, price_total: price3, tc: { tc_all: 0, tc_free: 0, tc_toll: 0 } });
    expect(d.tickets).toHaveLength(3);
    expect(await balance(u)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
    const rows = await c
      .store()
      .query<{ kind: string; delta: number }>(
        `SELECT kind, delta FROM tc_ledger WHERE user_id = $1 AND reason = 'kuji' ORDER BY kind`,
        [u.user_id],
      );
    expect(rows).toEqual([
      { kind: 'free', delta: -(price3 - 1) },
      { kind: 'toll', delta: -1 },
    ]);
    expect(await t.server.services().ledger.fromRows(u.user_id)).toMatchObject({ tc_free: 0, tc_toll: 0 });

    // At 0 even one ticket is 402, and nothing moves.
    const after = await snapshot([u], [p.box_id]);
    expectRefusal(await draw(u, info, 1, rid()), 402, /TC/);
    expect(await snapshot([u], [p.box_id])).toEqual(after);
    c.noServerErrors();
  });

  it("a charge above the ledger's largest amount (a kuji priced 40,000,000 TC, 3 tickets) is a 4xx refusal in Japanese, not a 5xx (DEFECT when it is)", async () => {
    const db = c.store();
    const [k] = await db.query<{ kuji_id: number }>(
      `INSERT INTO kuji (shop_id, kuji_name, description, price, starts_at, ends_at, sort) SELECT shop_id, 'たかいくじ', 'とても高いくじ', 40000000, starts_at, ends_at, 98 FROM kuji ORDER BY kuji_id LIMIT 1 RETURNING kuji_id`,
    );
    const [b] = await db.query<{ box_id: number }>(
      `INSERT INTO kuji_boxes (kuji_id, box_no, box_status) VALUES ($1, 1, 'onSale') RETURNING box_id`,
      [k!.kuji_id],
    );
    const [img] = await db.query<{ image_key: string }>('SELECT image_key FROM kuji_box_prizes LIMIT 1');
    await db.query(
      `INSERT INTO kuji_box_prizes (box_id, rank, prize_name, image_key, quantity, remaining, sort, is_last_one) VALUES ($1, 'A賞', 'たかい景品', $2, 3, 3, 0, false)`,
      [b!.box_id, img!.image_key],
    );
    const u = await createTestUser(t, {}, { freeTc: 1_000 });
    const info = await reserve(u, { kuji_id: k!.kuji_id, box_id: b!.box_id });
    const before = await snapshot([u], [b!.box_id]);
    // One ticket (40,000,000) is within the ledger's limit: a plain 402.
    expectRefusal(await draw(u, info, 1), 402, /TC/);
    // Three (120,000,000) and all three are above MAX_LEDGER_AMOUNT (100,000,000).
    const three = await draw(u, info, 3);
    const all = await draw(u, info, 'all');
    // Whatever the answer, nothing changed (the transaction rolled back)…
    expect(await snapshot([u], [b!.box_id])).toEqual(before);
    // …but the answer must be a refusal, not a server fault.
    for (const [what, res] of [
      ['count 3', three],
      ['count "all"', all],
    ] as const) {
      expect.soft(res.statusCode, `${what} on a 40,000,000 TC kuji → ${res.statusCode} ${res.body}`).toBeLessThan(500);
      expect.soft((res.json() as { error_info: string }).error_info).toMatch(JAPANESE);
    }
  });
});

describe('kuji_draw under concurrency', () => {
  it('one holder fires 50 draws of 3 at once on a box of 20: six draw, the rest are 409, 18 tickets each once, charged 18 × price exactly', async () => {
    const p = await makeBox(0, { A賞: 1, B賞: 2, C賞: 5, D賞: 12 });
    const START = 100_000;
    const u = await createTestUser(t, {}, { freeTc: START });
    const info = await reserve(u, p);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => draw(u, info, 3, `burst-${p.box_id}-${i}`)));
    expect(results.filter((r) => r.statusCode >= 500).map((r) => r.body)).toEqual([]);
    const ok = results.filter((r) => r.statusCode === 200).map(parseDraw);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(6);
    expect(ok.every((d) => d.replayed === 0 && d.tickets.length === 3 && d.price_total === 3 * p.price)).toBe(true);
    for (const r of refused) expectRefusal(r, 409, M.notEnough(2));
    const positions = ok.flatMap((d) => d.tickets.map((x) => x.position));
    expect(new Set(positions).size).toBe(18);
    // Every remaining_count an answer showed is one the box really had, each exactly once.
    expect(ok.map((d) => d.remaining_count).sort((x, y) => x - y)).toEqual([2, 5, 8, 11, 14, 17]);

    const box = (await c.list()).flatMap((k) => k.boxes).find((b) => b.box_id === p.box_id)!;
    expect(box).toMatchObject({ box_status: 'onSale', remaining_count: 2 });
    expect(box.prizes.every((x) => x.remaining >= 0)).toBe(true);
    expect((await balance(u)).tc_all).toBe(START - 18 * p.price);
    expect(await accounts(u.user_id)).toEqual({
      charged: 18 * p.price,
      keys: 6,
      draws: 6,
      tickets: 18,
      claimed: 18 * p.price,
      won: 18,
    });

    // The last two with "all": the box sells out with the last-one prize, once.
    const last = parseDraw(await draw(u, info, 'all'));
    expect(last.tickets).toHaveLength(2);
    expect(last.last_one).not.toBeNull();
    expect(await accounts(u.user_id)).toEqual({
      charged: 20 * p.price,
      keys: 7,
      draws: 7,
      tickets: 20,
      claimed: 20 * p.price,
      won: 21,
    });
    const f = await fairness(p.box_id);
    expect(new Set(f.draws.map((d) => d.position))).toEqual(new Set(Array.from({ length: 20 }, (_, i) => i)));
    expect(
      verifyKujiBox({ boxId: p.box_id, seed: f.seed!, commitment: f.commitment, stock: f.stock, draws: f.draws }).ok,
    ).toBe(true);
    c.noServerErrors();
  });

  it('two holders drain two boxes at once (mixed counts and resends) while a third player polls: never negative, never twice, ledger and prizes exact', async () => {
    const START = 200_000;
    const boxes = [
      await makeBox(0, { A賞: 1, B賞: 2, C賞: 6, D賞: 12 }),
      await makeBox(1, { A賞: 1, B賞: 2, C賞: 6, D賞: 12 }),
    ];
    const holders = await Promise.all(
      boxes.map(async (b) => {
        const u = await createTestUser(t, {}, { freeTc: START });
        return { u, b, info: await reserve(u, b) };
      }),
    );
    const zed = await createTestUser(t, {}, { freeTc: START });
    const z = await reserve(zed, boxes[0]!);
    expect(z.reserve_status).toBe('reserve');
    const TOTAL = 21;
    const openStock = await Promise.all(boxes.map((b) => fairness(b.box_id)));
    expect(openStock.every((f) => f.seed === null && f.draws.length === 0)).toBe(true);

    // The poller: the line, the stock and the fairness of both boxes, over and over while the draws run.
    let done = false;
    const seen: string[] = [];
    const lastRemaining = new Map<number, number>();
    const poller = (async () => {
      let rounds = 0;
      while (!done || rounds < 3) {
        rounds += 1;
        const mine = await c.post(
          'play/kuji_polling',
          as(zed, { reserve_token: z.reserve_token, kuji_id: z.kuji_id, box_id: z.box_id }),
        );
        if (mine.statusCode !== 200) seen.push(`polling ${mine.statusCode} ${mine.body}`);
        const listed = (await c.list()).flatMap((k) => k.boxes);
        for (const b of boxes) {
          const box = listed.find((x) => x.box_id === b.box_id)!;
          if (box.remaining_count < 0 || box.prizes.some((x) => x.remaining < 0))
            seen.push(`negative stock ${JSON.stringify(box)}`);
          if (box.remaining_count > (lastRemaining.get(b.box_id) ?? TOTAL))
            seen.push(`stock went up on box ${b.box_id}`);
          lastRemaining.set(b.box_id, box.remaining_count);
          const res = await c.post('contents/kuji_fairness', { box_id: b.box_id });
          if (res.statusCode !== 200) {
            seen.push(`fairness ${res.statusCode}`);
            continue;
          }
          const f = kujiFairnessResponseSchema.parse(res.json()).fairness;
          if (f.box_status === 'onSale' && (f.seed !== null || f.revealed_at !== null))
            seen.push(`seed shown while on sale on box ${b.box_id}`);
          if (new Set(f.draws.map((d) => d.position)).size !== f.draws.length)
            seen.push(`a position twice on box ${b.box_id}`);
          if (f.draws.length > TOTAL) seen.push(`more draws than tickets on box ${b.box_id}`);
        }
      }
      return rounds;
    })();

    const COUNTS = [1, 3, 5, 10, 'all', 1, 3] as const;
    const calls = holders.flatMap(({ u, b, info }) =>
      Array.from({ length: 28 }, (_, i) => {
        const requestId = `drain-${b.box_id}-${i % 6 === 5 ? i - 1 : i}`;
        const count = COUNTS[(i % 6 === 5 ? i - 1 : i) % COUNTS.length]!;
        return draw(u, info, count, requestId).then((r) => ({ b, r }));
      }),
    );
    const results = await Promise.all(calls);
    done = true;
    const rounds = await poller;
    expect(rounds).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([]);
    expect(results.filter(({ r }) => r.statusCode >= 500).map(({ r }) => r.body)).toEqual([]);
    for (const { r } of results.filter(({ r }) => r.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().error_info).toMatch(JAPANESE);
    }

    const drawnPositions = new Map<number, number[]>();
    for (const { u, b } of holders) {
      const mine = results.filter((x) => x.b.box_id === b.box_id && x.r.statusCode === 200).map((x) => parseDraw(x.r));
      const fresh = [...new Map(mine.filter((d) => d.replayed === 0).map((d) => [d.draw_id, d])).values()];
      // A fresh draw id is answered fresh once; a resend names a fresh draw.
      expect(fresh).toHaveLength(mine.filter((d) => d.replayed === 0).length);
      for (const d of mine.filter((x) => x.replayed === 1)) expect(fresh.map((f) => f.draw_id)).toContain(d.draw_id);
      const positions = fresh.flatMap((d) => d.tickets.map((x) => x.position!));
      drawnPositions.set(b.box_id, positions);
      expect(positions.length).toBe(TOTAL);
      expect(new Set(positions)).toEqual(new Set(Array.from({ length: TOTAL }, (_, i) => i)));
      expect(fresh.filter((d) => d.last_one !== null)).toHaveLength(1);
      expect(fresh.reduce((n, d) => n + d.price_total, 0)).toBe(TOTAL * b.price);
      // The ledger: exactly one charge per fresh draw, in all exactly tickets × price.
      expect(await accounts(u.user_id)).toEqual({
        charged: TOTAL * b.price,
        keys: fresh.length,
        draws: fresh.length,
        tickets: TOTAL,
        claimed: TOTAL * b.price,
        won: TOTAL + 1,
      });
      const keys = (
        await c
          .store()
          .query<{ idempotency_key: string }>(
            `SELECT DISTINCT idempotency_key FROM tc_ledger WHERE user_id = $1 AND reason = 'kuji'`,
            [u.user_id],
          )
      )
        .map((k) => k.idempotency_key)
        .sort();
      expect(keys).toEqual(fresh.map((d) => `kuji_draw:${d.draw_id}`).sort());
      expect((await balance(u)).tc_all).toBe(START - TOTAL * b.price);
      expect(await t.server.services().ledger.fromRows(u.user_id)).toMatchObject({
        tc_free: START - TOTAL * b.price,
        tc_toll: 0,
      });
      // won_prizes rows: by prize name, exactly what the draws handed out.
      const expected = new Map<string, number>();
      for (const d of fresh)
        for (const x of [...d.tickets, ...(d.last_one ? [d.last_one] : [])])
          expected.set(x.prize_name, (expected.get(x.prize_name) ?? 0) + 1);
      const won = await c
        .store()
        .query<{ product_name: string; n: number }>(
          `SELECT product_name, sum(prize_count)::int AS n FROM won_prizes WHERE user_id = $1 AND prize_kind = 'kuji' GROUP BY product_name`,
          [u.user_id],
        );
      expect(new Map(won.map((w) => [w.product_name, w.n]))).toEqual(expected);
      // The stock: empty, sold out; the seed re-derives every draw.
      const box = (await c.list()).flatMap((k) => k.boxes).find((x) => x.box_id === b.box_id)!;
      expect(box.box_status).toBe('outOfStock');
      expect(box.prizes.every((x) => x.remaining === 0)).toBe(true);
      const f = await fairness(b.box_id);
      expect(f.draws.map((d) => d.position)).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
      expect(
        verifyKujiBox({ boxId: b.box_id, seed: f.seed!, commitment: f.commitment, stock: f.stock, draws: f.draws }).ok,
      ).toBe(true);
      expect(f.commitment).toBe(openStock[boxes.indexOf(b)]!.commitment);
    }
    // Store-wide for these boxes: each ticket row names one draw, and the draws' counts add up to them.
    const [sums] = await c.store().query<{ tickets: number; counted: number }>(
      `SELECT (SELECT count(*)::int FROM kuji_box_tickets WHERE box_id = ANY($1::int[]) AND draw_id IS NOT NULL) AS tickets,
              (SELECT coalesce(sum(ticket_count), 0)::int FROM kuji_draws WHERE box_id = ANY($1::int[])) AS counted`,
      [boxes.map((b) => b.box_id)],
    );
    expect(sums).toEqual({ tickets: 2 * TOTAL, counted: 2 * TOTAL });
    // The poller's place ended with the box.
    expect(await poll(zed, z)).toMatchObject({ reserve_status: 'end', box_status: 'outOfStock' });
    expect(await accounts(zed.user_id)).toMatchObject({ charged: 0, draws: 0, won: 0 });
    c.noServerErrors();
  });
});

describe('kuji_fairness: the seed stays secret until the box ends', () => {
  it('while on sale: no seed with or without identity, with a bad identity, with extra fields, after draws and cancels; the secret appears in no answer', async () => {
    const p = await makeBox(2, { A賞: 1, B賞: 2, C賞: 3 }, false);
    const alice = await createTestUser(t, {}, { freeTc: 50_000 });
    const bob = await createTestUser(t, {}, { freeTc: 50_000 });
    const opened = await fairness(p.box_id);
    const secret = await secretSeed(p.box_id);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const probes = async (tag: string) => {
      const bodies: object[] = [
        {},
        as(alice),
        { user_id: alice.user_id, access_token: 'x'.repeat(40) },
        { user_id: 999_999, access_token: alice.access_token },
        {
          seed: true,
          reveal: 1,
          include_seed: 1,
          revealed: true,
          debug: 1,
          admin: true,
          box_status: 'outOfStock',
          version: 'x',
          fields: ['seed'],
        },
        { ...as(bob), seed: 1, revealed_at: new Date().toISOString() },
        { shop_id: 2, kuji_id: p.kuji_id },
      ];
      for (const extra of bodies) {
        const res = await post('contents/kuji_fairness', { ...extra, box_id: p.box_id });
        expect(res.statusCode, `${tag} ${JSON.stringify(extra)} → ${res.body}`).toBe(200);
        const f = kujiFairnessResponseSchema.parse(res.json()).fairness;
        expect(f, tag).toMatchObject({
          seed: null,
          revealed_at: null,
          box_status: 'onSale',
          commitment: opened.commitment,
        });
        expect(res.body.includes(secret!), `${tag}: the secret seed is in the answer`).toBe(false);
      }
    };
    await probes('opened');
    const a = await reserve(alice, p);
    const b = await reserve(bob, p);
    await probes('in line');
    const d = await draw(alice, a, 3);
    expect(d.body.includes(secret!)).toBe(false);
    await probes('after 3 drawn');
    expect(
      (
        await post(
          'play/kuji_reserve_cancel',
          as(alice, { reserve_token: a.reserve_token, kuji_id: p.kuji_id, box_id: p.box_id }),
        )
      ).statusCode,
    ).toBe(200);
    await probes('after the holder cancelled');
    expect(
      (
        await post(
          'play/kuji_reserve_cancel',
          as(bob, { reserve_token: b.reserve_token, kuji_id: p.kuji_id, box_id: p.box_id }),
        )
      ).statusCode,
    ).toBe(200);
    await probes('after everyone cancelled');
    // Neither the kuji list nor the line's answers carry it.
    await c.list();
    await poll(bob, b);
    await post('play/kuji_status_check', as(alice));
    for (const answer of c.answers) expect(answer.text.includes(secret!), `${answer.url} leaked the seed`).toBe(false);

    // The box ends (the remaining 3): the seed is published and checks every draw.
    const carol = await createTestUser(t, {}, { freeTc: 50_000 });
    const ci = await reserve(carol, p);
    parseDraw(await draw(carol, ci, 'all'));
    const ended = await fairness(p.box_id);
    expect(ended).toMatchObject({ seed: secret, box_status: 'outOfStock', commitment: opened.commitment });
    expect(ended.revealed_at).not.toBeNull();
    expect(
      verifyKujiBox({
        boxId: p.box_id,
        seed: ended.seed!,
        commitment: ended.commitment,
        stock: ended.stock,
        draws: ended.draws,
      }),
    ).toMatchObject({ ok: true });
    // And the published record cannot be bent: another box id, a changed rank or position all fail.
    expect(
      verifyKujiBox({
        boxId: p.box_id + 1,
        seed: ended.seed!,
        commitment: ended.commitment,
        stock: ended.stock,
        draws: ended.draws,
      }).ok,
    ).toBe(false);
    const swapped = ended.draws.map((x, i) =>
      i === 0 ? { ...x, rank: ended.draws.find((y) => y.rank !== x.rank)!.rank } : x,
    );
    expect(
      verifyKujiBox({
        boxId: p.box_id,
        seed: ended.seed!,
        commitment: ended.commitment,
        stock: ended.stock,
        draws: swapped,
      }).ok,
    ).toBe(false);
    c.noServerErrors();
  });

  it('bad box ids are 4xx in Japanese: malformed, huge, negative, unknown, never opened; never a 5xx', async () => {
    for (const boxId of [
      0,
      -1,
      -2147483648,
      2 ** 31,
      1e20,
      Number.MAX_SAFE_INTEGER,
      1.5,
      '1',
      '',
      null,
      true,
      [1],
      { id: 1 },
    ]) {
      expectRefusal(await post('contents/kuji_fairness', { box_id: boxId }), 400);
    }
    expectRefusal(await post('contents/kuji_fairness', {}), 400);
    expectRefusal(await c.raw('contents/kuji_fairness', '{"box_id":1e400}'), 400);
    expectRefusal(await post('contents/kuji_fairness', { box_id: 2_147_483_647 }), 404, M.notOpened);
    expectRefusal(await post('contents/kuji_fairness', { box_id: 999_999 }), 404, M.notOpened);
    // The seeded boxes that never opened (ready, end of sale, sold out before the draws existed, deleted).
    const seeded = await c
      .store()
      .query<{ box_id: number; box_status: string }>(
        `SELECT b.box_id, b.box_status FROM kuji_boxes b LEFT JOIN kuji_box_fairness f ON f.box_id = b.box_id WHERE f.box_id IS NULL AND b.box_status <> 'onSale' ORDER BY b.box_id`,
      );
    expect(seeded.map((s) => s.box_status).sort()).toEqual(['deleted', 'endOfSale', 'outOfStock', 'ready'].sort());
    // A ready box has not started; the ended ones never drew under a published order.
    for (const s of seeded)
      expectRefusal(
        await post('contents/kuji_fairness', { box_id: s.box_id }),
        404,
        s.box_status === 'ready' ? M.notOpened : M.noRecord,
      );
    // Asking does not open them.
    expect(
      await c
        .store()
        .query('SELECT box_id FROM kuji_box_fairness WHERE box_id = ANY($1::int[])', [seeded.map((s) => s.box_id)]),
    ).toEqual([]);
    c.noServerErrors();
  });

  it('a box of another shop: box ids are global and the record is public, but its seed is just as secret while on sale', async () => {
    const db = c.store();
    await db.query(`INSERT INTO shops (shop_id, shop_name) VALUES (2, 'よそのお店') ON CONFLICT DO NOTHING`);
    const [k] = await db.query<{ kuji_id: number }>(
      `INSERT INTO kuji (shop_id, kuji_name, description, price, starts_at, ends_at, sort) SELECT 2, 'よそのくじ', 'よそのお店のくじ', 500, starts_at, ends_at, 99 FROM kuji ORDER BY kuji_id LIMIT 1 RETURNING kuji_id`,
    );
    const [b] = await db.query<{ box_id: number }>(
      `INSERT INTO kuji_boxes (kuji_id, box_no, box_status) VALUES ($1, 1, 'onSale') RETURNING box_id`,
      [k!.kuji_id],
    );
    const [img] = await db.query<{ image_key: string }>('SELECT image_key FROM kuji_box_prizes LIMIT 1');
    await db.query(
      `INSERT INTO kuji_box_prizes (box_id, rank, prize_name, image_key, quantity, remaining, sort, is_last_one) VALUES ($1, 'A賞', 'よその景品', $2, 3, 3, 0, false)`,
      [b!.box_id, img!.image_key],
    );
    // Not in shop 1's list.
    const shop1 = kujiListResponseSchema.parse((await post('contents/kuji', { type: 1, shop_id: 1 })).json()).list;
    expect(shop1.flatMap((x) => x.boxes).some((x) => x.box_id === b!.box_id)).toBe(false);
    const res = await post('contents/kuji_fairness', { box_id: b!.box_id, shop_id: 1 });
    expect(res.statusCode).toBeLessThan(500);
    if (res.statusCode === 200) {
      const f = kujiFairnessResponseSchema.parse(res.json()).fairness;
      expect(f).toMatchObject({ seed: null, revealed_at: null, kuji_id: k!.kuji_id });
      expect(res.body.includes((await secretSeed(b!.box_id))!)).toBe(false);
    } else {
      expectRefusal(res, res.statusCode);
    }
    // And a reservation in shop 1 cannot draw from it.
    const u = await createTestUser(t, {}, { freeTc: 10_000 });
    const p = await makeBox(0, { D賞: 2 });
    const info = await reserve(u, p);
    const before = await snapshot([u], [p.box_id, b!.box_id]);
    expectRefusal(await draw(u, { ...info, kuji_id: k!.kuji_id, box_id: b!.box_id }, 1), 404, M.notFound);
    expect(await snapshot([u], [p.box_id, b!.box_id])).toEqual(before);
    c.noServerErrors();
  });

  it('operator: a box that ended publishes its seed and ends its line; putting it back on sale is refused, since its seed is public', async () => {
    const p = await makeBox(0, { A賞: 1, B賞: 2, C賞: 6, D賞: 12 });
    const holder = await createTestUser(t, {}, { freeTc: 100_000 });
    const waiting = await createTestUser(t, {}, { freeTc: 100_000 });
    const hi = await reserve(holder, p);
    const wi = await reserve(waiting, p);
    parseDraw(await draw(holder, hi, 3));
    const opened = await fairness(p.box_id);
    expect(opened.seed).toBeNull();

    expect((await operator('kuji_box_status', { box_id: p.box_id, box_status: 'endOfSale' })).statusCode).toBe(200);
    const ended = await fairness(p.box_id);
    expect(ended.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(
      verifyKujiBox({
        boxId: p.box_id,
        seed: ended.seed!,
        commitment: ended.commitment,
        stock: ended.stock,
        draws: ended.draws,
      }).ok,
    ).toBe(true);
    const before = await snapshot([holder, waiting], [p.box_id]);
    expectRefusal(await draw(holder, hi, 1), 409, M.ended);
    expectRefusal(await draw(waiting, wi, 1), 409, M.ended);
    expect(await snapshot([holder, waiting], [p.box_id])).toEqual(before);

    // Back on sale with 18 tickets left would give away the order of every remaining ticket (the seed
    // is public): the operator is refused, in Japanese, and nothing changes.
    const frozen = await snapshot([holder, waiting], [p.box_id]);
    const reopen = await operator('kuji_box_status', { box_id: p.box_id, box_status: 'onSale' });
    expect(reopen.statusCode).toBe(409);
    expect((reopen.json() as { error_info: string }).error_info).toBe(
      'このBOXは並び順のシードを公開済みのため、販売を再開できません。',
    );
    expect((await fairness(p.box_id)).box_status).toBe('endOfSale');
    expect(await snapshot([holder, waiting], [p.box_id])).toEqual(frozen);
    // Through ready and back is refused the same way.
    expect((await operator('kuji_box_status', { box_id: p.box_id, box_status: 'ready' })).statusCode).toBe(200);
    expect((await operator('kuji_box_status', { box_id: p.box_id, box_status: 'onSale' })).statusCode).toBe(409);
    c.noServerErrors();
  });
});

/** The manual clock, able to run every timer `lateMs` after it falls due (as a busy event loop does). */
class LateTimersClock extends ManualServerClock {
  lateMs = 0;
  override setTimeout(task: () => void, delayMs: number): ScheduledTask {
    return super.setTimeout(task, delayMs + this.lateMs);
  }
}

describe("the kuji line: a window lapsing while the holder's draw is in flight", () => {
  const clock = new LateTimersClock(new Date());
  let lt: TestServer;
  const l = client(() => lt);
  /** Lets the boxes' rooms finish what their events and timers queued. */
  const settle = () => lt.server.services().rooms.idle();
  beforeAll(async () => {
    lt = await startTestServer({ inMemory: true, clock });
  });
  afterAll(async () => lt?.close());
  beforeEach(() => {
    l.answers.length = 0;
  });

  /** The one outcome pair the code may give: refused as ended with nothing changed, or a draw charged exactly for the tickets it gave. */
  async function expectConsistent(
    res: { statusCode: number; body: string; json(): unknown },
    u: TestUser,
    b: Box,
    before: Awaited<ReturnType<typeof l.snapshot>>,
  ): Promise<'refused' | 'drawn'> {
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (res.statusCode !== 200) {
      l.expectRefusal(res, 409, M.ended);
      const after = await l.snapshot([u], [b.box_id]);
      expect({ ...after, lines: undefined }).toEqual({ ...before, lines: undefined });
      return 'refused';
    }
    const d = kujiDrawResponseSchema.parse(res.json()).draw;
    const acc = await l.accounts(u.user_id);
    const box = (await l.list()).flatMap((k) => k.boxes).find((x) => x.box_id === b.box_id)!;
    expect(d.price_total).toBe(d.tickets.length * b.price);
    expect((await l.balance(u)).tc_all).toBe(before.balances[0]!.tc_all - d.price_total);
    expect(acc.charged).toBe(acc.tickets * b.price);
    expect(box.remaining_count).toBe(before.boxes[0]!.remaining_count - d.tickets.length);
    return 'drawn';
  }

  it("after the lapse is processed, the old holder's draw is 409 ended and changes nothing; the next in line draws", async () => {
    const b = await l.makeBox(0, { D賞: 10 });
    const alice = await createTestUser(lt, {}, { freeTc: 10_000 });
    const bob = await createTestUser(lt, {}, { freeTc: 10_000 });
    const a = await l.reserve(alice, b);
    const bb = await l.reserve(bob, b);
    await settle();
    clock.advance(KUJI_REMAIN_MAX_SECONDS.firstReserved * 1000);
    await settle();
    expect((await l.poll(alice, a)).reserve_status).toBe('end');
    expect((await l.poll(bob, bb)).reserve_status).toBe('firstReserved');
    const before = await l.snapshot([alice, bob], [b.box_id]);
    l.expectRefusal(await l.draw(alice, a, 1), 409, M.ended);
    l.expectRefusal(await l.draw(alice, a, 'all'), 409, M.ended);
    expect(await l.snapshot([alice, bob], [b.box_id])).toEqual(before);
    expect(kujiDrawResponseSchema.parse((await l.draw(bob, bb, 1)).json()).draw.tickets).toHaveLength(1);

    // Bob's confirm window lapses the same way.
    await settle();
    clock.advance(KUJI_REMAIN_MAX_SECONDS.confirm * 1000);
    await settle();
    const after = await l.snapshot([alice, bob], [b.box_id]);
    l.expectRefusal(await l.draw(bob, bb, 1), 409, M.ended);
    expect(await l.snapshot([alice, bob], [b.box_id])).toEqual(after);
    l.noServerErrors();
  });

  it('the window lapses while the draw request is in flight (firstReserved and confirm, several interleavings): refused as ended, or a draw charged exactly for its tickets — never half', async () => {
    const outcomes: string[] = [];
    const yields = [0, 1, 2, 5, 20];
    for (const window of ['firstReserved', 'confirm'] as const) {
      for (const wait of yields) {
        const b = await l.makeBox(0, { C賞: 2, D賞: 8 });
        const u = await createTestUser(lt, {}, { freeTc: 20_000 });
        const next = await createTestUser(lt, {}, { freeTc: 20_000 });
        const info = await l.reserve(u, b);
        const ni = await l.reserve(next, b);
        if (window === 'confirm')
          expect(kujiDrawResponseSchema.parse((await l.draw(u, info, 1)).json()).draw.tickets).toHaveLength(1);
        await settle();
        const before = await l.snapshot([u], [b.box_id]);
        const inFlight = l.draw(u, info, 3);
        for (let i = 0; i < wait; i += 1) await new Promise((r) => setImmediate(r));
        // The holder's window lapses now: the line's timer fires inside advance().
        clock.advance(KUJI_REMAIN_MAX_SECONDS[window] * 1000);
        const res = await inFlight;
        await settle();
        const outcome = await expectConsistent(res, u, b, before);
        outcomes.push(`${window}/${wait}:${outcome}`);
        // The line is whole either way: exactly one holder (the drawer, renewed by the draw, or the next in line), never two.
        const [mine, theirs] = [await l.poll(u, info), await l.poll(next, ni)];
        const holding = (s: string) => s === 'firstReserved' || s === 'confirm';
        expect(
          [mine, theirs].filter((x) => holding(x.reserve_status)),
          `${window}/${wait}:${outcome}`,
        ).toHaveLength(1);
        if (outcome === 'refused')
          expect([mine.reserve_status, theirs.reserve_status]).toEqual(['end', 'firstReserved']);
        else
          expect([
            ['confirm', 'reserve'],
            ['end', 'firstReserved'],
          ]).toContainEqual([mine.reserve_status, theirs.reserve_status]);
        outcomes[outcomes.length - 1] += `/${mine.reserve_status}`;
        // Clean up: the holder, whoever it is, gives the box up.
        const holder = holding(mine.reserve_status) ? { u, i: info } : { u: next, i: ni };
        await l.post(
          'play/kuji_reserve_cancel',
          l.as(holder.u, { reserve_token: holder.i.reserve_token, kuji_id: b.kuji_id, box_id: b.box_id }),
        );
        await settle();
      }
    }
    expect(outcomes).toHaveLength(2 * yields.length);
    console.info(`kuji-probe: lapse in flight → ${outcomes.join(', ')}`);
    l.noServerErrors();
  });

  it("past the deadline but before the box's timer ran (a late timer): the draw is refused as ended and takes nothing, and the box goes to the next in line there and then", async () => {
    const b = await l.makeBox(0, { D賞: 6 });
    const u = await createTestUser(lt, {}, { freeTc: 20_000 });
    const next = await createTestUser(lt, {}, { freeTc: 20_000 });
    // The box's timer runs a day late: the holder's deadline passes with nothing run.
    clock.lateMs = 24 * 3_600_000;
    try {
      const info = await l.reserve(u, b);
      const ni = await l.reserve(next, b);
      await settle();
      clock.advance(KUJI_REMAIN_MAX_SECONDS.firstReserved * 1000 + 5_000);
      await settle();
      expect(await l.poll(u, info)).toMatchObject({ reserve_status: 'firstReserved', reserve_remaintime: 0 });
      const before = await l.snapshot([u], [b.box_id]);
      // The window is the server's: the draw is refused (409, ended) and takes nothing, though the
      // timer has not run; the refusal lapses the window at once and hands the box on.
      l.expectRefusal(await l.draw(u, info, 1), 409, 'このくじの予約はすでに終了しています。');
      const after = await l.snapshot([u], [b.box_id]);
      expect({ ...after, lines: undefined }).toEqual({ ...before, lines: undefined });
      expect([(await l.poll(u, info)).reserve_status, (await l.poll(next, ni)).reserve_status]).toEqual([
        'end',
        'firstReserved',
      ]);
      l.expectRefusal(await l.draw(u, info, 'all'), 409, 'このくじの予約はすでに終了しています。');
      const acc = await l.accounts(u.user_id);
      expect(acc).toMatchObject({ charged: 0, tickets: 0, draws: 0 });
    } finally {
      clock.lateMs = 0;
    }
    l.noServerErrors();
  });

  it("the kuji's sale period ends while the holder holds the box: the draw is 409 out of period and takes nothing; the box's seed is published then, and checks out", async () => {
    // A box's sale period is read when its room starts: this kuji's sale ends 30 s from now, for a
    // box whose room starts now.
    const kujiId = (await l.list())[0]!.kuji_id;
    const [period] = await l.store().query<{ ends_at: Date }>('SELECT ends_at FROM kuji WHERE kuji_id = $1', [kujiId]);
    await l
      .store()
      .query('UPDATE kuji SET ends_at = $2 WHERE kuji_id = $1', [
        kujiId,
        new Date(clock.now().getTime() + 30_000).toISOString(),
      ]);
    try {
      const b = await l.makeBox(0, { D賞: 6 });
      const u = await createTestUser(lt, {}, { freeTc: 20_000 });
      const info = await l.reserve(u, b);
      clock.advance(31_000);
      await settle();
      expect((await l.poll(u, info)).reserve_status).toBe('firstReserved');
      const late = await l.snapshot([u], [b.box_id]);
      l.expectRefusal(await l.draw(u, info, 1), 409, 'このくじは販売期間外です。');
      l.expectRefusal(await l.draw(u, info, 'all'), 409, 'このくじは販売期間外です。');
      expect(await l.snapshot([u], [b.box_id])).toEqual(late);
      // Nothing was drawn from the box: its stock is whole.
      const [left] = await l
        .store()
        .query<{ n: number }>(
          'SELECT coalesce(sum(remaining), 0)::int AS n FROM kuji_box_prizes WHERE box_id = $1 AND NOT is_last_one',
          [b.box_id],
        );
      expect(left!.n).toBe(6);
      const record = await l.post('contents/kuji_fairness', { box_id: b.box_id });
      expect(record.statusCode).toBe(200);
      // The sale period is over: the box has ended, so its seed is published and checks out.
      const afterPeriod = kujiFairnessResponseSchema.parse(record.json()).fairness;
      expect(afterPeriod.seed).toMatch(/^[0-9a-f]{64}$/);
      expect(
        verifyKujiBox({
          boxId: b.box_id,
          seed: afterPeriod.seed!,
          commitment: afterPeriod.commitment,
          stock: afterPeriod.stock,
          draws: afterPeriod.draws,
        }).ok,
      ).toBe(true);
      await l.post(
        'play/kuji_reserve_cancel',
        l.as(u, { reserve_token: info.reserve_token, kuji_id: b.kuji_id, box_id: b.box_id }),
      );
    } finally {
      await l
        .store()
        .query('UPDATE kuji SET ends_at = $2 WHERE kuji_id = $1', [kujiId, new Date(period!.ends_at).toISOString()]);
    }
    l.noServerErrors();
  });
});
