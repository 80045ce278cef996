import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOnkureServer } from '../../server/app';
import { readServerConfig } from '../../server/config';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE } from '../../server/store/data-dir-lock';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'onkure-lock-'));
  dirs.push(d);
  return d;
}
const configFor = (dataDir: string) =>
  readServerConfig({ PORT: '0', DATA_DIR: dataDir, STATIC_DIR: '', LOG_LEVEL: 'silent' });
/** The pid of a process that has already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

describe('one server per DATA_DIR (issue 7 §5.3)', () => {
  it('refuses a second server on the same data directory with a clear message; after close the lock is gone and a new start works', async () => {
    const dataDir = tempDir();
    const first = createOnkureServer(configFor(dataDir), { logger: false });
    await first.ready;
    const owner = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as {
      pid: number;
      host: string;
      startedAt: string;
    };
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    expect(Number.isNaN(Date.parse(owner.startedAt))).toBe(false);
    let refusal: unknown;
    try {
      createOnkureServer(configFor(dataDir), { logger: false });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as Error).message).toContain(`is in use by another onkure server (pid ${process.pid}`);
    await first.close();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const again = createOnkureServer(configFor(dataDir), { logger: false });
    await again.ready;
    await again.close();
  });

  it('takes over a stale lock (its pid no longer runs) and reports it', () => {
    const dataDir = tempDir();
    const stale = { pid: deadPid(), host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' };
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify(stale));
    const onStale = vi.fn();
    const lock = acquireDataDirLock(dataDir, { onStale });
    expect(onStale).toHaveBeenCalledWith(stale);
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('treats a lock held on another host as held (its pid cannot be checked from here)', () => {
    const dataDir = tempDir();
    writeFileSync(
      join(dataDir, LOCK_FILE),
      JSON.stringify({ pid: deadPid(), host: 'other-host', startedAt: '2026-01-01T00:00:00.000Z' }),
    );
    expect(() => acquireDataDirLock(dataDir)).toThrow(/other-host/);
  });

  it('release leaves a lock alone that is no longer ours', () => {
    const dataDir = tempDir();
    const lock = acquireDataDirLock(dataDir);
    writeFileSync(lock.path, JSON.stringify({ pid: 1, host: hostname(), startedAt: 'x' }));
    lock.release();
    expect(existsSync(lock.path)).toBe(true);
  });
});
