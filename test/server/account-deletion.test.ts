import { describe, expect, it } from 'vitest';
import {
  accountDeletePreviewResponseSchema,
  CHANNELS,
  deliveryRequestResponseSchema,
  devOutboxResponseSchema,
  loginResponseSchema,
  type Identity,
} from '../../src/contract';
import { deliveryTicketWeek } from '../../src/domain';
import { SERVER_MESSAGES } from '../../server/messages';
import { LedgerPlayLedger } from '../../server/play/rooms/ledger-play-ledger';
import { SqlPlayStore } from '../../server/play/rooms/sql-play-store';
import { ReserveGate } from '../../server/play/reserve-gate';
import { Ledger } from '../../server/wallet/ledger';
import { ManualServerClock } from '../support/manual-server-clock';
import { setUpOperatorServer } from '../support/operator-server';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import type { TestServer } from '../support/test-server';
import { as, expectOk, expectRefusedUnchanged, JAPANESE, post, validAddress } from './user-helpers';

const clock = new ManualServerClock(new Date('2026-11-26T12:00:00+09:00'));
let t: TestServer;
let stationId = 0;
const { operator, connect, join } = setUpOperatorServer({
  clock,
  token: 'operator-token-for-deletion-tests-0123',
  async started(server) {
    t = server;
    stationId = (await playableStation(t)).station_id;
  },
});

const db = () => t.server.store();
let seq = 0;

interface Account extends Identity {
  readonly email: string;
  readonly password: string;
  readonly nickname: string;
  readonly tel: string;
  readonly street: string;
  readonly contactText: string;
  readonly chatText: string;
  readonly unrequested: number;
  readonly requestedDelivery: number;
  readonly shippedDelivery: number;
}

const login = (email: string, password: string) => post(t, 'auth/login', { email, password });
const remove = (u: Identity, password?: string) =>
  post(t, 'account/delete', as(u, { account_delete: { confirm: 1, ...(password === undefined ? {} : { password }) } }));

/**
 * A player with everything personal an account gathers: e-mail and password, nickname, profile, a
 * verified phone, an address, TC (paid and free) and tickets, three prizes (one waiting, one
 * requested, one shipped), a contact message and a chat message.
 */
async function fullAccount(): Promise<Account> {
  const n = (seq += 1);
  const email = `leaving-${n}@example.jp`;
  const password = 'leave-pass1';
  const u = loginResponseSchema.parse(expectOk(await post(t, 'auth/signup', { email, password })));
  const nickname = `たぬきち${n}号`;
  const tel = `0901234${String(5000 + n).padStart(4, '0')}`;
  const street = `たぬき町${n}丁目`;
  expectOk(await post(t, 'account/nickname/set', as(u, { nickname: { nickname } })));
  expectOk(
    await post(t, 'account/profile/set', as(u, { profile: { sex: 2, birth: '1990-05-06', prefectures: '北海道' } })),
  );
  expectOk(await post(t, 'account/phone/send_code', as(u, { phone: { tel } })));
  const sms = devOutboxResponseSchema
    .parse(expectOk(await post(t, 'auth/dev_outbox', as(u))))
    .list.find((m) => m.channel === 'sms')!;
  const code = /認証コード: ([0-9]{6})/.exec(sms.body)![1]!;
  expectOk(await post(t, 'account/phone/verify', as(u, { phone_verify: { code } })));
  const address = expectOk(
    await post(t, 'account/address/register', as(u, { address: validAddress({ address2: street, tel }) })),
  ).address as { id: number };
  const s = t.server.services();
  await s.ledger.credit(u.user_id, 'free', { amount: 20_000, reason: 'admin', idempotencyKey: 'grant-free' });
  await s.ledger.credit(u.user_id, 'toll', { amount: 5_000, reason: 'purchase', idempotencyKey: 'grant-toll' });
  await s.ledger.creditTickets(u.user_id, { amount: 3, reason: 'admin', idempotencyKey: 'grant-ticket' });
  // This week's free-delivery ticket already used: the requests are paid for in TC.
  await db().query(
    'INSERT INTO delivery_tickets (user_id, week_start, granted_at, used_at) VALUES ($1, $2, $2, $2) ON CONFLICT DO NOTHING',
    [u.user_id, new Date(deliveryTicketWeek(clock.now().getTime())).toISOString()],
  );
  const win = (name: string) => s.prizes.recordWin(u.user_id, { prize_kind: 'crane', product_name: name });
  const unrequested = await win('ふわもこ ねこクッション');
  const requestOf = async (prize: number, requestId: string) =>
    deliveryRequestResponseSchema.parse(
      expectOk(
        await post(
          t,
          'delivery/request',
          as(u, {
            delivery_request: { request_id: requestId, play_history_ids: [prize], address_id: address.id },
          }),
        ),
      ),
    ).delivery.delivery_id;
  const requestedDelivery = await requestOf(await win('ぴよぴよ ミニマスコット'), `del-req-${n}-a`);
  const shippedDelivery = await requestOf(await win('もこもこ ひつじクッション'), `del-req-${n}-b`);
  expectOk(await operator('delivery_ship', { delivery_id: shippedDelivery, tracking_number: `TRK-${n}-0001` }));
  const contactText = `景品が届きません（問い合わせ${n}）`;
  const chatText = `チャットで相談です（${n}）`;
  expectOk(await post(t, 'support/contact', as(u, { contact: { category: 'delivery', text: contactText } })));
  expectOk(await post(t, 'support/chat/send', as(u, { chat: { text: chatText, client_id: `chat-${n}-0001` } })));
  return {
    user_id: u.user_id,
    access_token: u.access_token,
    email,
    password,
    nickname,
    tel,
    street,
    contactText,
    chatText,
    unrequested,
    requestedDelivery,
    shippedDelivery,
  };
}

/** Where in the whole store a text still appears: "table.column" for every text or JSON column holding it. */
async function whereStored(needle: string): Promise<string[]> {
  const columns = await db().query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
      WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'jsonb', 'json')`,
  );
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    const [row] = await db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table_name}" WHERE position($1 in "${column_name}"::text) > 0`,
      [needle],
    );
    if (row!.n > 0) found.push(`${table_name}.${column_name}`);
  }
  return found;
}

describe('account deletion [R10-7]', { timeout: 60_000 }, () => {
  it('[R10-7] the preview tells what deleting takes: prizes not requested, deliveries not shipped, TC paid and free, whether the password is asked', async () => {
    const u = await fullAccount();
    const preview = accountDeletePreviewResponseSchema.parse(
      expectOk(await post(t, 'account/delete/preview', as(u))),
    ).preview;
    // 20,000 free TC paid two 8,000 TC fees: 4,000 free and the 5,000 bought are left.
    expect(preview).toEqual({
      prizes_not_requested: 1,
      deliveries_not_shipped: 1,
      tc_paid: 5_000,
      tc_free: 4_000,
      has_password: 1,
      clips: 0,
    });
  });

  it('[R10-7] deleting revokes every token: the old token is refused on every call, login fails, the socket handshake refuses and the open socket is closed', async () => {
    const u = await fullAccount();
    const other = loginResponseSchema.parse(expectOk(await login(u.email, u.password)));
    const socket = await connect(u);
    expect(await join(socket, CHANNELS.user(u.user_id))).toEqual({ ok: true });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expectOk(await remove(u, u.password));
    expect(await closed).toBe('io server disconnect');
    for (const session of [u, other])
      for (const path of ['user/tc', 'user/user_data', 'account/delete/preview', 'support/chat/list']) {
        const r = await post(t, path, as(session));
        expect(r.status, path).toBe(401);
        expect(r.json.error_info).toMatch(JAPANESE);
      }
    const again = await login(u.email, u.password);
    expect(again.status).toBe(401);
    expect(again.json.error_info).toBe('メールアドレスまたはパスワードが正しくありません。');
    await expect(connect(u)).rejects.toThrow();
    const [tokens] = await db().query<{ live: number }>(
      'SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS live FROM access_tokens WHERE user_id = $1',
      [u.user_id],
    );
    expect(tokens!.live).toBe(0);
  });

  it('[R10-7] personal data is gone from every row (e-mail, password, phone, profile, nickname, addresses and their copies, codes, mail, support texts); the ledger, the play log, prizes and requests stay', async () => {
    const u = await fullAccount();
    // A real play, so the play log has the player's row.
    const driver = new PlayDriver(t, clock, u);
    await driver.reserve(stationId).waitTurn().confirm().waitPlaying().holdRight(300).holdBack(300).waitResult();
    // Mid-play (its continue window) the account cannot be deleted: the room runs a turn for it.
    const busy = await expectRefusedUnchanged(t, () => remove(u, u.password), 409);
    expect(busy.json.error_info).toBe(SERVER_MESSAGES.accountDeleteBusy);
    await driver.finish();
    const count = async (table: string) =>
      (await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [u.user_id]))[0]!
        .n;
    const kept = {
      ledger: await count('tc_ledger'),
      tickets: await count('ticket_ledger'),
      plays: await count('plays'),
      prizes: await count('won_prizes'),
      deliveries: await count('delivery_requests'),
    };
    expect(kept.plays).toBe(1);
    for (const needle of [u.email, u.nickname, u.tel, u.street, u.contactText, u.chatText])
      expect(await whereStored(needle), needle).not.toEqual([]);

    expectOk(await remove(u, u.password));

    const [user] = await db().query<Record<string, unknown>>(
      `SELECT email, email_verified_at, password_hash, nickname, sex, birth, prefecture, tel, tel_verified_at, debug_name,
              deleted_at IS NOT NULL AS deleted FROM users WHERE user_id = $1`,
      [u.user_id],
    );
    expect(user).toEqual({
      email: null,
      email_verified_at: null,
      password_hash: null,
      nickname: null,
      sex: null,
      birth: null,
      prefecture: null,
      tel: null,
      tel_verified_at: null,
      debug_name: null,
      deleted: true,
    });
    for (const table of ['addresses', 'verification_codes', 'dev_outbox', 'support_messages', 'user_unread'])
      expect(await count(table), table).toBe(0);
    const copies = await db().query<Record<string, unknown>>(
      'SELECT first_name, last_name, zip, address1, address2, address3, tel, email FROM delivery_requests WHERE user_id = $1',
      [u.user_id],
    );
    expect(copies).toHaveLength(2);
    for (const c of copies)
      expect(c).toEqual({
        first_name: '',
        last_name: '',
        zip: '',
        address1: '',
        address2: '',
        address3: '',
        tel: '',
        email: null,
      });
    expect(
      await db().query('SELECT category, text, plays FROM support_contacts WHERE user_id = $1', [u.user_id]),
    ).toEqual([{ category: 'delivery', text: '', plays: null }]);
    // Nothing personal is left anywhere in the store.
    for (const needle of [u.email, u.nickname, u.tel, u.street, u.contactText, u.chatText])
      expect(await whereStored(needle), needle).toEqual([]);
    // Kept: the ledger (plus the forfeiture rows), the play log, the prizes and the requests.
    expect(await count('tc_ledger')).toBeGreaterThan(kept.ledger);
    expect(await count('ticket_ledger')).toBe(kept.tickets + 1);
    expect(await count('plays')).toBe(kept.plays);
    expect(await count('won_prizes')).toBe(kept.prizes);
    expect(await count('delivery_requests')).toBe(kept.deliveries);
  });

  it('[R10-7] an unshipped delivery is cancelled without a refund, a shipped one stays shipped; the waiting prize lapses; TC and tickets are forfeited through the ledger', async () => {
    const u = await fullAccount();
    expectOk(await remove(u, u.password));
    const deliveries = await db().query<{ delivery_id: number; delivery_status: string; cancel_reason: string | null }>(
      'SELECT delivery_id, delivery_status, cancel_reason FROM delivery_requests WHERE user_id = $1 ORDER BY delivery_id',
      [u.user_id],
    );
    expect(deliveries).toEqual([
      {
        delivery_id: u.requestedDelivery,
        delivery_status: 'cancelled',
        cancel_reason: SERVER_MESSAGES.deliveryCancelledByDeletion,
      },
      { delivery_id: u.shippedDelivery, delivery_status: 'shipped', cancel_reason: null },
    ]);
    const [prize] = await db().query<{ expired_at: Date | null }>(
      'SELECT expired_at FROM won_prizes WHERE play_history_id = $1',
      [u.unrequested],
    );
    expect(prize!.expired_at).not.toBeNull();
    const ledger = new Ledger(db(), clock);
    expect(await ledger.balance(u.user_id)).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
    expect(await ledger.tickets(u.user_id)).toBe(0);
    // The rows still add up to the balance; no refund row was written.
    expect(await ledger.fromRows(u.user_id)).toEqual({ tc_free: 0, tc_toll: 0, ticket: 0 });
    const reasons = await db().query<{ reason: string; kind: string; delta: number }>(
      "SELECT reason, kind, delta FROM tc_ledger WHERE user_id = $1 AND reason IN ('refund', 'account_deleted') ORDER BY kind",
      [u.user_id],
    );
    expect(reasons).toEqual([
      { reason: 'account_deleted', kind: 'free', delta: -4_000 },
      { reason: 'account_deleted', kind: 'toll', delta: -5_000 },
    ]);
  });

  it("[R10-7] the nickname no longer shows publicly: a winner announcement's name reads the placeholder, the operators' threads drop the player", async () => {
    const u = await fullAccount();
    const s = t.server.services();
    // The store the station rooms announce winners from.
    const rooms = new SqlPlayStore(
      db(),
      clock,
      new LedgerPlayLedger(s.ledger, s.dailyFree),
      new ReserveGate(s.vipGate, s.ledger, s.dailyFree),
    );
    expect(await rooms.nickname(u.user_id)).toBe(u.nickname);
    const before = (await operator('support/threads', { limit: 200 })).json.list as { user_id: number }[];
    expect(before.map((x) => x.user_id)).toContain(u.user_id);
    expectOk(await remove(u, u.password));
    const name = await rooms.nickname(u.user_id);
    expect(name).toBeNull();
    const announced = SERVER_MESSAGES.winnerAnnouncement(name || SERVER_MESSAGES.anonymousPlayer, 'ねこクッション');
    expect(announced).not.toContain(u.nickname);
    expect(announced).toContain(SERVER_MESSAGES.anonymousPlayer);
    const after = (await operator('support/threads', { limit: 200 })).json.list as { user_id: number }[];
    expect(after.map((x) => x.user_id)).not.toContain(u.user_id);
    expect(JSON.stringify(await operator('support/contacts', { status: 'open', limit: 200 }))).not.toContain(
      u.contactText,
    );
  });

  it('[R10-7] two deletions at once delete once: one answers 200, the others a clean 401, and the forfeiture is written once', async () => {
    const u = await fullAccount();
    const answers = await Promise.all([remove(u, u.password), remove(u, u.password), remove(u, u.password)]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(401);
      expect(a.json.error_info).toMatch(JAPANESE);
    }
    const [forfeits] = await db().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM tc_ledger WHERE user_id = $1 AND reason = 'account_deleted'",
      [u.user_id],
    );
    expect(forfeits!.n).toBe(2);
  });

  it('[R10-7] a wrong password is a Japanese 401 and changes nothing; no password or no confirmation is a 400', async () => {
    const u = await fullAccount();
    const wrong = await expectRefusedUnchanged(t, () => remove(u, 'not-my-pass1'), 401);
    expect(wrong.json.error_info).toBe('パスワードが正しくありません。');
    const missing = await expectRefusedUnchanged(t, () => remove(u), 400);
    expect(missing.json.error_info).toBe('パスワードを入力してください。');
    const unconfirmed = await expectRefusedUnchanged(
      t,
      () => post(t, 'account/delete', as(u, { account_delete: { confirm: 0, password: u.password } })),
      400,
    );
    expect(unconfirmed.json.error_info).toBe('退会の確認にチェックを入れてください。');
    expectOk(await post(t, 'user/tc', as(u)));
    expectOk(await login(u.email, u.password));
  });

  it('[R10-7] the e-mail is free again: a new sign-up with it is a new account that signs in', async () => {
    const u = await fullAccount();
    expectOk(await remove(u, u.password));
    const fresh = loginResponseSchema.parse(
      expectOk(await post(t, 'auth/signup', { email: u.email, password: 'again-pass2' })),
    );
    expect(fresh.user_id).not.toBe(u.user_id);
    const [row] = await db().query<{ email: string | null }>('SELECT email FROM users WHERE user_id = $1', [
      fresh.user_id,
    ]);
    expect(row!.email).toBe(u.email);
    expect(loginResponseSchema.parse(expectOk(await login(u.email, 'again-pass2'))).user_id).toBe(fresh.user_id);
  });

  it('[R10-7] an account without a password (the debug login) is deleted with the confirmation alone; its debug name makes a new user', async () => {
    const first = loginResponseSchema.parse(expectOk(await post(t, 'auth/debug_login', { name: 'leaver' })));
    const preview = accountDeletePreviewResponseSchema.parse(
      expectOk(await post(t, 'account/delete/preview', as(first))),
    ).preview;
    expect(preview).toMatchObject({ has_password: 0, tc_free: 10_000 });
    expectOk(await remove(first));
    const again = expectOk(await post(t, 'auth/debug_login', { name: 'leaver' }));
    expect(again.created).toBe(1);
    expect(again.user_id).not.toBe(first.user_id);
  });

  it('[R10-7] the operators cannot reach a deleted player: a chat reply and a prize grant are 404 and change nothing', async () => {
    const u = await fullAccount();
    expectOk(await remove(u, u.password));
    const reply = await expectRefusedUnchanged(
      t,
      () => operator('support/reply', { user_id: u.user_id, text: 'お返事です', client_id: 'reply-deleted-01' }),
      404,
    );
    expect(reply.json.error_info).toBe('ユーザーが見つかりません。');
    await expectRefusedUnchanged(
      t,
      () => operator('prize_grant', { user_id: u.user_id, prize_kind: 'order_made', product_name: '名入れマグカップ' }),
      404,
    );
    await expectRefusedUnchanged(t, () => operator('support/thread', { user_id: u.user_id }), 404);
  });
});
