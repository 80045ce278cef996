import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KujiBoxPlay, TOKENS, type KujiPlayPort, type SessionPort } from '../../src/application';
import { KUJI_TIME_LIMITS, reservePollingIntervalMs, verifyKujiBox, type KujiPlayInfo } from '../../src/domain';
import { createAppContainer } from '../../src/main/container';
import { anIdentity, FakeRealtime, ManualClock, ScriptedKujiPlay, ScriptedPrizeCatalog, aKujiOnSale, FakeSession } from '../../src/testing';
import { injectFetch } from '../support/inject-fetch';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((r) => setImmediate(r));
};

describe('KujiBoxPlay against the reference server (real ky adapters, in-process)', () => {
  let t: TestServer;
  const serverClock = new ManualServerClock(new Date());
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true, clock: serverClock });
  });
  afterAll(async () => t?.close());

  async function player(realtime: FakeRealtime) {
    const user = await createTestUser(t, {}, { freeTc: 100_000 });
    const clock = new ManualClock(serverClock.now().getTime());
    const container = createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, timeoutMs: 10_000 }, [[TOKENS.RealtimePort, realtime], [TOKENS.ClockPort, clock]], {
      storage: null, cookies: () => '', navigator: { reload: () => undefined, goTo: () => undefined }, fetch: injectFetch(t.server.app),
    });
    container.get<SessionPort>(TOKENS.SessionPort).signIn(user);
    return { user, clock, kuji: container.get<KujiBoxPlay>(TOKENS.KujiBoxPlay) };
  }

  it('[R4.4-1] [R4.4-5] A holds and draws, B waits and sees its place change by push; A\'s window lapses and B becomes the holder', async () => {
    const realtime = new FakeRealtime();
    const a = await player(realtime);
    const b = await player(realtime);
    const [box] = await t.server.store().query<{ kuji_id: number; box_id: number }>(`SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' ORDER BY box_id LIMIT 1`);
    await a.kuji.open(box!.kuji_id, box!.box_id);
    await b.kuji.open(box!.kuji_id, box!.box_id);
    expect(a.kuji.snapshot).toMatchObject({ phase: 'ready', playInfo: null, showQueue: false });
    const before = a.kuji.snapshot.box!.remaining_count;

    await a.kuji.reserve();
    expect(a.kuji.snapshot).toMatchObject({ showQueue: true, remainingSeconds: KUJI_TIME_LIMITS.firstReserved, playInfo: { reserve_status: 'firstReserved', reserve_num: 1 } });
    await b.kuji.reserve();
    expect(b.kuji.snapshot).toMatchObject({ showQueue: false, playInfo: { reserve_status: 'reserve', reserve_num: 2 } });

    await a.kuji.draw(3);
    expect(a.kuji.snapshot.lastDraw?.tickets).toHaveLength(3);
    expect(a.kuji.snapshot).toMatchObject({ revealing: true, playInfo: { reserve_status: 'confirm' }, remainingSeconds: KUJI_TIME_LIMITS.confirm });
    expect(a.kuji.snapshot.box!.remaining_count).toBe(before - 3);
    a.kuji.skipReveal();
    expect(a.kuji.snapshot.revealing).toBe(false);

    // A's confirm window lapses on the server; the box channel says the line changed; B polls at once.
    serverClock.advance(KUJI_TIME_LIMITS.confirm * 1000);
    await t.server.services().kujiLine.changed();
    realtime.emit({ kind: 'kujiBox', kujiId: box!.kuji_id, boxId: box!.box_id }, { type: 'kujiReserveChange', kujiId: box!.kuji_id, boxId: box!.box_id });
    await flush();
    expect(b.kuji.snapshot).toMatchObject({ showQueue: true, playInfo: { reserve_status: 'firstReserved', reserve_num: 1 } });
    // A learns its reservation ended at its next poll: polling stops and resets, no alert [R4.4-4].
    a.clock.advance(reservePollingIntervalMs());
    await flush();
    expect(a.kuji.snapshot).toMatchObject({ playInfo: null, showQueue: false, alert: null });
    a.kuji.dispose();
    b.kuji.dispose();
  });

  it('[R4.4-2] a box emptied by A ends B\'s line with the box-ended alert; the published seed checks every draw', async () => {
    const realtime = new FakeRealtime();
    const a = await player(realtime);
    const b = await player(realtime);
    const [box] = await t.server.store().query<{ kuji_id: number; box_id: number }>(`SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' ORDER BY box_id OFFSET 1 LIMIT 1`);
    await a.kuji.open(box!.kuji_id, box!.box_id);
    await b.kuji.open(box!.kuji_id, box!.box_id);
    await a.kuji.reserve();
    await b.kuji.reserve();
    await a.kuji.draw('all');
    expect(a.kuji.snapshot.lastDraw?.last_one).not.toBeNull();
    expect(a.kuji.snapshot).toMatchObject({ playInfo: null, alert: null, box: { box_status: 'outOfStock', remaining_count: 0 } });
    realtime.emit({ kind: 'kujiBox', kujiId: box!.kuji_id, boxId: box!.box_id }, { type: 'playEnd', kujiId: box!.kuji_id, boxId: box!.box_id });
    await flush();
    expect(b.kuji.snapshot).toMatchObject({ playInfo: null, alert: { kind: 'kujiBoxEnded' } });

    const container = createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase }, [], { storage: null, cookies: () => '', navigator: { reload: () => undefined, goTo: () => undefined }, fetch: injectFetch(t.server.app) });
    const fairness = await firstValueFrom(container.get<KujiPlayPort>(TOKENS.KujiPlayPort).kujiFairness(box!.box_id));
    expect(verifyKujiBox({ boxId: box!.box_id, seed: fairness.seed!, commitment: fairness.commitment, stock: fairness.stock, draws: fairness.draws }).ok).toBe(true);
    a.kuji.dispose();
    b.kuji.dispose();
  });
});

describe('KujiBoxPlay over scripted doubles', () => {
  it('[R4.4-3] a poll answer without a box shows the reserve-not-found alert and stops polling and the countdown', async () => {
    const info: KujiPlayInfo = {
      reserve_polling_id: 1, kuji_play_reserve_id: 1, reserve_token: 'tok-0123456789abcdef', reserve_num: 1, reserve_status: 'firstReserved',
      kuji_id: 1, box_id: 1, box_status: 'onSale', reserve_remaintime: 60, play_at: '2026-11-23T12:00:00Z',
    };
    const kujiPlay = new ScriptedKujiPlay().always('currentKujiReservation', info).always('pollKuji', { ...info, box_id: null });
    const catalog = new ScriptedPrizeCatalog().always('kujiOnSale', [aKujiOnSale()]);
    const clock = new ManualClock(Date.parse('2026-11-23T12:00:05Z'));
    const kuji = new KujiBoxPlay(kujiPlay.port, catalog.port, new FakeRealtime(), new FakeSession(anIdentity()), clock);
    await kuji.open(1, 1);
    expect(kuji.snapshot).toMatchObject({ showQueue: true, remainingSeconds: 55 });
    clock.advance(reservePollingIntervalMs());
    await flush();
    expect(kuji.snapshot).toMatchObject({ playInfo: null, showQueue: false, alert: { kind: 'kujiReserveNotFound' } });
    expect(clock.pendingTimers).toBe(0);
    kuji.dispose();
  });
});
