import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killKujiBoxes } from '../support/kuji-kill-campaign';
import { freePort, ServerProcess } from '../support/server-process';

/** `kill -9` of the real server process with kuji boxes in a draw window and in the middle of draws, then a start on the same data. */
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-kuji-kill-'));
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('[R10-1] [R4.4-5] kill -9 with kuji boxes held (issue 41)', () => {
  it('inside a draw window and at the moment of draws: each draw charged and recorded exactly once, its request id answering that draw after the restart; each line intact', async () => {
    server = new ServerProcess(await freePort(), dataDir);
    const report = await killKujiBoxes(server, dataDir, 'kujikill');
    console.info('kuji kill -9 campaign', JSON.stringify(report, null, 1));
    // Killed inside the confirm window: the holder still holds the box, the window from the same
    // instant; the player behind keeps place 2; the draw's request id answers the same draw.
    expect(report.window).toEqual({ status: 'confirm', playAtKept: true, lineIntact: true, replayed: true });
    for (const round of report.rounds) {
      // Whatever landed before the kill stays; a draw answered before it is the same draw after.
      expect(round, `killed after ${round.killAfterMs} ms`).toMatchObject({ changedAnswers: 0, lineIntact: true });
      expect(round.landedBefore).toBeGreaterThanOrEqual(round.answeredBefore);
      expect(round.landedBefore).toBeLessThanOrEqual(round.sent);
    }
    expect(report).toMatchObject({ badDraws: 0, doubleDraws: 0, doubleTickets: 0, ledgerMismatches: 0 });
  }, 180_000);
});
