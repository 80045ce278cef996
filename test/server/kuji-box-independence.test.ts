import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUJI_REMAIN_MAX_SECONDS, kujiListResponseSchema, type KujiPlayInfo } from '../../src/contract';
import { KujiLine } from '../../server/kuji/kuji-line';
import type { Store } from '../../server/store/store';
import { kujiLineClient } from '../support/kuji-line-client';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

let t: TestServer;
const clock = new ManualServerClock(new Date());
let boxes: { kuji_id: number; box_id: number }[] = [];

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock });
  const kuji = kujiListResponseSchema.parse((await post('contents/kuji', { type: 1 })).json()).list;
  boxes = kuji.flatMap((k) =>
    k.boxes.filter((b) => b.box_status === 'onSale').map((b) => ({ kuji_id: k.kuji_id, box_id: b.box_id })),
  );
});
afterAll(async () => t?.close());

const { post, reserve, poll } = kujiLineClient(() => t);
const status = async (u: TestUser, info: KujiPlayInfo) => (await poll(u, info)).reserve_status;

/** The store, except that reads naming `boxId` outside a transaction wait until `open()`. */
function gatedStore(store: Store, boxId: number) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let held = 0;
  const gated: Store = {
    ...store,
    query: async (sql, params) => {
      if (params?.[0] === boxId && sql.includes('kuji_reservations')) {
        held += 1;
        await gate;
      }
      return store.query(sql, params);
    },
    transaction: (work) => store.transaction(work),
  };
  return { gated, open: () => open(), held: () => held };
}

describe('kuji box lines are independent (issue 21)', () => {
  it("[R10-1] [R4.4-5] one box's store write hanging does not delay another box: its lapsed holder's box goes to the next in line while the first box still waits", async () => {
    const [a, b] = [boxes[0]!, boxes[1]!];
    const players = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t, {}, { freeTc: 10_000 })));
    const [alice, bob, carol, dave] = players as [TestUser, TestUser, TestUser, TestUser];
    const ai = await reserve(alice, a);
    const bi = await reserve(bob, a);
    const ci = await reserve(carol, b);
    const di = await reserve(dave, b);
    // Only this test's line runs, over a store whose reads for box A hang.
    t.server.services().kujiLine.close();
    const { gated, open, held } = gatedStore(t.server.store(), a.box_id);
    const line = new KujiLine(gated, clock);
    const boxA = line.changed(a.box_id); // hangs in box A's own queue
    await line.changed(b.box_id);
    // Box A's read reaches the gate on its own time (on PostgreSQL, after box B's whole step at times).
    await expect.poll(held).toBeGreaterThan(0);
    // Both windows lapse; box B's timer hands B over although box A is still stuck.
    clock.advance(KUJI_REMAIN_MAX_SECONDS.firstReserved * 1000 + 1_000);
    const started = performance.now();
    await line.changed(b.box_id);
    const ms = performance.now() - started;
    expect(await status(carol, ci)).toBe('end');
    expect(await status(dave, di)).toBe('firstReserved');
    expect(await status(alice, ai)).toBe('firstReserved'); // box A: not yet checked
    console.info(`kuji box B handed over in ${ms.toFixed(1)} ms while box A's store read hung`);
    // Box A's store answers again: its holder lapses and Bob holds it.
    open();
    await boxA;
    await line.changed(a.box_id);
    expect(await status(alice, ai)).toBe('end');
    expect(await status(bob, bi)).toBe('firstReserved');
    line.close();
  });
});
