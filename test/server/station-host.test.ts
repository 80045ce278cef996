import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  historyResponseSchema,
  playStateResponseSchema,
  reserveResponseSchema,
  type PlayState,
} from '../../src/contract';
import { CRANE } from '../../src/domain/play/crane-machine';
import { STORE_LOCKS } from '../../server/store/store-locks';
import { usePostgresCluster } from '../support/postgres-cluster';
import { freePort, ServerProcess } from '../support/server-process';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/**
 * Issue 25, R10-8: two instances on one PostgreSQL database; exactly one runs the station rooms.
 * The host is a real process killed with SIGKILL mid-play; the standby takes the rooms over within
 * 10 s and the player finishes the same play, charged once.
 */
const postgres = usePostgresCluster();
const processes: ServerProcess[] = [];
let standby: TestServer | null = null;
afterAll(async () => {
  for (const p of processes) await p.kill();
  await standby?.close();
});

/** Whether some session holds the station host lock (on any database of the cluster). */
async function hostLockHeld(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`,
      [STORE_LOCKS.stationHost],
    );
    return rows[0]!.n > 0;
  } finally {
    await client.end();
  }
}

function caller(origin: string, user: TestUser) {
  return async (path: string, body: object = {}) => {
    const res = await fetch(`${origin}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.user_id, access_token: user.access_token, ...body }),
    });
    return (await res.json()) as Record<string, unknown> & { error_code: number };
  };
}

describe('the station host (R10-8)', () => {
  it('[R10-8] one instance runs the rooms; killed with SIGKILL mid-play, the standby takes them over within 10 s and the play finishes there, charged once', async () => {
    const url = await postgres.cluster.seededDatabase();
    const host = new ServerProcess(await freePort(), ':memory:', { DATABASE_URL: url });
    processes.push(host);
    await host.start();
    await expect.poll(() => hostLockHeld(url), { timeout: 15_000 }).toBe(true);
    standby = await startTestServer({
      listen: true,
      databaseUrl: url,
      standby: true,
      hostRetryMs: 250,
      onHostLost: () => undefined,
    });
    expect(standby.server.hostsStations()).toBe(false);

    const alice = await createTestUser(standby, {}, { freeTc: 10_000 });
    const [station] = await standby.server
      .store()
      .query<{ station_id: number; play_price: number }>(
        `SELECT station_id, play_price FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5 ORDER BY station_id LIMIT 1`,
      );
    // The standby serves everything but the rooms: a reservation there is refused in Japanese, and changes nothing.
    const onStandby = caller(standby.origin, alice);
    const refused = await onStandby('v2/play/reserve', { station_id: station!.station_id });
    expect(refused.error_code).toBe(503);
    expect(refused.error_info).toMatch(/しばらくしてから/);
    expect((await onStandby('user/tc')) as unknown).toMatchObject({ data: { tc_all: 10_000 } });

    const a = caller(host.origin, alice);
    expect(
      reserveResponseSchema.parse(await a('v2/play/reserve', { station_id: station!.station_id })).reserve_info
        .reserve_status,
    ).toBe('playTransition');
    const confirmed = playStateResponseSchema.parse(
      await a('v2/play/confirm', { station_id: station!.station_id }),
    ).play!;
    await expect
      .poll(async () => playStateResponseSchema.parse(await a('v2/play/current')).play?.phase, { timeout: 10_000 })
      .toBe('playing');
    expect(
      (await a('v2/play/control', { play_id: confirmed.play_id, button: 'right', command: 'press' })).error_code,
    ).toBe(200);
    let moving: PlayState | null = null;
    await expect
      .poll(
        async () => {
          moving = playStateResponseSchema.parse(await a('v2/play/current')).play;
          return moving!.machine.x;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBeGreaterThan(CRANE.home.x + 100);

    await host.kill('SIGKILL');
    const killedAt = Date.now();
    await expect.poll(() => standby!.server.hostsStations(), { timeout: 10_000, interval: 50 }).toBe(true);
    const tookOverMs = Date.now() - killedAt;
    expect(tookOverMs).toBeLessThan(10_000);

    // The same play, resumed on the standby from its grace window where the claw was.
    const back = playStateResponseSchema.parse(await onStandby('v2/play/current')).play!;
    expect(back).toMatchObject({ play_id: confirmed.play_id, phase: 'playing', machine: { phase: 'waitBack' } });
    expect(back.machine.x).toBeGreaterThan(CRANE.home.x + 50);
    expect(
      (await onStandby('v2/play/control', { play_id: back.play_id, button: 'back', command: 'press' })).error_code,
    ).toBe(200);
    expect(
      (await onStandby('v2/play/control', { play_id: back.play_id, button: 'back', command: 'release' })).error_code,
    ).toBe(200);
    await expect
      .poll(async () => playStateResponseSchema.parse(await onStandby('v2/play/current')).play?.phase, {
        timeout: 15_000,
      })
      .toBe('result');
    const history = historyResponseSchema.parse(await onStandby('v2/play/history')).history.list;
    expect(history).toHaveLength(1);
    expect(history[0]!.play_id).toBe(confirmed.play_id);
    // Charged exactly once, across both instances.
    expect((await onStandby('user/tc')) as unknown).toMatchObject({ data: { tc_all: 10_000 - station!.play_price } });
    console.log(`station host takeover after SIGKILL: ${tookOverMs} ms`);
  }, 120_000);
});
