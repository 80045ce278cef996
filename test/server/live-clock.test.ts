import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatEvery } from '../../server/clock';
import { SIGNALING_CLOSE } from '../../server/live/signaling';
import { ManualServerClock } from '../support/manual-server-clock';
import { openSignaling } from '../support/rtc-viewer';
import { startTestServer, type TestServer } from '../support/test-server';

/** The live feed's deadlines run on the server's injected clock, as every other service's do. */
const clock = new ManualServerClock(new Date('2026-11-24T12:00:00+09:00'));
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true, clock });
});
afterAll(async () => t?.close());

describe('the live feed on the injected clock', () => {
  it("a signaling connection that never sends connect is closed (4408) when the server's clock passes its deadline", async () => {
    const { log, closed } = await openSignaling(`${t.origin.replace('http:', 'ws:')}/signaling`, { origin: t.origin });
    clock.advance(4_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.closed).toBeNull();
    clock.advance(1);
    expect(await closed).toEqual({ code: SIGNALING_CLOSE.timeout, reason: 'no connect message in time' });
  });

  it('repeatEvery runs its task at each beat until cancelled', () => {
    const beats: number[] = [];
    const start = clock.now().getTime();
    const task = repeatEvery(clock, 100, () => beats.push(clock.now().getTime() - start));
    clock.advance(350);
    task.cancel();
    clock.advance(500);
    expect(beats).toEqual([100, 200, 300]);
  });
});
