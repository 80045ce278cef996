import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killInEveryPhase } from '../support/kill-campaign';
import { freePort, ServerProcess } from '../support/server-process';

/**
 * `kill -9` of the real server process with a station in every phase of the turn, then a start on
 * the same data. The stations are driven by the demo's reference agent, a process of its own that
 * outlives the kill and dials the restarted server.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-kill-'));
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('[R10-1] kill -9 in each phase of the turn', () => {
  it('turn offered, resetting, playing, away, result: each play resumed exactly once (charged once, never refunded), each line intact', async () => {
    server = new ServerProcess(await freePort(), dataDir, {}, undefined, { agent: true });
    const report = await killInEveryPhase(server, dataDir, 'kill');
    console.info('kill -9 campaign', JSON.stringify(report, null, 1));
    // The continue window is an instant in the store: still open, or over with the turn ended.
    const result = { open: 'result', lapsed: 'none', lapsing: expect.stringMatching(/^(result|none)$/) };
    // The confirm window (15 s from the offer) runs on too: a restart that outlasts it passes the
    // turn on, and the player seen just after the restart may still hold it or no longer.
    const offered =
      report.outcomes[0]!.window === 'open'
        ? 'playTransition'
        : expect.stringMatching(/^(playTransition|cancel|none)$/);
    expect(report.outcomes.map((o) => [o.phase, o.afterRestart])).toEqual([
      ['turnOffered', offered],
      // The machine took the start (or takes it again once its agent is back): the reset ends, the player gone.
      ['resetting', expect.stringMatching(/^(resetting|playing|away)$/)],
      // The process took the player's connection with it: the running play waits in its grace window.
      ['playing', 'away'],
      ['away', 'away'],
      ['result', result[report.outcomes[4]!.window!]],
    ]);
    for (const outcome of report.outcomes) {
      // An offer that lapsed while the process was down: no play, nothing charged, the next one offered.
      const plays = outcome.phase === 'turnOffered' && outcome.window === 'lapsed' ? 0 : 1;
      expect(outcome, outcome.phase).toMatchObject({ resumed: true, plays, charges: plays, refunds: 0 });
      if (outcome.lineIntact !== null) expect(outcome.lineIntact, outcome.phase).toBe(true);
    }
    expect(report.ledgerMismatches).toBe(0);
  }, 180_000);
});
