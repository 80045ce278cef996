import { firstValueFrom, Subject, take } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KujiBoxPlay, TOKENS, type KujiPlayPort, type SessionPort } from '../../src/application';
import {
  KUJI_TIME_LIMITS,
  reservePollingIntervalMs,
  verifyKujiBox,
  type KujiDrawResult,
  type KujiPlayInfo,
} from '../../src/domain';
import { createAppContainer } from '../../src/main/container';
import {
  anIdentity,
  FakeRealtime,
  ManualClock,
  ScriptedKujiPlay,
  ScriptedPrizeCatalog,
  aKujiOnSale,
  FakeSession,
} from '../../src/testing';
import { injectFetch } from '../support/inject-fetch';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((r) => setImmediate(r));
};

/** A signed-in player's KujiBoxPlay from the app's container, over the server in-process, on `clock`. */
async function signedInPlayer(server: TestServer, clock: ManualClock, realtime = new FakeRealtime()) {
  const user = await createTestUser(server, {}, { freeTc: 100_000 });
  const container = createAppContainer(
    { ...TEST_CLIENT_CONFIG, apiBase: server.apiBase, timeoutMs: 10_000 },
    [
      [TOKENS.RealtimePort, realtime],
      [TOKENS.ClockPort, clock],
    ],
    {
      storage: null,
      cookies: () => '',
      navigator: { reload: () => undefined, goTo: () => undefined },
      fetch: injectFetch(server.server.app),
    },
  );
  container.get<SessionPort>(TOKENS.SessionPort).signIn(user);
  return { user, clock, kuji: container.get<KujiBoxPlay>(TOKENS.KujiBoxPlay) };
}

describe('KujiBoxPlay against the reference server (real ky adapters, in-process)', () => {
  let t: TestServer;
  const serverClock = new ManualServerClock(new Date());
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true, clock: serverClock });
  });
  afterAll(async () => t?.close());

  const player = (realtime: FakeRealtime) => signedInPlayer(t, new ManualClock(serverClock.now().getTime()), realtime);

  it("[R4.4-1] [R4.4-5] A holds and draws, B waits and sees its place change by push; A's window lapses and B becomes the holder", async () => {
    const realtime = new FakeRealtime();
    const a = await player(realtime);
    const b = await player(realtime);
    const [box] = await t.server
      .store()
      .query<{ kuji_id: number; box_id: number }>(
        `SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' ORDER BY box_id LIMIT 1`,
      );
    await a.kuji.open(box!.kuji_id, box!.box_id);
    await b.kuji.open(box!.kuji_id, box!.box_id);
    expect(a.kuji.snapshot).toMatchObject({ phase: 'ready', playInfo: null, showQueue: false });
    const before = a.kuji.snapshot.box!.remaining_count;

    await a.kuji.reserve();
    expect(a.kuji.snapshot).toMatchObject({
      showQueue: true,
      remainingSeconds: KUJI_TIME_LIMITS.firstReserved,
      receivedAt: a.clock.now(),
      playInfo: { reserve_status: 'firstReserved', reserve_num: 1 },
    });
    await b.kuji.reserve();
    expect(b.kuji.snapshot).toMatchObject({
      showQueue: false,
      playInfo: { reserve_status: 'reserve', reserve_num: 2 },
    });

    await a.kuji.draw(3);
    expect(a.kuji.snapshot.lastDraw?.tickets).toHaveLength(3);
    expect(a.kuji.snapshot).toMatchObject({
      revealing: true,
      playInfo: { reserve_status: 'confirm' },
      remainingSeconds: KUJI_TIME_LIMITS.confirm,
    });
    expect(a.kuji.snapshot.box!.remaining_count).toBe(before - 3);
    a.kuji.skipReveal();
    expect(a.kuji.snapshot.revealing).toBe(false);

    // A's confirm window lapses on the server; the box channel says the line changed; B polls at once.
    serverClock.advance(KUJI_TIME_LIMITS.confirm * 1000);
    await t.server.services().rooms.idle();
    realtime.emit(
      { kind: 'kujiBox', kujiId: box!.kuji_id, boxId: box!.box_id },
      { type: 'kujiReserveChange', kujiId: box!.kuji_id, boxId: box!.box_id },
    );
    await flush();
    expect(b.kuji.snapshot).toMatchObject({
      showQueue: true,
      playInfo: { reserve_status: 'firstReserved', reserve_num: 1 },
    });
    // A learns its reservation ended at its next poll: polling stops and resets, no alert [R4.4-4].
    a.clock.advance(reservePollingIntervalMs());
    await flush();
    expect(a.kuji.snapshot).toMatchObject({ playInfo: null, showQueue: false, alert: null });
    a.kuji.dispose();
    b.kuji.dispose();
  });

  it("[R4.4-2] a box emptied by A ends B's line with the box-ended alert; the published seed checks every draw", async () => {
    const realtime = new FakeRealtime();
    const a = await player(realtime);
    const b = await player(realtime);
    const [box] = await t.server
      .store()
      .query<{ kuji_id: number; box_id: number }>(
        `SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' ORDER BY box_id OFFSET 1 LIMIT 1`,
      );
    await a.kuji.open(box!.kuji_id, box!.box_id);
    await b.kuji.open(box!.kuji_id, box!.box_id);
    await a.kuji.reserve();
    await b.kuji.reserve();
    await a.kuji.draw('all');
    expect(a.kuji.snapshot.lastDraw?.last_one).not.toBeNull();
    expect(a.kuji.snapshot).toMatchObject({
      playInfo: null,
      alert: null,
      box: { box_status: 'outOfStock', remaining_count: 0 },
    });
    realtime.emit(
      { kind: 'kujiBox', kujiId: box!.kuji_id, boxId: box!.box_id },
      { type: 'playEnd', kujiId: box!.kuji_id, boxId: box!.box_id },
    );
    await flush();
    expect(b.kuji.snapshot).toMatchObject({ playInfo: null, alert: { kind: 'kujiBoxEnded' } });

    const container = createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase }, [], {
      storage: null,
      cookies: () => '',
      navigator: { reload: () => undefined, goTo: () => undefined },
      fetch: injectFetch(t.server.app),
    });
    const fairness = await firstValueFrom(container.get<KujiPlayPort>(TOKENS.KujiPlayPort).kujiFairness(box!.box_id));
    expect(
      verifyKujiBox({
        boxId: box!.box_id,
        seed: fairness.seed!,
        commitment: fairness.commitment,
        stock: fairness.stock,
        draws: fairness.draws,
      }).ok,
    ).toBe(true);
    a.kuji.dispose();
    b.kuji.dispose();
  });
});

describe('KujiBoxPlay against a server with its own windows', () => {
  it("[R4.4-5] the client has no kuji limits of its own: a server's 12 s first window is the holder's time left", async () => {
    const short = await startTestServer({ inMemory: true, env: { KUJI_FIRST_RESERVED_SECONDS: '12' } });
    try {
      const { kuji, clock } = await signedInPlayer(short, new ManualClock(Date.now()));
      const [box] = await short.server
        .store()
        .query<{ kuji_id: number; box_id: number }>(
          `SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' ORDER BY box_id LIMIT 1`,
        );
      await kuji.open(box!.kuji_id, box!.box_id);
      await kuji.reserve();
      expect(kuji.snapshot).toMatchObject({
        playInfo: { reserve_status: 'firstReserved' },
        remainingSeconds: 12,
        receivedAt: clock.now(),
      });
      kuji.dispose();
    } finally {
      await short.close();
    }
  });
});

/** The scripted port's methods as a plain object, so a test can replace one of them. */
function stubPort(port: KujiPlayPort): KujiPlayPort {
  return {
    currentKujiReservation: () => port.currentKujiReservation(),
    reserveKuji: (b) => port.reserveKuji(b),
    pollKuji: (r) => port.pollKuji(r),
    cancelKujiReservation: (r) => port.cancelKujiReservation(r),
    drawKuji: (r, c, id) => port.drawKuji(r, c, id),
    kujiFairness: (b) => port.kujiFairness(b),
  };
}

describe('KujiBoxPlay over scripted doubles', () => {
  it('[R4.4-3] a poll answer without a box shows the reserve-not-found alert and stops polling and the countdown', async () => {
    const info: KujiPlayInfo = {
      reserve_polling_id: 1,
      kuji_play_reserve_id: 1,
      reserve_token: 'tok-0123456789abcdef',
      reserve_num: 1,
      reserve_status: 'firstReserved',
      kuji_id: 1,
      box_id: 1,
      box_status: 'onSale',
      // What the server answers at 12:00:05 for a 60 s window begun at 12:00:00.
      reserve_remaintime: 55,
      play_at: '2026-11-23T12:00:00Z',
    };
    const kujiPlay = new ScriptedKujiPlay()
      .always('currentKujiReservation', info)
      .always('pollKuji', { ...info, box_id: null });
    const catalog = new ScriptedPrizeCatalog().always('kujiOnSale', [aKujiOnSale()]);
    const clock = new ManualClock(Date.parse('2026-11-23T12:00:05Z'));
    const kuji = new KujiBoxPlay(kujiPlay.port, catalog.port, new FakeRealtime(), new FakeSession(anIdentity()), clock);
    await kuji.open(1, 1);
    expect(kuji.snapshot).toMatchObject({ showQueue: true, remainingSeconds: 55, receivedAt: clock.now() });
    clock.advance(reservePollingIntervalMs());
    await flush();
    expect(kuji.snapshot).toMatchObject({
      playInfo: null,
      showQueue: false,
      remainingSeconds: null,
      alert: { kind: 'kujiReserveNotFound' },
    });
    expect(clock.pendingTimers).toBe(0);
    kuji.dispose();
  });

  it('[R4.4-2] the drawer who sells the box out gets the reveal, not the box-ended alert, even when play_end arrives before the answer', async () => {
    const info: KujiPlayInfo = {
      reserve_polling_id: 1,
      kuji_play_reserve_id: 1,
      reserve_token: 'tok-0123456789abcdef',
      reserve_num: 1,
      reserve_status: 'confirm',
      kuji_id: 1,
      box_id: 1,
      box_status: 'onSale',
      reserve_remaintime: 180,
      play_at: '2026-11-23T12:00:00Z',
    };
    const answer = new Subject<{ draw: KujiDrawResult; playInfo: KujiPlayInfo }>();
    const scripted = new ScriptedKujiPlay().always('currentKujiReservation', info);
    const realtime = new FakeRealtime();
    const port: KujiPlayPort = { ...stubPort(scripted.port), drawKuji: () => answer.pipe(take(1)) };
    const kuji = new KujiBoxPlay(
      port,
      new ScriptedPrizeCatalog().always('kujiOnSale', [aKujiOnSale()]).port,
      realtime,
      new FakeSession(anIdentity()),
      new ManualClock(Date.parse('2026-11-23T12:00:05Z')),
    );
    await kuji.open(1, 1);
    expect(kuji.snapshot.playInfo?.reserve_status).toBe('confirm');
    const drawing = kuji.draw('all');
    realtime.emit({ kind: 'kujiBox', kujiId: 1, boxId: 1 }, { type: 'playEnd', kujiId: 1, boxId: 1 });
    const draw: KujiDrawResult = {
      draw_id: 9,
      kuji_id: 1,
      box_id: 1,
      tickets: [{ position: 0, rank: 'A賞', prize_name: 'A', img_url: '/a.svg' }],
      last_one: { position: null, rank: 'ラストワン賞', prize_name: 'L', img_url: '/l.svg' },
      price_total: 700,
      tc: { tc_all: 0, tc_free: 0, tc_toll: 0 },
      remaining_count: 0,
      box_status: 'outOfStock',
      replayed: 0,
    };
    answer.next({ draw, playInfo: { ...info, reserve_status: 'end', box_status: 'outOfStock' } });
    await drawing;
    expect(kuji.snapshot).toMatchObject({ alert: null, playInfo: null, revealing: true, lastDraw: { draw_id: 9 } });
    kuji.dispose();
  });
});
