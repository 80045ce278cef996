import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUJI_REMAIN_MAX_SECONDS, kujiListResponseSchema, type KujiPlayInfo } from '../../src/contract';
import type { KujiBoxStore } from '../../server/kuji/kuji-box-store';
import { kujiLineClient } from '../support/kuji-line-client';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/**
 * Two kuji boxes share nothing but the store: a write of one box that hangs (a slow disk, a locked
 * row on PostgreSQL) holds up neither another box's draw nor another box's hand-over. The hang is a
 * gate the test opens, not a timer, so the order is certain; the other box's answer time is measured.
 */
const clock = new ManualServerClock(new Date());
let t: TestServer;
/** The box whose draws and writes wait for `release`, and the gate itself. */
const hang = { boxId: 0, held: 0, release: (): void => undefined };
let gate: Promise<void> = Promise.resolve();

function hanging(inner: KujiBoxStore): KujiBoxStore {
  const wait = async (boxId: number) => {
    if (boxId !== hang.boxId) return;
    hang.held += 1;
    await gate;
  };
  return {
    loadBoxes: (ids) => inner.loadBoxes(ids),
    commit: async (id, writes) => {
      await wait(id);
      return inner.commit(id, writes);
    },
    addToLine: (id, join) => inner.addToLine(id, join),
    findDraw: (request) => inner.findDraw(request),
    draw: async (id, draw) => {
      await wait(id);
      return inner.draw(id, draw);
    },
    setStock: (id, prizes) => inner.setStock(id, prizes),
  };
}

let boxes: { kuji_id: number; box_id: number }[] = [];
beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, kujiStore: hanging });
  const kuji = kujiListResponseSchema.parse((await post('contents/kuji', { type: 1 })).json()).list;
  boxes = kuji.flatMap((k) =>
    k.boxes.filter((b) => b.box_status === 'onSale').map((b) => ({ kuji_id: k.kuji_id, box_id: b.box_id })),
  );
});
afterAll(async () => t?.close());

const { post, reserve, poll, draw: drawOf } = kujiLineClient(() => t);
const status = async (u: TestUser, info: KujiPlayInfo) => (await poll(u, info)).reserve_status;
const draw = (u: TestUser, info: KujiPlayInfo, requestId: string) => drawOf(u, info, 1, requestId);

describe('[R10-1] kuji boxes are independent rooms (issue 41)', () => {
  it("[R4.4-5] one box's draw hanging in the store delays neither another box's draw nor its hand-over when its holder's window lapses (measured)", async () => {
    const [a, b] = [boxes[0]!, boxes[1]!];
    const players = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t, {}, { freeTc: 10_000 })));
    const [alice, bob, carol, dave] = players as [TestUser, TestUser, TestUser, TestUser];
    const ai = await reserve(alice, a);
    const bi = await reserve(bob, a);
    const ci = await reserve(carol, b);
    const di = await reserve(dave, b);
    expect([ai, bi, ci, di].map((i) => i.reserve_status)).toEqual([
      'firstReserved',
      'reserve',
      'firstReserved',
      'reserve',
    ]);

    // Box A's writes hang from now on: Alice's draw there waits on the store.
    gate = new Promise((resolve) => (hang.release = resolve));
    hang.boxId = a.box_id;
    let aliceAnswered = false;
    const aliceDraw = draw(alice, ai, 'independence-alice-1').then((answer) => {
      aliceAnswered = true;
      return answer;
    });
    await expect.poll(() => hang.held).toBe(1);

    // Box B meanwhile: Carol draws, answered at once.
    let started = performance.now();
    const carolDraw = await draw(carol, ci, 'independence-carol-1');
    const drawMs = performance.now() - started;
    expect(carolDraw.statusCode).toBe(200);
    expect(aliceAnswered).toBe(false);

    // Carol's confirm window lapses: box B goes to Dave by its own timer while box A still hangs.
    started = performance.now();
    clock.advance(KUJI_REMAIN_MAX_SECONDS.confirm * 1000);
    await expect.poll(() => status(dave, di)).toBe('firstReserved');
    const handOverMs = performance.now() - started;
    expect(await status(carol, ci)).toBe('end');
    expect(aliceAnswered).toBe(false);
    console.info(
      `kuji box B: a draw answered in ${drawMs.toFixed(1)} ms and a hand-over done in ${handOverMs.toFixed(1)} ms while box A's draw hung`,
    );
    expect(drawMs).toBeLessThan(1000);

    // Box A's store answers again: Alice's draw lands (charged once), then box A's own timer,
    // queued behind it, catches up: her new window lapsed meanwhile, and Bob holds the box.
    hang.release();
    hang.boxId = 0;
    expect((await aliceDraw).statusCode).toBe(200);
    await t.server.services().rooms.idle();
    expect((await t.server.services().ledger.balance(alice.user_id)).tc_all).toBeLessThan(10_000);
    expect(await status(alice, ai)).toBe('end');
    expect(await status(bob, bi)).toBe('firstReserved');
  });
});
