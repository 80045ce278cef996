import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * No server outlives the test run (issue 46): a server a test starts (test/support/server-process.ts)
 * stops when the process that started it ends, however it ends — here that process is killed with
 * SIGKILL, as a test worker torn down mid-run would be, and no shutdown code of its runs.
 */
const left: number[] = [];
// The server's clips folder, the test's own: the starter killed with SIGKILL cannot remove the one
// a ServerProcess makes itself.
const clips = mkdtempSync(join(tmpdir(), 'onkure-exit-clips-'));
afterAll(() => {
  rmSync(clips, { recursive: true, force: true });
  for (const pid of left) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a server started by a test', () => {
  it('stops when the process that started it is killed (SIGKILL): its stdin pipe closes and it exits', async () => {
    // A stand-in for a test worker: it starts a server the usual way, says which, and waits.
    const starter = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { freePort, ServerProcess } from './test/support/server-process.ts';
         const server = new ServerProcess(await freePort(), ':memory:', { CLIPS_DIR: ${JSON.stringify(clips)} });
         await server.start();
         console.log(JSON.stringify({ port: server.port, pid: server.pid }));
         setInterval(() => undefined, 60_000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const started = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
      let out = '';
      starter.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line) as { port: number; pid: number });
      });
      starter.once('exit', (code) => reject(new Error(`the starter ended (${code}) before its server answered`)));
    });
    left.push(started.pid);
    expect((await fetch(`http://127.0.0.1:${started.port}/healthz`)).status).toBe(200);
    starter.kill('SIGKILL');
    // The server goes within seconds (its in-memory store closing), not at some later reaping.
    await expect.poll(() => alive(started.pid), { timeout: 15_000, interval: 100 }).toBe(false);
    await expect(fetch(`http://127.0.0.1:${started.port}/healthz`)).rejects.toThrow();
  }, 120_000);
});
