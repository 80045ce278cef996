import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The lock file's name inside DATA_DIR. */
export const LOCK_FILE = 'onkure.lock';

/** Who holds a data directory: written as JSON into the lock file. */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another onkure server (pid ${owner.pid} on ${owner.host}, started ${owner.startedAt}). ` +
        `Two servers on one data directory corrupt it: stop the other server or choose another DATA_DIR. ` +
        `If no such server runs, delete ${join(dataDir, LOCK_FILE)}.`,
    );
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file (only if it is still ours). Safe to call twice. */
  release(): void;
}

export interface LockOptions {
  /** Told when a stale lock (its pid no longer runs on this host) is taken over. */
  readonly onStale?: (owner: LockOwner) => void;
  readonly pid?: number;
  readonly host?: string;
  readonly now?: () => Date;
  /** Whether a process runs on this host; process.kill(pid, 0) by default. */
  readonly isAlive?: (pid: number) => boolean;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host, startedAt: String(owner.startedAt) }
      : null;
  } catch {
    return null;
  }
}

/**
 * Takes the data directory for this process: creates `DATA_DIR/onkure.lock` exclusively (O_EXCL, so
 * two starts cannot both win) with the owner's pid, host and start time. A lock whose pid no longer
 * runs on this host is stale and taken over (reported through `onStale`); a live owner, or an owner
 * on another host (whose pid cannot be checked), makes this throw DataDirLockedError.
 */
export function acquireDataDirLock(dataDir: string, options: LockOptions = {}): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  const me: LockOwner = {
    pid: options.pid ?? process.pid,
    host: options.host ?? hostname(),
    startedAt: (options.now?.() ?? new Date()).toISOString(),
  };
  const isAlive = options.isAlive ?? processIsAlive;
  mkdirSync(dataDir, { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          const owner = readOwner(path);
          if (owner && owner.pid === me.pid && owner.host === me.host && owner.startedAt === me.startedAt)
            unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(path);
    // An unreadable lock is one being written right now (or damaged): treat it as held.
    if (!owner) throw new DataDirLockedError(dataDir, { pid: -1, host: 'unknown', startedAt: 'unknown' });
    if (owner.host !== me.host || isAlive(owner.pid)) throw new DataDirLockedError(dataDir, owner);
    options.onStale?.(owner);
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new DataDirLockedError(dataDir, readOwner(path) ?? { pid: -1, host: 'unknown', startedAt: 'unknown' });
}
