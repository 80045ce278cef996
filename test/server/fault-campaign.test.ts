import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disconnectCampaign, faultStorm, type CampaignServer } from '../support/fault-campaign';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The fault campaign against the real server (HTTP and socket.io on a port, the real store and
 * ledger; time on a manual clock): connections dropping at random moments of paid plays, and
 * faults fired at playing stations all at once. `npm run bench:faults` runs the same, bigger.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-fault-campaign-0123';
const clock = new ManualServerClock(new Date('2026-11-24T12:00:00+09:00'));
let t: TestServer;
let s: CampaignServer;

beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true, clock, env: { ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
  s = { server: t.server, origin: t.origin, clock, operatorToken: OPERATOR_TOKEN, settle: t.settle };
});
afterAll(async () => t?.close());

describe('[R10-1] the fault campaign: no paid play is lost or charged twice', () => {
  it('1,000 disconnect/reconnect cycles across paid plays: 0 lost plays, 0 double charges, every ledger the sum of its rows', async () => {
    const run = await disconnectCampaign(s, { players: 12, stations: 4, cycles: 1000, seed: 21 });
    console.info('disconnect campaign', { cycles: run.cycles, steps: run.steps, ...run.audit });
    expect(run.cycles).toBeGreaterThanOrEqual(1000);
    expect(run.audit.plays).toBeGreaterThan(50);
    expect(run.audit).toMatchObject({ lostPlays: 0, doubleCharges: 0, badRefunds: 0, ledgerMismatches: 0 });
  }, 600_000);

  it('50 concurrent fault injections on 10 playing stations: each play refunded exactly once', async () => {
    const run = await faultStorm(s, { stations: 10, faults: 50, seed: 5 });
    console.info('fault storm', { refundedAnswers: run.refundedAnswers, ...run.audit });
    expect(run.refundedAnswers).toBe(10);
    expect(run.audit).toMatchObject({
      plays: 10,
      refunds: 10,
      lostPlays: 0,
      doubleCharges: 0,
      badRefunds: 0,
      ledgerMismatches: 0,
    });
  }, 120_000);
});
