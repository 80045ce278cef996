import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { SERVER_NODE_OPTIONS } from '../scripts/server-process.mjs';

/* Small helpers the bench scripts share. */

/**
 * The command that runs bench/feed-server.ts (server/main.ts under another name) with the server's
 * own Node options, as `npm start` runs it, and `extra` (a CPU profile's options).
 */
export const feedServerCommand = (extra: readonly string[] = []): string[] => [
  process.execPath,
  ...SERVER_NODE_OPTIONS,
  ...extra,
  '--import',
  'tsx',
  join(process.cwd(), 'bench/feed-server.ts'),
];

export const now = () => performance.timeOrigin + performance.now();
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The p-th percentile, nearest rank: the smallest value at least p % of the values do not exceed. */
export const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
export const fmt = (n: number, width = 6) => (Number.isNaN(n) ? '—' : n.toFixed(1)).padStart(width);

/** CPU seconds (user + system) a process used so far, from /proc; 0 once it is gone. */
/** CPU seconds of a process and all its descendants alive now (Linux /proc). */
export function treeCpuSeconds(pid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    children = [];
  }
  return cpuSeconds(pid) + children.reduce((sum, child) => sum + treeCpuSeconds(child), 0);
}

export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}
