import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  KUJI_REMAIN_MAX_SECONDS,
  kujiListResponseSchema,
  kujiReserveResponseSchema,
  type PushMessage,
} from '../../src/contract';
import type { KujiBoxEvents } from '../../server/kuji/kuji-kind';
import { kujiLineClient, restartedKujiRooms } from '../support/kuji-line-client';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

let t: TestServer;
const clock = new ManualServerClock(new Date());
let boxes: { kuji_id: number; box_id: number }[] = [];

/** What the kuji box rooms told the world, in order. */
const events: { kind: keyof KujiBoxEvents; args: unknown[] }[] = [];
const recorder: KujiBoxEvents = {
  kujiLineChanged: (...args) => void events.push({ kind: 'kujiLineChanged', args }),
  kujiBoxEnded: (...args) => void events.push({ kind: 'kujiBoxEnded', args }),
  push: (...args) => void events.push({ kind: 'push', args }),
};
const pushesTo = (userId: number) =>
  events.filter((e) => e.kind === 'push' && e.args[0] === userId).map((e) => e.args[1] as PushMessage);

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock });
  t.server.services().setKujiEvents(recorder);
  const kuji = kujiListResponseSchema.parse((await post('contents/kuji', { type: 1 })).json()).list;
  boxes = kuji.flatMap((k) =>
    k.boxes.filter((b) => b.box_status === 'onSale').map((b) => ({ kuji_id: k.kuji_id, box_id: b.box_id })),
  );
});
afterAll(async () => t?.close());
beforeEach(() => {
  events.length = 0;
});

const { post, as, reserve, poll } = kujiLineClient(() => t);
/** Lets the boxes' rooms finish what their events and timers queued (expiry, hand-over, re-arming). */
const settle = () => t.server.services().rooms.idle();

describe('the kuji line: server-held windows (issue 12)', () => {
  it('[R4.4-5] a holder who does not draw within the firstReserved window loses the box; the next in line holds it at once, with a push and a line change', async () => {
    const b = boxes[0]!;
    const alice = await createTestUser(t, {}, { freeTc: 10_000 });
    const bob = await createTestUser(t, {}, { freeTc: 10_000 });
    const a = await reserve(alice, b);
    const bb = await reserve(bob, b);
    expect([a.reserve_status, bb.reserve_status]).toEqual(['firstReserved', 'reserve']);
    expect((await poll(bob, bb)).reserve_num).toBe(2);
    await settle();
    events.length = 0;

    clock.advance(KUJI_REMAIN_MAX_SECONDS.firstReserved * 1000 - 1);
    await settle();
    expect((await poll(alice, a)).reserve_status).toBe('firstReserved');
    expect(events).toEqual([]);

    clock.advance(1);
    await settle();
    expect((await poll(alice, a)).reserve_status).toBe('end');
    const now = await poll(bob, bb);
    expect(now).toMatchObject({
      reserve_status: 'firstReserved',
      reserve_num: 1,
      reserve_remaintime: KUJI_REMAIN_MAX_SECONDS.firstReserved,
    });
    expect(events).toContainEqual({ kind: 'kujiLineChanged', args: [b.kuji_id, b.box_id] });
    expect(pushesTo(bob.user_id)).toEqual([
      expect.objectContaining({ kind: 'turnNow', kuji_id: b.kuji_id, box_id: b.box_id, title: 'くじの順番が来ました' }),
    ]);
    expect(pushesTo(alice.user_id)).toEqual([]);

    // Bob draws once: his confirm window (180 s) starts then, and lapses in turn.
    const drew = await post(
      'play/kuji_draw',
      as(bob, {
        reserve_token: bb.reserve_token,
        kuji_id: b.kuji_id,
        box_id: b.box_id,
        count: 1,
        request_id: 'line-test-bob-1',
      }),
    );
    expect(drew.statusCode).toBe(200);
    await settle();
    clock.advance(KUJI_REMAIN_MAX_SECONDS.firstReserved * 1000 + 1);
    await settle();
    expect((await poll(bob, bb)).reserve_status).toBe('confirm');
    clock.advance((KUJI_REMAIN_MAX_SECONDS.confirm - KUJI_REMAIN_MAX_SECONDS.firstReserved) * 1000);
    await settle();
    expect((await poll(bob, bb)).reserve_status).toBe('end');
  });

  it('a holder who cancels hands the box to the next in line with a push', async () => {
    const b = boxes[1]!;
    const carol = await createTestUser(t, {}, { freeTc: 10_000 });
    const dave = await createTestUser(t, {}, { freeTc: 10_000 });
    const c = await reserve(carol, b);
    const d = await reserve(dave, b);
    events.length = 0;
    await post(
      'play/kuji_reserve_cancel',
      as(carol, { reserve_token: c.reserve_token, kuji_id: b.kuji_id, box_id: b.box_id }),
    );
    expect((await poll(dave, d)).reserve_status).toBe('firstReserved');
    expect(pushesTo(dave.user_id)).toHaveLength(1);
    expect(events).toContainEqual({ kind: 'kujiLineChanged', args: [b.kuji_id, b.box_id] });
  });

  it('a restart re-arms the windows from the store: a window that lapsed while the server was down ends at start', async () => {
    const b = boxes[2]!;
    const erin = await createTestUser(t, {}, { freeTc: 10_000 });
    const frank = await createTestUser(t, {}, { freeTc: 10_000 });
    const e = await reserve(erin, b);
    const f = await reserve(frank, b);
    // The rooms stop (as a stopped server's would), the window lapses, then the boxes' rooms start
    // again from the store alone, as at a restart.
    await t.server.services().rooms.close();
    clock.advance(KUJI_REMAIN_MAX_SECONDS.firstReserved * 1000 + 5_000);
    expect((await poll(erin, e)).reserve_status).toBe('firstReserved');
    const fresh = restartedKujiRooms(t, clock, recorder);
    await fresh.start();
    expect((await poll(erin, e)).reserve_status).toBe('end');
    expect((await poll(frank, f)).reserve_status).toBe('firstReserved');
    expect(pushesTo(frank.user_id)).toEqual([expect.objectContaining({ kind: 'turnNow', box_id: b.box_id })]);
    await fresh.close();
  });

  it("[R4.4-5] the windows are configuration: KUJI_FIRST_RESERVED_SECONDS sets the holder's first window; a bad value stops the start with a clear message", async () => {
    const { readServerConfig } = await import('../../server/config');
    expect(() => readServerConfig({ KUJI_FIRST_RESERVED_SECONDS: '2' })).toThrow(
      /KUJI_FIRST_RESERVED_SECONDS and KUJI_CONFIRM_SECONDS must be whole seconds from 5 to 3600/,
    );
    const short = await startTestServer({ inMemory: true, env: { KUJI_FIRST_RESERVED_SECONDS: '12' } });
    try {
      const u = await createTestUser(short, {}, { freeTc: 1_000 });
      const [b] = await short.server
        .store()
        .query<{ kuji_id: number; box_id: number }>(
          `SELECT kuji_id, box_id FROM kuji_boxes WHERE box_status = 'onSale' ORDER BY box_id LIMIT 1`,
        );
      const res = await short.server.app.inject({
        method: 'POST',
        url: '/api/play/kuji_reserve',
        payload: { user_id: u.user_id, access_token: u.access_token, ...b },
      });
      expect(kujiReserveResponseSchema.parse(res.json()).play_info).toMatchObject({
        reserve_status: 'firstReserved',
        reserve_remaintime: 12,
      });
    } finally {
      await short.close();
    }
  });
});
