import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANALYTICS_ENDPOINTS,
  ANALYTICS_LIMITS,
  CONTRACT_MESSAGES,
  analyticsEventsResponseSchema,
  informationResponseSchema,
  startNewsResponseSchema,
  userDataResponseSchema,
} from '../../src/contract';
import { ANALYTICS_RING_CAPACITY } from '../../server/routes/analytics.routes';
import { ERROR_INFO, SERVER_MESSAGES } from '../../server/messages';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { JAPANESE } from './user-helpers';

/**
 * An attacker's probe of the storefront calls added with issue 9: the information `tag` filter,
 * POST /user/user_data and the development analytics collector. Every answer must be a 2xx/4xx with
 * our envelope (never 5xx), a refusal must carry a Japanese error_info and echo nothing of the input,
 * and no answer may carry data that is not the caller's.
 */

const JSON_TYPE = /^application\/json/;
/** Bodies are capped at 64 KiB (server/app.ts); some probes sit just under it, others just over. */
const BODY_LIMIT = 64 * 1024;

type Res = LightMyRequestResponse;

function send(
  t: TestServer,
  path: string,
  payload: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Res> {
  return t.server.app.inject({ method: 'POST', url: `/api/${path}`, payload, headers });
}
const postJson = (t: TestServer, path: string, body: unknown) => send(t, path, JSON.stringify(body));

/** A refusal: the status, our envelope and nothing else, a Japanese error_info, none of `echoes`. */
function expectRefusal(res: Res, status: number, info?: string | RegExp, echoes: readonly string[] = []): void {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toMatch(JSON_TYPE);
  const json = res.json() as Record<string, unknown>;
  expect(Object.keys(json).sort()).toEqual(['error_code', 'error_info']);
  expect(json.error_code).toBe(status);
  expect(json.error_info).toMatch(JAPANESE);
  if (typeof info === 'string') expect(json.error_info).toBe(info);
  else if (info) expect(json.error_info).toMatch(info);
  for (const echo of echoes) expect(res.body).not.toContain(echo);
}

// ============================================================================================
// 1. POST /contents/information with the tag filter
// ============================================================================================

describe('POST /contents/information: the tag filter under attack', () => {
  let t: TestServer;
  const OTHER_SHOP = 77;
  const OTHER_TAG = 'other-shop-secret';
  const OTHER_TITLE = '別店舗だけのお知らせ';
  const OTHER_FUTURE_TAG = 'other-shop-scheduled';
  const info = (body: Record<string, unknown>) => postJson(t, 'contents/information', { page: 1, num: 100, ...body });
  const listOf = (res: Res) => {
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return informationResponseSchema.parse(res.json()).information;
  };

  beforeAll(async () => {
    t = await startTestServer({ inMemory: true });
    const store = t.server.store();
    const day = 24 * 60 * 60 * 1000;
    await store.query('INSERT INTO shops (shop_id, shop_name) VALUES ($1, $2)', [OTHER_SHOP, '別店舗']);
    await store.query(
      `INSERT INTO information (shop_id, tag, category, title, body, is_top_page, is_pick_up, published_at)
       VALUES ($1, $2, 'お知らせ', $3, '別店舗の本文', true, true, $4), ($1, $5, 'お知らせ', '別店舗の予定', '未公開', true, true, $6)`,
      [
        OTHER_SHOP,
        OTHER_TAG,
        OTHER_TITLE,
        new Date(Date.now() - day),
        OTHER_FUTURE_TAG,
        new Date(Date.now() + 2 * day),
      ],
    );
  });
  afterAll(async () => t?.close());

  it('[R9-2] a well-formed tag answers exactly that published item of the shop, matched exactly (no prefix or pattern match)', async () => {
    expect(listOf(await info({ shop_id: 1, tag: 'info-0003' })).list.map((i) => i.tag)).toEqual(['info-0003']);
    // Prefixes, supersets and LIKE-style wildcards that pass the pattern match nothing.
    for (const tag of ['info-000', 'info', 'info-00031', 'info-0003-', 'info--0003', '0', 'a'.repeat(64)]) {
      const answer = listOf(await info({ shop_id: 1, tag }));
      expect(answer, tag).toMatchObject({ list: [], total_count: 0, page_count: 0 });
    }
  });

  it("the scheduled (future) item 'info-scheduled' is never answered: not by tag, not on a later page, not signed in, not in the unfiltered list or the start news", async () => {
    const u = await createTestUser(t);
    const probes: Record<string, unknown>[] = [
      { shop_id: 1, tag: 'info-scheduled' },
      { shop_id: 1, tag: 'info-scheduled', page: 2 },
      { shop_id: 1, tag: 'info-scheduled', num: 1 },
      { shop_id: 1, tag: 'info-scheduled', user_id: u.user_id, access_token: u.access_token },
    ];
    for (const body of probes) {
      const res = await info(body);
      expect(listOf(res), JSON.stringify(body)).toMatchObject({ list: [], total_count: 0 });
      expect(res.body).not.toContain('年末年始');
    }
    for (const page of [1, 2]) {
      const res = await info({ shop_id: 1, page });
      expect(listOf(res).list.length).toBeGreaterThan(0);
      expect(res.body).not.toContain('info-scheduled');
    }
    for (const flags of [{ is_top_page: 1 }, { is_pick_up: 1 }]) {
      const res = await postJson(t, 'contents/get_start_news', { page: 1, num: 100, shop_id: 1, ...flags });
      expect(startNewsResponseSchema.parse(res.json()).list.length).toBeGreaterThan(0);
      expect(res.body).not.toContain('info-scheduled');
    }
    // The other shop's own scheduled item stays hidden in its shop too.
    expect(listOf(await info({ shop_id: OTHER_SHOP, tag: OTHER_FUTURE_TAG }))).toMatchObject({
      list: [],
      total_count: 0,
    });
  });

  it("another shop's item is never answered for shop 1, by its tag or in the list; its own shop answers it (so the tag is real)", async () => {
    const own = listOf(await info({ shop_id: OTHER_SHOP, tag: OTHER_TAG }));
    expect(own.list.map((i) => i.title)).toEqual([OTHER_TITLE]);
    for (const body of [
      { shop_id: 1, tag: OTHER_TAG },
      { shop_id: 1, tag: OTHER_TAG, page: 2 },
      { shop_id: 1 },
      { shop_id: 1, page: 2 },
    ]) {
      const res = await info(body);
      expect(res.statusCode).toBe(200);
      expect(res.body, JSON.stringify(body)).not.toContain(OTHER_TAG);
      expect(res.body).not.toContain(OTHER_TITLE);
    }
    // And shop 1's items are not answered for the other shop.
    expect(listOf(await info({ shop_id: OTHER_SHOP, tag: 'info-0003' }))).toMatchObject({ list: [], total_count: 0 });
    const unknownShop = await info({ shop_id: 999_999, tag: 'info-0003' });
    expectRefusal(unknownShop, 404, SERVER_MESSAGES.shopNotFound, ['info-0003']);
  });

  const badStrings: [string, string][] = [
    ['SQL quote', "info-0003' OR '1'='1"],
    ['SQL comment', "' OR 1=1 --"],
    ['SQL stacked', 'info-0003;DROP TABLE information'],
    ['SQL union', "x' UNION SELECT body FROM information WHERE tag='info-scheduled"],
    ['LIKE wildcard %', 'info-%'],
    ['LIKE wildcard _', 'info-000_'],
    ['path traversal', '../info-0003'],
    ['absolute path', '/etc/passwd'],
    ['trailing slash', 'info-0003/'],
    ['percent-encoded', 'info%2D0003'],
    ['dot', '.'],
    ['script', '<script>alert(1)</script>'],
    ['leading hyphen', '-info'],
    ['upper case', 'INFO-0003'],
    ['space', 'info 0003'],
    ['trailing newline', 'info-0003\n'],
    ['null byte inside', 'info\u00000003'],
    ['null byte after', 'info-0003\u0000'],
    ['full-width letters', 'ｉｎｆｏ-０００３'],
    ['Cyrillic homoglyph', 'іnfo-0003'],
    ['emoji', 'info-🎉'],
    ['right-to-left override', 'info-\u202e3000'],
    ['line separator', 'info-0003\u2028'],
    ['combining mark', 'info-0003\u0301'],
    ['Japanese', 'お知らせ'],
    ['lone surrogate', 'info-\ud800'],
    ['empty', ''],
    ['65 characters', 'a'.repeat(65)],
    ['10,000 characters', 'a'.repeat(10_000)],
    ['60,000 characters (just under the body limit)', 'a'.repeat(60_000)],
  ];
  it.each(badStrings)(
    '[R3-19] [R1-4] a tag with %s is refused: 400, the Japanese tag message, nothing echoed',
    async (_name, tag) => {
      const res = await info({ shop_id: 1, tag });
      const echoes =
        tag.length >= 3 && !/^[a-z]+$/.test(tag) && !CONTRACT_MESSAGES.badInformationTag.includes(tag) ? [tag] : [];
      expectRefusal(res, 400, CONTRACT_MESSAGES.badInformationTag, echoes);
    },
  );

  const badTypes: [string, unknown][] = [
    ['a number', 3],
    ['a float', 0.5],
    ['true', true],
    ['null', null],
    ['an array of the tag', ['info-0003']],
    ['an empty array', []],
    ['an operator object', { $ne: null }],
    ['an object', { tag: 'info-0003' }],
    ['a nested array', [[['info-0003']]]],
  ];
  it.each(badTypes)(
    '[R3-19] [R1-4] a tag that is %s instead of a string is refused: 400 with a Japanese error_info',
    async (_name, tag) => {
      expectRefusal(await info({ shop_id: 1, tag }), 400, undefined, ['info-0003']);
    },
  );

  it('[R3-19] a tag nested 30,000 deep (just under the body limit) is refused with 400, not a crash', async () => {
    const depth = 30_000;
    const payload = `{"shop_id":1,"tag":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(payload.length).toBeLessThan(BODY_LIMIT);
    expectRefusal(await send(t, 'contents/information', payload), 400);
  });

  it('[R3-19] prototype-pollution keys in the body are refused with 400 and pollute nothing', async () => {
    for (const payload of [
      '{"shop_id":1,"tag":"info-0003","__proto__":{"polluted":1}}',
      '{"shop_id":1,"constructor":{"prototype":{"polluted":1}}}',
    ]) {
      expectRefusal(await send(t, 'contents/information', payload), 400);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('[R3-19] a body over 64 KiB is 413, another content type 415, broken JSON 400 — each with our Japanese envelope', async () => {
    expectRefusal(await info({ shop_id: 1, tag: 'a'.repeat(70_000) }), 413, ERROR_INFO[413]);
    expectRefusal(
      await send(t, 'contents/information', 'shop_id=1&tag=info-0003', {
        'content-type': 'application/x-www-form-urlencoded',
      }),
      415,
      ERROR_INFO[415],
    );
    expectRefusal(
      await send(t, 'contents/information', '{"shop_id":1,"tag":', { 'content-type': 'application/json' }),
      400,
    );
    expectRefusal(
      await send(t, 'contents/information', JSON.stringify({ shop_id: 1, tag: 'info-0003' }), {
        'content-type': 'text/plain',
      }),
      400,
    );
  });
});

// ============================================================================================
// 2. POST /user/user_data
// ============================================================================================

describe('POST /user/user_data under attack', () => {
  let t: TestServer;
  let a: TestUser;
  let b: TestUser;
  const A = { email: 'probe-a@example.jp', nickname: 'えーのひみつ', item: 'えーだけのアイテム' };
  const B = { email: 'probe-b@example.jp', nickname: 'びーのひみつ', item: 'びーだけのアイテム' };
  const userData = (body: unknown) => postJson(t, 'user/user_data', body);
  /** Nothing of either user's secrets, and no token, in an answer meant for nobody (or for `owner` only). */
  function expectNothingOf(res: Res, ...who: ('a' | 'b')[]): void {
    for (const w of who) {
      const [u, s] = w === 'a' ? [a, A] : [b, B];
      for (const secret of [u.access_token, s.email, s.nickname, s.item]) expect(res.body).not.toContain(secret);
    }
    expect(res.body).not.toContain('access_token');
    expect(res.body).not.toMatch(/token_hash|password/);
  }

  beforeAll(async () => {
    t = await startTestServer({ inMemory: true });
    a = await createTestUser(t, { email: A.email, nickname: A.nickname, vip_level: 3 }, { freeTc: 5000 });
    b = await createTestUser(t, { email: B.email, nickname: B.nickname });
    const users = t.server.services().users;
    await users.giveCraneItem(a.user_id, { item_id: 1, name: A.item }, 2);
    await users.giveCraneItem(b.user_id, { item_id: 2, name: B.item }, 1);
  });
  afterAll(async () => t?.close());

  it("[R3-1] [R3-6] the caller's own identity answers only the caller's data and never the access token", async () => {
    const res = await userData({ user_id: a.user_id, access_token: a.access_token });
    expect(res.statusCode).toBe(200);
    const data = userDataResponseSchema.parse(res.json()).user_data;
    expect(data.auth_info.user_id).toBe(a.user_id);
    expect(data.email).toBe(A.email);
    expect(data.login_info.vip_level).toBe(3);
    expect(data.crane_items).toEqual([{ item_id: 1, name: A.item, count: 2 }]);
    expect(data.tc_info.tc_free).toBe(5000);
    expect(res.body).not.toContain(a.access_token);
    expectNothingOf(res, 'b');
  });

  const missing: [string, () => unknown][] = [
    ['an empty body', () => ({})],
    ['only the user_id', () => ({ user_id: a.user_id })],
    ['only the access token', () => ({ access_token: a.access_token })],
    ['a wrong token of the right shape', () => ({ user_id: a.user_id, access_token: 'A'.repeat(43) })],
    [
      'a token one character off',
      () => ({
        user_id: a.user_id,
        access_token: a.access_token.slice(0, -1) + (a.access_token.endsWith('A') ? 'B' : 'A'),
      }),
    ],
    ['a token with a trailing space', () => ({ user_id: a.user_id, access_token: `${a.access_token} ` })],
    ['a 19-character token', () => ({ user_id: a.user_id, access_token: a.access_token.slice(0, 19) })],
    ['a 201-character token', () => ({ user_id: a.user_id, access_token: a.access_token.padEnd(201, 'x') })],
    ['a 60,000-character token', () => ({ user_id: a.user_id, access_token: 'x'.repeat(60_000) })],
    ['a token as an array', () => ({ user_id: a.user_id, access_token: [a.access_token] })],
    ['a token as an object', () => ({ user_id: a.user_id, access_token: { $ne: null } })],
    ['a token as a number', () => ({ user_id: a.user_id, access_token: 1e19 })],
    ['a SQL-ish token', () => ({ user_id: a.user_id, access_token: "' OR '1'='1' -- padding padding" })],
    ['the user_id as a string', () => ({ user_id: String(a.user_id), access_token: a.access_token })],
    ['the user_id as a float', () => ({ user_id: a.user_id + 0.5, access_token: a.access_token })],
    ['the user_id 0', () => ({ user_id: 0, access_token: a.access_token })],
    ['a negative user_id', () => ({ user_id: -a.user_id, access_token: a.access_token })],
    ['a user_id past 2^31', () => ({ user_id: 2 ** 31, access_token: a.access_token })],
    ['a user_id past 2^53', () => ({ user_id: 2 ** 60, access_token: a.access_token })],
    ['a user_id array', () => ({ user_id: [a.user_id, b.user_id], access_token: a.access_token })],
    ['a JSON array body', () => [a.user_id, a.access_token]],
    ['a JSON string body', () => a.access_token],
    ['a JSON null body', () => null],
  ];
  it.each(missing)('[R3-1] %s: 401 with a Japanese error_info, no user data, no token', async (_name, body) => {
    const res = await userData(body());
    expectRefusal(res, 401);
    expectNothingOf(res, 'a', 'b');
  });

  it("[R3-1] my token with another user's user_id, or their token with mine, is 401 and shows nothing of either", async () => {
    for (const body of [
      { user_id: b.user_id, access_token: a.access_token },
      { user_id: a.user_id, access_token: b.access_token },
    ]) {
      const res = await userData(body);
      expectRefusal(res, 401);
      expectNothingOf(res, 'a', 'b');
    }
  });

  it('[R3-1] the token in a header instead of the body is not an identity: 401', async () => {
    const res = await send(t, 'user/user_data', JSON.stringify({ user_id: a.user_id }), {
      'content-type': 'application/json',
      'x-access-token': a.access_token,
      authorization: `Bearer ${a.access_token}`,
    });
    expect(res.statusCode).toBe(401);
    expectNothingOf(res, 'a', 'b');
  });

  it('[R3-1] a revoked token is 401; a suspended user is 403 invaliduser (9002) — neither shows data', async () => {
    const c = await createTestUser(t, { email: 'probe-c@example.jp' });
    expect((await userData({ user_id: c.user_id, access_token: c.access_token })).statusCode).toBe(200);
    await t.server.services().identity.revoke(c.access_token);
    const revoked = await userData({ user_id: c.user_id, access_token: c.access_token });
    expectRefusal(revoked, 401);
    expect(revoked.body).not.toContain('probe-c@example.jp');
    const d = await createTestUser(t, { email: 'probe-d@example.jp', status: 2 });
    const suspended = await userData({ user_id: d.user_id, access_token: d.access_token });
    expect(suspended.statusCode).toBe(403);
    expect(suspended.json()).toMatchObject({ error_code: 9002 });
    expect(suspended.json().error_info).toMatch(JAPANESE);
    expect(suspended.body).not.toContain('probe-d@example.jp');
  });

  it('[R3-1] extra fields beside a valid identity are refused with 400 (strict body), never answered with data', async () => {
    const extras: Record<string, unknown>[] = [
      { user_id_list: [b.user_id] },
      { target_user_id: b.user_id },
      { shop_id: 1 },
      { filter: { user_id: b.user_id } },
      { pad: 'x'.repeat(60_000) },
      { deep: JSON.parse(`${'['.repeat(1000)}${']'.repeat(1000)}`) as unknown },
    ];
    for (const extra of extras) {
      const res = await userData({ user_id: a.user_id, access_token: a.access_token, ...extra });
      expectRefusal(res, 400);
      expectNothingOf(res, 'a', 'b');
    }
    // Prototype-pollution keys are refused by the JSON parser itself.
    for (const tail of [',"__proto__":{"user_id":2}}', ',"constructor":{"prototype":{"polluted":1}}}']) {
      const res = await send(
        t,
        'user/user_data',
        JSON.stringify({ user_id: a.user_id, access_token: a.access_token }).slice(0, -1) + tail,
      );
      expectRefusal(res, 400);
      expectNothingOf(res, 'a', 'b');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('[R3-19] huge, deep, malformed and wrongly typed bodies get a 4xx envelope in Japanese, never 5xx and never data', async () => {
    const identity = JSON.stringify({ user_id: a.user_id, access_token: a.access_token });
    const cases: [string, Res, number][] = [
      [
        'over 64 KiB',
        await userData({ user_id: a.user_id, access_token: a.access_token, pad: 'x'.repeat(70_000) }),
        413,
      ],
      ['nested 30,000 deep', await send(t, 'user/user_data', `${'['.repeat(30_000)}${']'.repeat(30_000)}`), 401],
      ['broken JSON', await send(t, 'user/user_data', identity.slice(0, -1)), 400],
      ['an empty JSON body', await send(t, 'user/user_data', ''), 400],
      [
        'form-encoded',
        await send(t, 'user/user_data', `user_id=${a.user_id}&access_token=${a.access_token}`, {
          'content-type': 'application/x-www-form-urlencoded',
        }),
        415,
      ],
      ['XML', await send(t, 'user/user_data', '<user/>', { 'content-type': 'application/xml' }), 415],
      [
        'multipart',
        await send(t, 'user/user_data', '--x\r\n\r\n--x--', { 'content-type': 'multipart/form-data; boundary=x' }),
        415,
      ],
      // A text body is not parsed as JSON: the identity inside it is not read.
      ['the identity as text/plain', await send(t, 'user/user_data', identity, { 'content-type': 'text/plain' }), 401],
    ];
    for (const [name, res, status] of cases) {
      expect(res.statusCode, name).toBe(status);
      expectRefusal(res, status);
      expectNothingOf(res, 'a', 'b');
    }
  });

  it('[R3-1] GET or PUT with the identity in the query or body is no way in: 404 envelope, no data', async () => {
    const viaQuery = await t.server.app.inject({
      method: 'GET',
      url: `/api/user/user_data?user_id=${a.user_id}&access_token=${a.access_token}`,
    });
    const viaPut = await t.server.app.inject({
      method: 'PUT',
      url: '/api/user/user_data',
      payload: { user_id: a.user_id, access_token: a.access_token },
    });
    for (const res of [viaQuery, viaPut]) {
      expectRefusal(res, 404, ERROR_INFO[404]);
      expectNothingOf(res, 'a', 'b');
    }
  });

  it('[R3-1] duplicate identity keys: the one parsed body decides both the check and the answer (last key wins), so a forged id never mixes with a valid token', async () => {
    const lastIsMine = await send(
      t,
      'user/user_data',
      `{"user_id":${b.user_id},"access_token":"${a.access_token}","user_id":${a.user_id}}`,
    );
    expect(lastIsMine.statusCode).toBe(200);
    expect(userDataResponseSchema.parse(lastIsMine.json()).user_data.auth_info.user_id).toBe(a.user_id);
    expectNothingOf(lastIsMine, 'b');
    const lastIsTheirs = await send(
      t,
      'user/user_data',
      `{"user_id":${a.user_id},"access_token":"${a.access_token}","user_id":${b.user_id}}`,
    );
    expectRefusal(lastIsTheirs, 401);
    expectNothingOf(lastIsTheirs, 'a', 'b');
  });

  it('[R3-19] compressed bodies: the 64 KiB limit holds after decompression (gzip, deflate and br bombs are 413), a broken stream is 400, an unknown encoding 415', async () => {
    const identity = JSON.stringify({ user_id: a.user_id, access_token: a.access_token });
    const encoded = (payload: Buffer, encoding: string) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/user/user_data',
        payload,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
    // A small compressed body is read as usual (the server decompresses request bodies).
    expect((await encoded(gzipSync(identity), 'gzip')).statusCode).toBe(200);
    const bomb = Buffer.from(`${identity.slice(0, -1)},"pad":"${' '.repeat(20_000_000)}"}`);
    for (const [encoding, payload] of [
      ['gzip', gzipSync(bomb)],
      ['deflate', deflateSync(bomb)],
      ['br', brotliCompressSync(bomb)],
    ] as const) {
      expect(payload.length).toBeLessThan(BODY_LIMIT);
      const res = await encoded(payload, encoding);
      expectRefusal(res, 413, ERROR_INFO[413]);
      expectNothingOf(res, 'a', 'b');
    }
    expectRefusal(await encoded(Buffer.from('not gzip at all'), 'gzip'), 400);
    expectRefusal(await encoded(gzipSync(identity).subarray(0, 10), 'gzip'), 400);
    for (const encoding of ['compress', 'x-gzip', 'gzip, gzip'])
      expectRefusal(await encoded(gzipSync(gzipSync(identity)), encoding), 415, ERROR_INFO[415]);
  });

  it("[R3-1] [R3-6] 50 concurrent calls from each of two users: every answer is its own caller's data only, never a token, never 5xx", async () => {
    const callers = Array.from({ length: 100 }, (_, i): 'a' | 'b' => (i % 2 === 0 ? 'a' : 'b'));
    const answers = await Promise.all(
      callers.map((w) => {
        const u = w === 'a' ? a : b;
        return userData({ user_id: u.user_id, access_token: u.access_token }).then((res) => ({ w, res }));
      }),
    );
    for (const { w, res } of answers) {
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const data = userDataResponseSchema.parse(res.json()).user_data;
      const [u, own] = w === 'a' ? [a, A] : [b, B];
      expect(data.auth_info.user_id).toBe(u.user_id);
      expect(data.nickname_info.userId).toBe(u.user_id);
      expect(data.email).toBe(own.email);
      expect(data.nickname_info.nickname).toBe(own.nickname);
      expect(data.crane_items.map((i) => i.name)).toEqual([own.item]);
      expect(data.login_info.vip_level).toBe(w === 'a' ? 3 : 0);
      expect(data.tc_info.tc_free).toBe(w === 'a' ? 5000 : 0);
      expect(res.body).not.toContain(u.access_token);
      expectNothingOf(res, w === 'a' ? 'b' : 'a');
    }
  });

  it("[R3-1] concurrent forged calls (my token, the other's id) mixed into real ones are all refused while the real ones succeed", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const forged = i % 2 === 1;
        const body = forged
          ? { user_id: b.user_id, access_token: a.access_token }
          : { user_id: a.user_id, access_token: a.access_token };
        return userData(body).then((res) => ({ forged, res }));
      }),
    );
    for (const { forged, res } of answers) {
      if (forged) {
        expectRefusal(res, 401);
        expectNothingOf(res, 'a', 'b');
      } else {
        expect(res.statusCode).toBe(200);
        expect(userDataResponseSchema.parse(res.json()).user_data.auth_info.user_id).toBe(a.user_id);
        expectNothingOf(res, 'b');
      }
    }
  });
});

// ============================================================================================
// 3. The development analytics collector
// ============================================================================================

const COLLECT = ANALYTICS_ENDPOINTS.devCollect;
const EVENTS = ANALYTICS_ENDPOINTS.devEvents;
/** A valid event: conversion carries is_pc 1 and no site_type (spec §9) [R9-15]. */
const conversion = (params: Record<string, unknown> = {}) => ({
  name: 'conversion',
  send_to: 'G-MAIN0001',
  params: { user_id: 42, shop_id: 1, is_pc: 1, ...params },
});

describe('the analytics collector in production or with dev calls off', () => {
  it.each([
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['NODE_ENV=development without ONKURE_DEV_CALLS', { NODE_ENV: 'development', ONKURE_DEV_CALLS: '' }],
  ])('[R6-6] %s: collect and events answer the same 404 as an unknown call, and keep nothing', async (_name, env) => {
    const t = await startTestServer({ inMemory: true, env });
    try {
      expect(t.config.devCalls).toBe(false);
      const unknown = await postJson(t, 'dev/analytics/nothing-here', {});
      expectRefusal(unknown, 404, ERROR_INFO[404]);
      for (const [path, body] of [
        [COLLECT, conversion()],
        [EVENTS, {}],
        [COLLECT, conversion({ title: '<script>alert(1)</script>' })],
        [EVENTS, { since: 0 }],
      ] as const) {
        const res = await postJson(t, path, body);
        expectRefusal(res, 404, ERROR_INFO[404], ['<script>']);
        expect(res.body).toBe(unknown.body);
      }
      for (const path of [COLLECT, EVENTS]) {
        const got = await t.server.app.inject({ method: 'GET', url: `/api/${path}` });
        expect(got.statusCode).toBe(404);
        expect(got.body).toBe(unknown.body);
      }
      // Malformed input is no way in either.
      expect((await send(t, COLLECT, '{"name":')).statusCode).toBeLessThan(500);
      expect((await send(t, COLLECT, '{"name":')).statusCode).not.toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('the analytics collector in development (ONKURE_DEV_CALLS=1) under attack', () => {
  let t: TestServer;
  const collect = (body: unknown) => postJson(t, COLLECT, body);
  const events = async (filter: object = {}) => {
    const res = await postJson(t, EVENTS, filter);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return analyticsEventsResponseSchema.parse(res.json());
  };
  const lastSeq = async () => (await events()).list.at(-1)?.seq ?? 0;
  /** Refused with 400 (or `status`) and the ring unchanged. */
  async function expectRefusedKeptNothing(
    res: Res | Promise<Res>,
    before: number,
    status = 400,
    info?: string | RegExp,
    echoes: readonly string[] = [],
  ) {
    expectRefusal(await res, status, info, echoes);
    expect(await lastSeq()).toBe(before);
  }

  beforeAll(async () => {
    t = await startTestServer({ inMemory: true, env: { ONKURE_DEV_CALLS: '1' } });
  });
  afterAll(async () => t?.close());

  it("[R7-12] accepts a valid event (the probe's baseline)", async () => {
    const res = await collect(conversion());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ error_code: 200, seq: expect.any(Number) });
  });

  it.each([
    'page_view',
    '',
    'CONVERSION',
    'conversion ',
    ' conversion',
    'conversion\u0000',
    'ｃｏｎｖｅｒｓｉｏｎ',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'x'.repeat(10_000),
  ])('[R7-12] an unknown event name %j is refused with the Japanese unknown-event text and not kept', async (name) => {
    const before = await lastSeq();
    await expectRefusedKeptNothing(
      collect({ ...conversion(), name }),
      before,
      400,
      SERVER_MESSAGES.analyticsUnknownEvent,
      name.length > 3 ? [name] : [],
    );
  });

  it.each([
    ['a number', 1],
    ['null', null],
    ['an array', ['conversion']],
    ['an object', { name: 'conversion' }],
  ])('[R7-12] an event name that is %s is refused and not kept', async (_n, name) => {
    const before = await lastSeq();
    await expectRefusedKeptNothing(
      collect({ ...conversion(), name }),
      before,
      400,
      SERVER_MESSAGES.analyticsUnknownEvent,
    );
  });

  it('[R3-21] prototype-pollution keys (__proto__, constructor.prototype) anywhere in the body are refused and pollute nothing', async () => {
    const before = await lastSeq();
    const valid = JSON.stringify(conversion());
    const bodies = [
      valid.replace('"params":{', '"params":{"__proto__":{"polluted":1},'),
      valid.replace('"params":{', '"params":{"constructor":{"prototype":{"polluted":1}},'),
      valid.slice(0, -1) + ',"__proto__":{"polluted":1}}',
      valid.replace('"params":{', '"params":{"nested":{"__proto__":{"polluted":1}},'),
    ];
    for (const body of bodies) await expectRefusedKeptNothing(send(t, COLLECT, body), before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  });

  it('[R3-21] params named like Object.prototype members (constructor, toString, hasOwnProperty, valueOf, toJSON) are kept as plain data and answered verbatim', async () => {
    const params = {
      constructor: 'c',
      toString: 's',
      hasOwnProperty: 'h',
      valueOf: 1,
      toJSON: 'j',
      isPrototypeOf: true,
    };
    const res = await collect(conversion(params));
    expect(res.statusCode, res.body).toBe(200);
    const seq = (res.json() as { seq: number }).seq;
    const got = (await events({ since: seq - 1 })).list;
    expect(got.map((e) => e.seq)).toEqual([seq]);
    expect(got[0]!.params).toEqual(conversion(params).params);
    // The events answer itself still serialises and parses normally.
    expect(({} as Record<string, unknown>).toJSON).toBeUndefined();
    expect(typeof ({} as Record<string, unknown>).hasOwnProperty).toBe('function');
  });

  it('[R3-21] nested objects and arrays as param values are refused with the Japanese value text, up to 30,000 levels deep', async () => {
    const before = await lastSeq();
    const valid = JSON.stringify(conversion());
    for (const nested of [
      '{"a":1}',
      '[1,2]',
      '{"a":{"b":{"c":"d"}}}',
      `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
      `${'['.repeat(30_000)}${']'.repeat(30_000)}`,
    ]) {
      const body = valid.replace('"params":{', `"params":{"extra":${nested},`);
      expect(body.length).toBeLessThan(BODY_LIMIT);
      await expectRefusedKeptNothing(send(t, COLLECT, body), before, 400, SERVER_MESSAGES.analyticsBadParamValue);
    }
    // params itself nested deep, or not an object at all.
    for (const params of [`${'['.repeat(30_000)}${']'.repeat(30_000)}`, '"params"', 'null', '[]', '1']) {
      await expectRefusedKeptNothing(send(t, COLLECT, `{"name":"conversion","send_to":"","params":${params}}`), before);
    }
  });

  it('[R3-21] 10,000 params (over the body limit) are 413; 5,000 (under it) are refused as too many; neither is kept', async () => {
    const before = await lastSeq();
    const many = (n: number) => conversion(Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 1])));
    const tenThousand = JSON.stringify(many(10_000));
    expect(tenThousand.length).toBeGreaterThan(BODY_LIMIT);
    await expectRefusedKeptNothing(send(t, COLLECT, tenThousand), before, 413, ERROR_INFO[413]);
    const fiveThousand = JSON.stringify(many(5_000));
    expect(fiveThousand.length).toBeLessThan(BODY_LIMIT);
    await expectRefusedKeptNothing(send(t, COLLECT, fiveThousand), before, 400, SERVER_MESSAGES.analyticsTooManyParams);
    await expectRefusedKeptNothing(
      collect(many(ANALYTICS_LIMITS.maxParams)),
      before,
      400,
      SERVER_MESSAGES.analyticsTooManyParams,
    );
  });

  it('[R3-21] huge strings are refused (400 under the body limit, 413 over it) and not kept; a bad send_to too', async () => {
    const before = await lastSeq();
    await expectRefusedKeptNothing(
      collect(conversion({ title: 'x'.repeat(ANALYTICS_LIMITS.maxStringLength + 1) })),
      before,
      400,
      SERVER_MESSAGES.analyticsParamsTooLarge,
    );
    await expectRefusedKeptNothing(
      collect(conversion({ title: 'あ'.repeat(20_000) })),
      before,
      400,
      SERVER_MESSAGES.analyticsParamsTooLarge,
    );
    await expectRefusedKeptNothing(
      collect(conversion({ title: 'x'.repeat(60_000) })),
      before,
      400,
      SERVER_MESSAGES.analyticsParamsTooLarge,
    );
    await expectRefusedKeptNothing(collect(conversion({ title: 'x'.repeat(100_000) })), before, 413, ERROR_INFO[413]);
    await expectRefusedKeptNothing(
      collect({ ...conversion(), send_to: 'G'.repeat(ANALYTICS_LIMITS.maxSendToLength + 1) }),
      before,
      400,
      SERVER_MESSAGES.analyticsBadSendTo,
    );
    await expectRefusedKeptNothing(
      collect({ ...conversion(), send_to: 'G-1\u0000' }),
      before,
      400,
      SERVER_MESSAGES.analyticsBadSendTo,
    );
    // A param name past 40 characters or with a null byte.
    await expectRefusedKeptNothing(
      collect(conversion({ ['a'.repeat(41)]: 1 })),
      before,
      400,
      SERVER_MESSAGES.analyticsBadParamName,
    );
    await expectRefusedKeptNothing(
      collect(conversion({ 'a\u0000b': 1 })),
      before,
      400,
      SERVER_MESSAGES.analyticsBadParamName,
    );
  });

  it('[R3-19] non-JSON bodies get a 4xx Japanese envelope and are not kept', async () => {
    const before = await lastSeq();
    const valid = JSON.stringify(conversion());
    await expectRefusedKeptNothing(send(t, COLLECT, '{"name":'), before, 400);
    await expectRefusedKeptNothing(send(t, COLLECT, ''), before, 400);
    await expectRefusedKeptNothing(send(t, COLLECT, "{'name':'conversion'}"), before, 400);
    await expectRefusedKeptNothing(send(t, COLLECT, valid, { 'content-type': 'text/plain' }), before, 400);
    await expectRefusedKeptNothing(
      send(t, COLLECT, '<event name="conversion"/>', { 'content-type': 'application/xml' }),
      before,
      415,
    );
    await expectRefusedKeptNothing(
      send(t, COLLECT, 'name=conversion', { 'content-type': 'application/x-www-form-urlencoded' }),
      before,
      415,
    );
    await expectRefusedKeptNothing(
      send(t, COLLECT, valid, { 'content-type': 'application/octet-stream' }),
      before,
      415,
    );
    // The events filter refuses the same way.
    for (const filter of [
      '{"since":1e400}',
      '{"since":"0"}',
      '{"name":"__proto__"}',
      '{"since":0,"extra":1}',
      '[]',
      '"x"',
    ]) {
      expectRefusal(await send(t, EVENTS, filter), 400);
    }
  });

  it('[R3-21] a <script> param comes back as the same plain string in a JSON answer (nosniff), never as markup', async () => {
    const script = '<script>alert(document.cookie)</script>';
    const res = await collect(conversion({ title: script, img: '"><img src=x onerror=alert(1)>' }));
    expect(res.statusCode).toBe(200);
    const seq = (res.json() as { seq: number }).seq;
    const list = await t.server.app.inject({
      method: 'POST',
      url: `/api/${EVENTS}`,
      payload: { since: seq - 1 },
      headers: { 'content-type': 'application/json' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toMatch(/^application\/json; charset=utf-8$/);
    expect(list.headers['x-content-type-options']).toBe('nosniff');
    expect(String(list.headers['content-security-policy'])).toContain("script-src 'self'");
    const got = analyticsEventsResponseSchema.parse(list.json()).list;
    expect(got.map((e) => e.seq)).toEqual([seq]);
    expect(got[0]!.params.title).toBe(script);
    expect(got[0]!.params.img).toBe('"><img src=x onerror=alert(1)>');
  });

  it(`[R7-12] 1,000 concurrent posts (with refused ones mixed in): never 5xx, every seq unique and consecutive, the ring bounded to ${ANALYTICS_RING_CAPACITY} in strictly increasing seq`, async () => {
    const before = await lastSeq();
    const good = Array.from({ length: 1000 }, (_, n) => collect(conversion({ n })).then((res) => ({ n, res })));
    const bad = Array.from({ length: 100 }, (_, i) =>
      collect(i % 2 ? { ...conversion(), name: 'page_view' } : conversion({ nested: { n: i } })),
    );
    const [goods, bads] = await Promise.all([Promise.all(good), Promise.all(bad)]);
    for (const res of bads) expectRefusal(res, 400);
    const seqOf = new Map<number, number>();
    for (const { n, res } of goods) {
      expect(res.statusCode, res.body).toBe(200);
      seqOf.set((res.json() as { seq: number }).seq, n);
    }
    const seqs = [...seqOf.keys()].sort((x, y) => x - y);
    expect(seqs).toHaveLength(1000);
    expect(seqs).toEqual(Array.from({ length: 1000 }, (_, i) => before + 1 + i));

    const kept = await events();
    expect(kept.capacity).toBe(ANALYTICS_RING_CAPACITY);
    expect(kept.list).toHaveLength(ANALYTICS_RING_CAPACITY);
    const keptSeqs = kept.list.map((e) => e.seq);
    for (let i = 1; i < keptSeqs.length; i++) expect(keptSeqs[i]!).toBeGreaterThan(keptSeqs[i - 1]!);
    expect(new Set(keptSeqs).size).toBe(keptSeqs.length);
    // The kept events are the last 500 posted, each with the params its own post sent.
    expect(keptSeqs).toEqual(seqs.slice(-ANALYTICS_RING_CAPACITY));
    for (const e of kept.list) expect(e.params.n).toBe(seqOf.get(e.seq));
    // A since filter answers only later events, still bounded.
    const later = (await events({ since: seqs.at(-10)! })).list;
    expect(later.map((e) => e.seq)).toEqual(seqs.slice(-9));
    expect((await events({ since: Number.MAX_SAFE_INTEGER })).list).toEqual([]);
  });

  it(`[R7-12] the ring stays at ${ANALYTICS_RING_CAPACITY} with the largest events allowed: the events answer stays bounded`, async () => {
    const big = conversion(Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`p${i}`, 'x'.repeat(1000)])));
    for (let i = 0; i < ANALYTICS_RING_CAPACITY + 10; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => collect(big)));
      for (const res of batch) expect(res.statusCode).toBe(200);
    }
    const res = await postJson(t, EVENTS, {});
    const kept = analyticsEventsResponseSchema.parse(res.json());
    expect(kept.list).toHaveLength(ANALYTICS_RING_CAPACITY);
    // Bounded: at most capacity × (the params limit + envelope) bytes.
    expect(res.rawPayload.length).toBeLessThan(ANALYTICS_RING_CAPACITY * (ANALYTICS_LIMITS.maxParamsJsonLength + 200));
  });
});
