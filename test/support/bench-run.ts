import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';

/*
 * Runs a bench script at its smallest size the way `npm run bench:x -- <args>` runs it (issue 46,
 * "benchmarks that cannot rot"): a child process in a process group and a TMPDIR of its own (the
 * bench's stores, agent folders, nginx's and PostgreSQL's files, Chromium's profile), removed after
 * it; a run over its time is killed with its whole group, and any process still using its folder (a
 * daemon of its own group) too. Used by test/bench/bench-smoke.test.ts (the unit phase) and
 * test/serial/built-bench-smoke.test.ts (after the build: the benches that load the built app).
 */
export const ROOT = process.cwd();
const TSX = join(ROOT, 'node_modules/.bin/tsx');

export interface BenchRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
  readonly seconds: number;
  readonly timedOut: boolean;
}

/** What each run took, printed after the file's tests (docs/performance.md lists them). */
const times: string[] = [];
/** Call once at a smoke file's top: prints what each of its runs took when its tests end. */
export function printRunTimesAfterAll(): void {
  afterAll(() => {
    if (times.length > 0) console.log(`bench smoke runs:\n${times.splice(0).join('\n')}`);
  });
}

/** Processes whose command line names `dir` (a daemon started in its own process group). */
function processesUsing(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dir)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone
  }
}

/** Runs `command args` in a process group of its own with a TMPDIR of its own; kills it all after `timeoutMs`. */
export async function runBench(
  name: string,
  command: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<BenchRun> {
  // Short: PostgreSQL's socket lives in a folder under it (at most 107 bytes for the path).
  const tmp = mkdtempSync(join(tmpdir(), 'onkure-smoke-'));
  // PostgreSQL runs as `postgres` when this is root: its folder inside must be reachable.
  chmodSync(tmp, 0o755);
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: tmp, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid!);
  }, timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  // Whatever it left: its group, and daemons of their own group working in its folder.
  killGroup(child.pid!);
  for (const pid of processesUsing(tmp)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(tmp, { recursive: true, force: true });
  times.push(`  ${name.padEnd(18)} ${seconds.toFixed(1).padStart(5)} s${timedOut ? ' (killed: over its time)' : ''}`);
  return { code, signal, output, seconds, timedOut };
}

/** The run ended well and printed every line `expected` names. */
export function expectRan(run: BenchRun, expected: readonly RegExp[]): void {
  const said = `exit ${run.code ?? run.signal}${run.timedOut ? ' (killed: over its time)' : ''} after ${run.seconds.toFixed(1)} s:\n${run.output}`;
  expect(run.timedOut, said).toBe(false);
  expect(run.code, said).toBe(0);
  for (const line of expected) expect(run.output, said).toMatch(line);
}

export const tsx = (name: string, script: string, args: readonly string[], timeoutMs: number) =>
  runBench(name, TSX, [script, ...args], timeoutMs);
