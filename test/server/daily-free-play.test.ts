import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyResponseSchema, userDataResponseSchema } from '../../src/contract';
import { fromJstParts, HOUR_MS } from '../../src/domain';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { stationOps } from '../support/station-ops';
import { STORE_KINDS, useStoreKinds } from '../support/store-kinds';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, post } from './user-helpers';

/** Wednesday 2026-11-25 23:00 JST: the day ends in an hour. */
const START = new Date(fromJstParts(2026, 11, 25, 23));

const dailyOf = async (t: TestServer, u: TestUser) =>
  userDataResponseSchema.parse(expectOk(await post(t, 'user/user_data', as(u)))).user_data.daily_free_play;

const stores = useStoreKinds();

describe.each(STORE_KINDS)('the daily free play on %s', (kind) => {
  let t: TestServer;
  const clock = new ManualServerClock(START);
  beforeAll(async () => {
    t = await stores.startServer(kind, { clock });
  });
  afterAll(async () => t?.close());

  it('[R11-8] the day\u2019s first visit grants one free play until 24:00 JST; 50 first visits at once grant one', async () => {
    const u = await createTestUser(t);
    const answers = await Promise.all(Array.from({ length: 50 }, () => dailyOf(t, u)));
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
      new Set([
        JSON.stringify({
          available: 1,
          day: '2026-11-25',
          expires_at: new Date(fromJstParts(2026, 11, 26)).toISOString(),
        }),
      ]),
    );
    const rows = await t.server
      .store()
      .query('SELECT jst_day::text AS day FROM daily_free_plays WHERE user_id = $1', [u.user_id]);
    expect(rows).toEqual([{ day: '2026-11-25' }]);
    // It is not a ticket: the ticket balance and ledger are untouched.
    expect(await t.server.services().ledger.tickets(u.user_id)).toBe(0);
  });

  it('[R11-8] an unused free play ends at 24:00 JST: after it the station’s line gives no place without a ticket', async () => {
    const u = await createTestUser(t);
    expect(await dailyOf(t, u)).toMatchObject({ available: 1, day: '2026-11-25' });
    clock.set(new Date(fromJstParts(2026, 11, 26) - 1));
    expect(await t.server.services().dailyFree.view(u.user_id)).toMatchObject({ available: 1 });
    clock.advance(1);
    expect(await t.server.services().dailyFree.view(u.user_id)).toMatchObject({ available: 0, day: '2026-11-26' });
    const [station] = await t.server
      .store()
      .query<{ station_id: number }>(
        `SELECT station_id FROM stations WHERE designated_type = 'point_ticket' AND station_status = 'open' ORDER BY station_id LIMIT 1`,
      );
    const answer = await post(t, 'v2/play/reserve', as(u, { station_id: station!.station_id }));
    expect(answer.status).toBe(402);
  });
});

describe('the daily free play at a ticket station (the real rooms, a manual clock)', () => {
  const clock = new ManualServerClock(START);
  let t: TestServer;
  let ticketStation = 0;
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true, clock, playSeeds: () => 3, agent: true });
    const [row] = await t.server
      .store()
      .query<{ station_id: number }>(
        `SELECT station_id FROM stations WHERE designated_type = 'point_ticket' AND station_status = 'open' ORDER BY station_id LIMIT 1`,
      );
    ticketStation = row!.station_id;
  });
  afterAll(async () => t?.close());

  const drive = (u: TestUser) => new PlayDriver(t, clock, u);
  const reserveAnswer = (u: TestUser) => drive(u).post('v2/play/reserve', { station_id: ticketStation });

  it('[R11-8] a player with no ticket plays once on the day\u2019s free play (the play log says so); the next play needs a ticket (402); a new day brings a new one', async () => {
    const u = await createTestUser(t);
    // Not granted before the day's first visit: no place without a ticket.
    expect(await reserveAnswer(u)).toMatchObject({ status: 402 });
    expect(await dailyOf(t, u)).toMatchObject({ available: 1, day: '2026-11-25' });
    const a = drive(u);
    await a.reserve(ticketStation).waitTurn().confirm();
    expect(a.play).toMatchObject({ currency: 'ticket', price: 1 });
    await a.waitPlaying().holdRight(300).holdBack(300).waitResult();
    await a.finish();
    expect(await dailyOf(t, u)).toMatchObject({ available: 0 });
    const ledger = t.server.services().ledger;
    expect(await ledger.tickets(u.user_id)).toBe(0);
    expect(await t.server.store().query('SELECT 1 FROM ticket_ledger WHERE user_id = $1', [u.user_id])).toEqual([]);
    const [used] = await t.server
      .store()
      .query<{ play_id: number }>('SELECT play_id FROM daily_free_plays WHERE user_id = $1', [u.user_id]);
    expect(used!.play_id).toBe(a.play!.play_id);
    // The play log says it was the free one, not a ticket.
    const log = historyResponseSchema.parse(expectOk(await post(t, 'v2/play/history', as(u)))).history.list;
    expect(log.map((p) => [p.play_id, p.daily_free])).toEqual([[a.play!.play_id, true]]);
    expect(await reserveAnswer(u)).toMatchObject({ status: 402 });
    // 24:00 JST: the next day's first visit grants the next one.
    await a.advance(HOUR_MS);
    expect(await dailyOf(t, u)).toMatchObject({ available: 1, day: '2026-11-26' });
  });

  it('[R11-8] a fault refunds a free play as the free play, usable again the same day', async () => {
    const u = await createTestUser(t);
    expect(await dailyOf(t, u)).toMatchObject({ available: 1 });
    const a = drive(u);
    await a.reserve(ticketStation).waitTurn().confirm().waitPlaying().control('right', 'press');
    expect(await dailyOf(t, u)).toMatchObject({ available: 0 });
    const ops = stationOps(t.server);
    expect((await ops.fault(ticketStation)).refunded_play_id).toBe(a.play!.play_id);
    expect(await dailyOf(t, u)).toMatchObject({ available: 1 });
    expect(await t.server.services().ledger.tickets(u.user_id)).toBe(0);
    await ops.setStatus(ticketStation, 'open');
  });
});
