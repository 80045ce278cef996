import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_TIMINGS } from '../../src/domain';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { stationOps } from '../support/station-ops';

/** Probing the play loop as an attacker would: the same request many times at once. */
const clock = new ManualServerClock(new Date('2026-11-23T12:00:00+09:00'));
let t: TestServer;
let stationId = 0;
let price = 0;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock });
  const row = await playableStation(t);
  stationId = row.station_id;
  price = row.play_price;
});
afterAll(async () => t?.close());

describe('the play loop under concurrent requests', () => {
  it('20 confirms at once start one play and charge once; 20 continues at once start one more and charge once more', async () => {
    const alice = await createTestUser(t, {}, { freeTc: 10_000 });
    const a = new PlayDriver(t, clock, alice);
    await a.reserve(stationId);
    const confirms = await Promise.all(
      Array.from({ length: 20 }, () => a.post('v2/play/confirm', { station_id: stationId })),
    );
    expect(confirms.filter((c) => c.status === 200)).toHaveLength(1);
    expect(confirms.filter((c) => c.status === 409)).toHaveLength(19);
    expect((await t.server.services().ledger.balance(alice.user_id)).tc_all).toBe(10_000 - price);
    await a.current();
    await a.waitPlaying().holdRight(200).holdBack(200).waitResult();
    const continues = await Promise.all(
      Array.from({ length: 20 }, () => a.post('v2/play/continue', { play_id: a.play!.play_id })),
    );
    expect(continues.filter((c) => c.status === 200)).toHaveLength(1);
    expect((await t.server.services().ledger.balance(alice.user_id)).tc_all).toBe(10_000 - 2 * price);
    const plays = await t.server.store().query('SELECT play_id FROM plays WHERE user_id = $1', [alice.user_id]);
    expect(plays).toHaveLength(2);
    await a.current();
    await a.wait(PLAY_TIMINGS.resetMs).holdRight(200).holdBack(200).waitResult().finish();
  });

  it('50 players reserving at once get 50 distinct places; exactly one has the turn', async () => {
    const users = await Promise.all(Array.from({ length: 50 }, () => createTestUser(t, {}, { freeTc: 1_000 })));
    const drivers = users.map((u) => new PlayDriver(t, clock, u));
    const answers = await Promise.all(drivers.map((d) => d.post('v2/play/reserve', { station_id: stationId })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const records = await Promise.all(
      drivers.map(async (d) => {
        d.stationId = stationId;
        await d.poll();
        return d.record!;
      }),
    );
    expect(new Set(records.map((r) => r.reserve_num)).size).toBe(50);
    expect(records.filter((r) => r.reserve_status === 'playTransition')).toHaveLength(1);
    await stationOps(t.server).setStatus(stationId, 'maintenance');
    await stationOps(t.server).setStatus(stationId, 'open');
  });

  it('[R10-1] a confirm, a cancel and a fault at the same instant, 30 times over: no charge without a play, no refund twice', async () => {
    const users = [];
    for (let round = 0; round < 30; round += 1) {
      const u = await createTestUser(t, {}, { freeTc: 10_000 });
      users.push(u);
      const d = new PlayDriver(t, clock, u);
      await d.reserve(stationId);
      const setting = d.record!.station_setting_id;
      const [confirm, cancel, fault] = await Promise.all([
        d.post('v2/play/confirm', { station_id: stationId }),
        d.post('v2/play/reserve_cancel', { shop_id: 1, reserve_cancel: { station_setting_id: setting } }),
        stationOps(t.server).fault(stationId),
      ]);
      // Whatever order the room took them in, each answer is a clean one (no 5xx).
      expect([200, 409]).toContain(confirm.status);
      expect([200, 404, 409]).toContain(cancel.status);
      const plays = await t.server
        .store()
        .query<{ play_id: number; result: string | null; phase: string }>(
          'SELECT play_id, result, phase FROM plays WHERE user_id = $1',
          [u.user_id],
        );
      const balance = (await t.server.services().ledger.balance(u.user_id)).tc_all;
      if (plays.length === 0) expect(balance).toBe(10_000);
      else {
        // The fault came after the confirm: the play was stopped and given back exactly once.
        expect(plays).toEqual([{ play_id: plays[0]!.play_id, result: 'refunded', phase: 'ended' }]);
        expect(fault.refunded_play_id).toBe(plays[0]!.play_id);
        expect(balance).toBe(10_000);
      }
      await stationOps(t.server).setStatus(stationId, 'open');
    }
    for (const u of users) {
      const rows = await t.server.services().ledger.fromRows(u.user_id);
      const balance = await t.server.services().ledger.balance(u.user_id);
      expect(rows.tc_free + rows.tc_toll).toBe(balance.tc_all);
    }
  });

  it('a player cannot reserve twice at once (one place per player, whichever request wins)', async () => {
    const bob = await createTestUser(t, {}, { freeTc: 10_000 });
    const b = new PlayDriver(t, clock, bob);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => b.post('v2/play/reserve', { station_id: stationId })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    await stationOps(t.server).setStatus(stationId, 'maintenance');
    await stationOps(t.server).setStatus(stationId, 'open');
  });
});
