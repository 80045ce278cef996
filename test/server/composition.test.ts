import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';

const DAY_MS = 86_400_000;
const clock = new ManualServerClock(new Date('2026-11-23T10:00:00+09:00'));
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, agent: false });
});
afterAll(async () => t?.close());

const post = (url: string, body: object) => t.server.app.inject({ method: 'POST', url: `/api/${url}`, payload: body });

/** A user with a token issued by the server's own identity service (so on the server's clock). */
async function newUser() {
  const [row] = await t.server.store().query<{ user_id: number }>('INSERT INTO users DEFAULT VALUES RETURNING user_id');
  const { access_token } = await t.server.services().identity.issueToken(row!.user_id);
  return { user_id: row!.user_id, access_token };
}

describe('the server composition root: one set of services on one injected clock', () => {
  it('builds each service once: every route reaches the same instances', () => {
    const services = t.server.services();
    expect(t.server.services()).toBe(services);
    expect(services.clock).toBe(clock);
    expect(new Set(Object.values(services)).size).toBe(Object.keys(services).length);
  });

  it('an access token lives 30 days on the injected clock, then answers 401', async () => {
    const user = await newUser();
    expect((await post('user/tc', user)).json().error_code).toBe(200);
    clock.advance(30 * DAY_MS - 1);
    expect((await post('user/tc', user)).json().error_code).toBe(200);
    clock.advance(1);
    const expired = await post('user/tc', user);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ error_code: 401, error_info: expect.stringMatching(/ログイン/) });
  });

  it('[R6-3] the VIP 30-day purchase window moves with the injected clock', async () => {
    const user = await newUser();
    const [vip] = await t.server
      .store()
      .query<{ station_id: number }>(
        `SELECT station_id FROM stations WHERE station_type = 'vip' AND station_status = 'open' ORDER BY station_id LIMIT 1`,
      );
    await t.server.services().ledger.credit(user.user_id, 'toll', {
      amount: 100_000,
      reason: 'purchase',
      idempotencyKey: `composition:${user.user_id}`,
    });
    // A fresh token each time, so only the purchase window can change the answer.
    const visit = async () => {
      const { access_token } = await t.server.services().identity.issueToken(user.user_id);
      return (await post('v2/play/visit', { user_id: user.user_id, access_token, station_id: vip!.station_id })).json()
        .error_code;
    };
    expect(await visit()).toBe(200);
    clock.advance(29 * DAY_MS);
    expect(await visit()).toBe(200);
    clock.advance(DAY_MS + 1);
    expect(await visit()).toBe(569);
  });

  it('the manual clock runs due timers in order at their own instants, and not cancelled ones', async () => {
    // The services' own timers (the free TC job looks every hour, the visit sweep every two
    // minutes) are not this test's: what fell due while the earlier tests moved the clock runs first.
    clock.advance(0);
    const services = t.server.services();
    await Promise.all([services.visitSweep.settled(), services.freeTcExpiry.settled()]);
    const fired: string[] = [];
    const start = clock.now().getTime();
    const theirs = clock.pendingTimers;
    clock.setTimeout(() => fired.push(`b+${clock.now().getTime() - start}`), 200);
    clock.setTimeout(() => fired.push(`a+${clock.now().getTime() - start}`), 100);
    clock.setTimeout(() => fired.push('never'), 150).cancel();
    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance(101);
    expect(fired).toEqual(['a+100', 'b+200']);
    expect(clock.pendingTimers).toBe(theirs);
  });
});
