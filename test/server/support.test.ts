import { describe, expect, it } from 'vitest';
import {
  CHANNELS,
  chatListResponseSchema,
  chatSendResponseSchema,
  contactResponseSchema,
  historyResponseSchema,
  operatorContactCloseResponseSchema,
  operatorContactsResponseSchema,
  operatorThreadResponseSchema,
  operatorThreadsResponseSchema,
  userDataResponseSchema,
  type ChatMessageWire,
} from '../../src/contract';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import { CHAT_PAGE_SIZE } from '../../src/domain';
import { ATTACHED_PLAYS, CHAT_MESSAGES_PER_MINUTE, CONTACTS_PER_HOUR } from '../../server/support/support.service';
import { ManualServerClock } from '../support/manual-server-clock';
import { setUpOperatorServer, type UserSocket } from '../support/operator-server';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import type { TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, expectRefusedUnchanged, JAPANESE, post } from './user-helpers';

const clock = new ManualServerClock(new Date('2026-11-26T12:00:00+09:00'));
let t: TestServer;
const operatorServer = setUpOperatorServer({
  clock,
  token: 'operator-token-for-support-tests-0123',
  started(server) {
    t = server;
  },
});
const { connect, join } = operatorServer;

const db = () => t.server.store();
let seq = 0;
const cid = () => `client-${(seq += 1)}-abcdef`;
const player = (fields: Parameters<typeof createTestUser>[1] = {}) => createTestUser(t, fields, { freeTc: 10_000 });

/** The operators' support calls, /api/operator/support/<path>. */
const operator = (path: string, body: object) => operatorServer.operator(`support/${path}`, body);
const contact = (u: TestUser, body: Record<string, unknown>) => post(t, 'support/contact', as(u, { contact: body }));
const send = (u: TestUser, text: string, client_id = cid()) =>
  post(t, 'support/chat/send', as(u, { chat: { text, client_id } }));
const list = async (u: TestUser, before_id?: number) =>
  chatListResponseSchema.parse(
    expectOk(await post(t, 'support/chat/list', as(u, before_id === undefined ? {} : { chat: { before_id } }))),
  );
const reply = (userId: number, text: string, client_id = cid()) =>
  operator('reply', { user_id: userId, text, client_id });
const unreadMessage = async (u: TestUser) =>
  (
    await db().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM user_unread WHERE user_id = $1 AND kind = 'message'",
      [u.user_id],
    )
  )[0]!.n;

const nextChat = (s: UserSocket) => new Promise<ChatMessageWire>((resolve) => s.once('chat', resolve));

describe('the contact form', { timeout: 60_000 }, () => {
  it(`attach_play=1 stores the player's last ${ATTACHED_PLAYS} plays from the play log with the message; without it none`, async () => {
    const u = await player({ nickname: 'くまごろう' });
    const station = await playableStation(t);
    const driver = new PlayDriver(t, clock, u);
    await driver
      .reserve(station.station_id)
      .waitTurn()
      .confirm()
      .waitPlaying()
      .holdRight(300)
      .holdBack(300)
      .waitResult();
    await driver.finish();
    // Eleven more finished plays in the log (copies of the real one, a minute apart).
    const [played] = await db().query<{ play_id: number }>('SELECT play_id FROM plays WHERE user_id = $1', [u.user_id]);
    await db().query(
      `INSERT INTO plays (play_reserve_id, user_id, station_id, station_setting_id, currency, price, base_arm_strength, assist_level,
                          arm_strength, seed, layout, inputs, phase, result, started_at, ended_at)
       SELECT play_reserve_id, user_id, station_id, station_setting_id, currency, price, base_arm_strength, assist_level,
              arm_strength, seed + g, layout, inputs, 'ended', result, started_at + g * interval '1 minute', ended_at
         FROM plays, generate_series(1, 11) g WHERE play_id = $1`,
      [played!.play_id],
    );
    const log = historyResponseSchema.parse(expectOk(await post(t, 'v2/play/history', as(u)))).history.list;
    const withPlays = contactResponseSchema.parse(
      expectOk(await contact(u, { category: 'play', text: '  アームが弱い気がします  ', attach_play: 1 })),
    ).contact;
    const without = contactResponseSchema.parse(
      expectOk(await contact(u, { category: 'other', text: 'ご意見です' })),
    ).contact;
    expect(withPlays.created_at).toBe(clock.now().toISOString());
    const open = operatorContactsResponseSchema.parse(expectOk(await operator('contacts', { limit: 200 }))).list;
    const stored = open.find((c) => c.contact_id === withPlays.contact_id)!;
    expect(stored).toMatchObject({
      user_id: u.user_id,
      category: 'play',
      text: 'アームが弱い気がします',
      status: 'open',
    });
    expect(stored.plays).toHaveLength(ATTACHED_PLAYS);
    expect(stored.plays!.map((p) => p.play_id)).toEqual(log.slice(0, ATTACHED_PLAYS).map((p) => p.play_id));
    expect(stored.plays![0]).toMatchObject({
      station_id: station.station_id,
      prize_name: log[0]!.prize_name,
      result: log[0]!.result,
      played_at: log[0]!.started_at,
    });
    expect(open.find((c) => c.contact_id === without.contact_id)!.plays).toBeNull();
  });

  it(`${CONTACTS_PER_HOUR} contacts an hour per player, counted before the insert: of 15 sent at once ${CONTACTS_PER_HOUR} are stored, the rest 429; an hour later again`, async () => {
    const u = await player();
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => contact(u, { category: 'account', text: `問い合わせ${i}` })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(CONTACTS_PER_HOUR);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(15 - CONTACTS_PER_HOUR);
    for (const a of refused)
      expect(a.json.error_info).toBe(
        `お問い合わせは1時間に${CONTACTS_PER_HOUR}件まで送信できます。しばらくしてからお試しください。`,
      );
    const [{ n } = { n: 0 }] = await db().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM support_contacts WHERE user_id = $1',
      [u.user_id],
    );
    expect(n).toBe(CONTACTS_PER_HOUR);
    await expectRefusedUnchanged(t, () => contact(u, { category: 'account', text: 'もう一件' }), 429);
    clock.advance(60 * 60_000 + 1);
    expectOk(await contact(u, { category: 'account', text: 'もう一件' }));
  });

  it('bad bodies are 400 with a Japanese text naming the field, and store nothing', async () => {
    const u = await player();
    for (const [body, text] of [
      [{ category: 'complaint', text: 'x' }, 'お問い合わせの種類を選んでください。'],
      [{ category: 'play', text: '   ' }, 'お問い合わせ内容を入力してください。'],
      [{ category: 'play', text: 'あ'.repeat(2001) }, null],
      [{ category: 'play', text: 'ok', attach_play: 2 }, null],
      [{ category: 'play', text: 'a\u202Eb' }, null],
    ] as const) {
      const r = await expectRefusedUnchanged(t, () => contact(u, body), 400);
      if (text) expect(r.json.error_info).toBe(text);
      else expect(r.json.error_info).toMatch(JAPANESE);
    }
  });

  it('the operators list contacts by status and close them; an unknown contact is 404', async () => {
    const u = await player();
    const first = contactResponseSchema.parse(
      expectOk(await contact(u, { category: 'prize', text: '一件目' })),
    ).contact;
    const second = contactResponseSchema.parse(
      expectOk(await contact(u, { category: 'prize', text: '二件目' })),
    ).contact;
    const open = operatorContactsResponseSchema.parse(expectOk(await operator('contacts', { limit: 200 }))).list;
    const ids = open.map((c) => c.contact_id);
    // Open ones are a queue: the oldest first.
    expect(ids.indexOf(first.contact_id)).toBeLessThan(ids.indexOf(second.contact_id));
    const closed = operatorContactCloseResponseSchema.parse(
      expectOk(await operator('contact_close', { contact_id: first.contact_id })),
    );
    expect(closed.contact).toMatchObject({ contact_id: first.contact_id, status: 'closed' });
    // [R10-9] The audit log has the status before and after, never the player's text.
    const [audited] = await t.server
      .store()
      .query<{ before: unknown; after: unknown }>(
        "SELECT before, after FROM operator_audit WHERE action = 'operator/support/contact_close' ORDER BY audit_id DESC LIMIT 1",
      );
    expect(audited).toEqual({
      before: { user_id: u.user_id, category: 'prize', status: 'open' },
      after: { user_id: u.user_id, category: 'prize', status: 'closed' },
    });
    expect(JSON.stringify(audited)).not.toContain('一件目');
    expectOk(await operator('contact_close', { contact_id: first.contact_id }));
    const stillOpen = operatorContactsResponseSchema.parse(
      expectOk(await operator('contacts', { status: 'open' })),
    ).list;
    expect(stillOpen.map((c) => c.contact_id)).not.toContain(first.contact_id);
    const done = operatorContactsResponseSchema.parse(expectOk(await operator('contacts', { status: 'closed' }))).list;
    expect(done[0]!.contact_id).toBe(first.contact_id);
    const unknown = await expectRefusedUnchanged(t, () => operator('contact_close', { contact_id: 2_000_000 }), 404);
    expect(unknown.json.error_info).toBe('お問い合わせが見つかりません。');
  });
});

describe('the support chat', { timeout: 60_000 }, () => {
  it('a message is stored once per client_id: five resends at once answer the same message; the same id with another text is 409', async () => {
    const u = await player();
    const id = cid();
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(u, '景品の発送について質問です', id)));
    const messages = answers.map((a) => chatSendResponseSchema.parse(expectOk(a)).message);
    expect(new Set(messages.map((m) => m.message_id)).size).toBe(1);
    expect(messages[0]).toMatchObject({ from: 'player', text: '景品の発送について質問です' });
    expect((await list(u)).list).toEqual([messages[0]]);
    const conflict = await expectRefusedUnchanged(t, () => send(u, '別の内容', id), 409);
    expect(conflict.json.error_info).toBe('このメッセージIDはすでに別の内容で使われています。');
  });

  it(`${CHAT_MESSAGES_PER_MINUTE} messages a minute per player: of 35 sent at once ${CHAT_MESSAGES_PER_MINUTE} are stored; a minute later again`, async () => {
    const u = await player();
    const answers = await Promise.all(Array.from({ length: 35 }, (_, i) => send(u, `連投${i}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(CHAT_MESSAGES_PER_MINUTE);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(35 - CHAT_MESSAGES_PER_MINUTE);
    for (const a of refused) expect(a.json.error_info).toMatch(JAPANESE);
    const [{ n } = { n: 0 }] = await db().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM support_messages WHERE user_id = $1',
      [u.user_id],
    );
    expect(n).toBe(CHAT_MESSAGES_PER_MINUTE);
    clock.advance(60_001);
    expectOk(await send(u, 'もう一通'));
  });

  it("an operator's reply arrives on the player's user channel (a real socket), sets the message unread flag, and reading the chat clears it", async () => {
    const u = await player();
    const phone = await connect(u);
    expect(await join(phone, CHANNELS.user(u.user_id))).toEqual({ ok: true });
    const pushed = nextChat(phone);
    const answer = expectOk(await reply(u.user_id, 'お問い合わせありがとうございます。確認いたします。'));
    const message = chatSendResponseSchema.parse(answer).message;
    expect(message).toMatchObject({ from: 'operator', text: 'お問い合わせありがとうございます。確認いたします。' });
    expect(await pushed).toEqual(message);
    expect(await unreadMessage(u)).toBe(1);
    expect(
      userDataResponseSchema.parse(expectOk(await post(t, 'user/user_data', as(u)))).user_data.unread.message,
    ).toBe(1);
    expect((await list(u)).list).toEqual([message]);
    expect(await unreadMessage(u)).toBe(0);
    // The reply resent (the operator's tool retried) is the same message and is not pushed again.
    const again = chatSendResponseSchema.parse(
      expectOk(await operator('reply', { user_id: u.user_id, text: message.text, client_id: 'retry-0000001' })),
    ).message;
    const resent = chatSendResponseSchema.parse(
      expectOk(await operator('reply', { user_id: u.user_id, text: message.text, client_id: 'retry-0000001' })),
    ).message;
    expect(resent).toEqual(again);
    expect((await list(u)).list).toHaveLength(2);
  });

  it("the player's own message reaches the player's other device on the user channel", async () => {
    const u = await player();
    const tablet = await connect(u);
    expect(await join(tablet, CHANNELS.user(u.user_id))).toEqual({ ok: true });
    const pushed = nextChat(tablet);
    const sent = chatSendResponseSchema.parse(expectOk(await send(u, 'スマホから送りました'))).message;
    expect(await pushed).toEqual(sent);
  });

  it("another player cannot read a thread: their own list is theirs, another's id with their token is 401, the operators' calls are 403 without the operator token", async () => {
    const alice = await player();
    const bob = await player();
    expectOk(await send(alice, 'アリスの相談'));
    expect((await list(bob)).list).toEqual([]);
    const crossed = await expectRefusedUnchanged(
      t,
      () => post(t, 'support/chat/list', { user_id: alice.user_id, access_token: bob.access_token }),
      401,
    );
    expect(crossed.json.error_info).toMatch(JAPANESE);
    const forged = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/support/thread',
      payload: { user_id: alice.user_id },
      headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${bob.access_token}` },
    });
    expect(forged.statusCode).toBe(403);
    const bare = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/support/thread',
      payload: { user_id: alice.user_id },
    });
    expect(bare.statusCode).toBe(403);
    expect(JSON.stringify(bare.json())).not.toContain('アリスの相談');
    // Bob's socket cannot join Alice's channel, so her replies never reach him.
    const bobSocket = await connect(bob);
    expect(await join(bobSocket, CHANNELS.user(alice.user_id))).toMatchObject({ ok: false, error_code: 403 });
  });

  it(`pages of ${CHAT_PAGE_SIZE}, oldest first: the newest page, then before_id back to the first message; the operators page alike`, async () => {
    const u = await player();
    await db().query(
      `INSERT INTO support_messages (user_id, author, text, client_id, created_at)
       SELECT $1, CASE WHEN g % 3 = 0 THEN 'operator' ELSE 'player' END, 'メッセージ' || g, 'page-' || lpad(g::text, 6, '0'), $2
         FROM generate_series(1, 120) g`,
      [u.user_id, clock.now().toISOString()],
    );
    const pages: ChatMessageWire[][] = [];
    let before: number | undefined;
    for (;;) {
      const page = await list(u, before);
      pages.push(page.list);
      const ids = page.list.map((m) => m.message_id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      if (page.has_more === 0) break;
      before = ids[0];
    }
    expect(pages.map((p) => p.length)).toEqual([CHAT_PAGE_SIZE, CHAT_PAGE_SIZE, 20]);
    expect(pages[0]!.at(-1)!.text).toBe('メッセージ120');
    expect(pages[2]![0]!.text).toBe('メッセージ1');
    const all = pages.flat().map((m) => m.message_id);
    expect(new Set(all).size).toBe(120);
    const first = operatorThreadResponseSchema.parse(expectOk(await operator('thread', { user_id: u.user_id })));
    expect(first.list).toEqual(pages[0]);
    expect(first.has_more).toBe(1);
    const second = operatorThreadResponseSchema.parse(
      expectOk(await operator('thread', { user_id: u.user_id, before_id: pages[0]![0]!.message_id })),
    );
    expect(second.list).toEqual(pages[1]);
    const bad = await expectRefusedUnchanged(
      t,
      () => post(t, 'support/chat/list', as(u, { chat: { before_id: 'x' } })),
      400,
    );
    expect(bad.json.error_info).toMatch(JAPANESE);
  });

  it('the operators see threads with the last message, the nickname and how many player messages wait since the last reply', async () => {
    const u = await player({ nickname: 'うさぎのミミ' });
    expectOk(await send(u, '一通目'));
    expectOk(await send(u, '二通目'));
    expectOk(await reply(u.user_id, 'お返事です'));
    for (const text of ['三通目', '四通目', '五通目']) expectOk(await send(u, text));
    const threads = operatorThreadsResponseSchema.parse(expectOk(await operator('threads', {}))).list;
    expect(threads[0]).toMatchObject({
      user_id: u.user_id,
      nickname: 'うさぎのミミ',
      waiting: 3,
      last_message: { from: 'player', text: '五通目' },
    });
    expectOk(await reply(u.user_id, 'もう一度お返事です'));
    const after = operatorThreadsResponseSchema.parse(expectOk(await operator('threads', {}))).list;
    expect(after.find((x) => x.user_id === u.user_id)).toMatchObject({
      waiting: 0,
      last_message: { from: 'operator' },
    });
  });

  it('an operator reply to an unknown user is 404 with a Japanese text and stores nothing', async () => {
    const r = await expectRefusedUnchanged(t, () => reply(2_000_000, 'どなたですか'), 404);
    expect(r.json.error_info).toBe('ユーザーが見つかりません。');
  });
});
