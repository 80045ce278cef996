import type { SqlExecutor } from './store';

/**
 * The store's advisory lock keys (one number space per database). Except for the station host's,
 * they are transaction-level locks: taken by `takeStoreLock` inside a transaction and released by
 * its commit or rollback, so a crashed instance never leaves one behind.
 */
export const STORE_LOCKS = {
  /** Applying migrations (several instances starting at once). */
  migrations: 0x6f6e6b01,
  /** The demo catalogue's seed (the first start of an empty database). */
  seed: 0x6f6e6b02,
  /**
   * The leader (a session lock, held on its own connection for as long as the instance leads:
   * server/rooms/room-host.ts).
   */
  stationHost: 0x6f6e6b03,
  /**
   * The first key of each station's own session lock (the second is the station id): the instance
   * holding it runs that station's room (server/rooms/room-host.ts). Two-key locks never collide
   * with the one-key locks above (PostgreSQL keeps the two key spaces apart).
   */
  stationClass: 0x6f6e6b04,
  /** The first key of each kuji box's own session lock (the second is the box id), as stationClass. */
  kujiClass: 0x6f6e6b05,
} as const;

export async function takeStoreLock(tx: SqlExecutor, key: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
}
