import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayStore } from '../../server/play/rooms/play-ports';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

/**
 * Two stations share nothing but the store: a write of one station that hangs (a slow disk, a
 * locked row on PostgreSQL) does not hold up the other station's confirm. The hang is a gate the
 * test opens, not a timer, so the order is certain; the other station's answer time is measured.
 */
const clock = new ManualServerClock(new Date('2026-11-24T12:00:00+09:00'));
let t: TestServer;
/** The station whose store calls wait for `release`, and the gate itself. */
const hang = { stationId: 0, held: 0, release: (): void => undefined };
let gate: Promise<void> = Promise.resolve();

function hanging(inner: PlayStore): PlayStore {
  const wait = async (stationId: number) => {
    if (stationId !== hang.stationId) return;
    hang.held += 1;
    await gate;
  };
  return {
    loadRooms: (ids) => inner.loadRooms(ids),
    commit: async (id, writes) => {
      await wait(id);
      return inner.commit(id, writes);
    },
    addToLine: (id, userId) => inner.addToLine(id, userId),
    startPlay: async (id, start, seed) => {
      await wait(id);
      return inner.startPlay(id, start, seed);
    },
    nickname: (userId) => inner.nickname(userId),
  };
}

let stations: { station_id: number; play_price: number }[] = [];
beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, playStore: hanging });
  stations = await t.server.store().query(
    `SELECT station_id, play_price FROM stations WHERE station_type = 'normal' AND designated_type = 'normal'
          AND station_status = 'open' AND stock >= 3 ORDER BY station_id LIMIT 2`,
  );
});
afterAll(async () => t?.close());

describe('[R10-1] one station never waits on another', () => {
  it("a store write hanging on one station does not delay another station's confirm (measured)", async () => {
    const [one, two] = stations as [(typeof stations)[0], (typeof stations)[0]];
    const a = new PlayDriver(t, clock, await createTestUser(t, {}, { freeTc: 10_000 }));
    const b = new PlayDriver(t, clock, await createTestUser(t, {}, { freeTc: 10_000 }));
    await a.reserve(one.station_id);
    await b.reserve(two.station_id);
    expect([a.record!.reserve_status, b.record!.reserve_status]).toEqual(['playTransition', 'playTransition']);

    // Station one's writes hang from now on; A confirms there and waits on the store.
    gate = new Promise((resolve) => (hang.release = resolve));
    hang.stationId = one.station_id;
    let aAnswered = false;
    const aConfirm = a.post('v2/play/confirm', { station_id: one.station_id }).then((answer) => {
      aAnswered = true;
      return answer;
    });
    await expect.poll(() => hang.held).toBe(1);

    // B confirms at station two meanwhile: answered at once, charged, its play resetting.
    const started = performance.now();
    const bConfirm = await b.post('v2/play/confirm', { station_id: two.station_id });
    const bMs = performance.now() - started;
    expect(bConfirm).toMatchObject({ status: 200, json: { play: { phase: 'resetting', station_id: two.station_id } } });
    expect(aAnswered).toBe(false);
    // B's answer took the time of its own writes alone (a few ms), not the hang's (unbounded).
    console.info(`station two's confirm answered in ${bMs.toFixed(1)} ms while station one's write hung`);
    expect(bMs).toBeLessThan(1000);

    // Station one's write lands: A's play starts, charged once; both stations play on.
    hang.release();
    hang.stationId = 0;
    expect(await aConfirm).toMatchObject({ status: 200, json: { play: { phase: 'resetting' } } });
    for (const [driver, station] of [
      [a, one],
      [b, two],
    ] as const) {
      expect((await t.server.services().ledger.balance(driver.user.user_id)).tc_all).toBe(10_000 - station.play_price);
    }
    await a.current();
    await b.current();
    await a.waitPlaying().holdRight(200).holdBack(200).waitResult().finish();
    await b.holdRight(200).holdBack(200).waitResult().finish();
  });
});
