import pg from 'pg';
import { SerialQueue } from './serial-queue';
import { STORE_LOCKS } from '../store/store-locks';
import { roomId } from './room-ownership';

/**
 * Which instance runs what (docs/deployment.md, R10-8). With the embedded store there is one
 * instance: it runs everything. On PostgreSQL every instance serves the API and the sockets, and:
 *
 * - each **room** (a station, a kuji box) runs on exactly one instance, the one holding that room's
 *   session advisory lock (its kind's lock class and its number). Every instance takes up to its
 *   share of each kind (rooms ÷ live instances) and gives back vacant rooms (nobody in them) above
 *   it, so the rooms spread over the live instances and some move to an instance that joins. When
 *   an instance dies its connection closes, PostgreSQL frees its locks, and the others take its
 *   rooms within one round (`retryMs`), resuming each from the store as after a restart;
 * - the **leader** — the instance holding the one-key host lock — runs the deadline sweeps
 *   (settlement expiry, the prize storage period).
 *
 * All locks are held on one connection per instance; when it fails, the instance must stop at
 * once (`lost`): it may no longer own what it runs.
 */
export interface RoomHost {
  /** Whether this instance is the leader now (the sweeps). */
  readonly hosting: boolean;
  /** Whether rooms can run on other instances (PostgreSQL). */
  readonly distributed: boolean;
  /** Whether this instance runs the room now (locked; the room may still be loading). */
  owns(roomId: string): boolean;
  /**
   * Takes a room nobody runs (an event for it found no owner): 'here' when it runs here now,
   * 'elsewhere' when another instance holds it, 'missing' when there is no such room.
   */
  claim(roomId: string): Promise<Claim>;
  /** Runs a balancing round soon (another instance gave rooms back). */
  rebalance(): void;
  start(work: HostWork): void;
  /** Resolves once the first balancing round has ended (this instance took its first share). */
  settled(): Promise<void>;
  /** Stops: no more rounds, then `stopRooms` (the rooms' writes land), then the locks are freed. */
  close(stopRooms?: () => Promise<void>): Promise<void>;
}

export type Claim = 'here' | 'elsewhere' | 'missing';

/** What the host has the instance do as locks come and go. */
export interface HostWork {
  /** This instance became the leader: start the sweeps. */
  lead(): Promise<void>;
  /** This instance now holds the room's lock: load and resume it. False: no such room. */
  adopt(roomId: string): Promise<boolean>;
  /** Stops running the room if it is vacant (nobody in it): true when stopped. */
  release(roomId: string): Promise<boolean>;
  /** Rooms were given back: tell the other instances to balance now. */
  gaveBack(): void;
  /**
   * The locks' connection failed: another instance may be taking over. Stop every room and the
   * leader's work at once (server/main.ts ends the process; a supervisor starts it again).
   */
  lost(error: unknown): void;
}

/** The embedded store's single instance: it runs everything. */
export class LocalRoomHost implements RoomHost {
  /** From the first moment: a call before the start's recovery loads its room on demand, as before. */
  hosting = true;
  readonly distributed = false;

  owns(): boolean {
    return this.hosting;
  }

  async claim(): Promise<Claim> {
    return this.hosting ? 'here' : 'elsewhere';
  }

  rebalance(): void {}

  start(work: HostWork): void {
    void work.lead();
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  async close(stopRooms?: () => Promise<void>): Promise<void> {
    this.hosting = false;
    await stopRooms?.();
  }
}

export interface PostgresHostOptions {
  /** How often an instance balances its rooms and tries for the leader lock (default 1 s). */
  readonly retryMs?: number;
  readonly log: (message: string, error?: unknown) => void;
}

/** The locks' connections are found in pg_stat_activity by this name: one per live instance. */
export const HOST_APPLICATION_NAME = 'onkure-station-host';

/**
 * The lock's connection probes the network itself (TCP keepalive after 2 s idle, every 1 s, 5
 * misses), and the server's side does too (tcp_keepalives_*), so an instance whose machine vanished
 * without closing its connection loses its locks within about 7 s, and the others take over within
 * the 10 s of R10-8.
 */
const KEEPALIVE = '-c tcp_keepalives_idle=2 -c tcp_keepalives_interval=1 -c tcp_keepalives_count=5';

/**
 * A query of the locks' connection that takes longer than this counts as a lost connection: the
 * instance stops (when it holds anything) before PostgreSQL's keepalives (about 7 s) free its locks.
 */
const QUERY_TIMEOUT_MS = 4_000;

/** The share of `rooms` (of one kind) one of `live` instances runs: the rooms spread evenly, none left over. */
export function roomShare(rooms: number, live: number): number {
  return Math.ceil(rooms / Math.max(1, live));
}

/** Each kind of room: the first key of its rooms' locks, and the numbers of its rooms. */
const ROOM_KINDS = [
  { kind: 'station', lockClass: STORE_LOCKS.stationClass, list: 'SELECT station_id AS id FROM stations' },
  { kind: 'kuji', lockClass: STORE_LOCKS.kujiClass, list: 'SELECT box_id AS id FROM kuji_boxes' },
] as const;
const LOCK_CLASS = new Map<string, number>(ROOM_KINDS.map((k) => [k.kind, k.lockClass]));

/** A room id's lock: its kind's class and its number. */
function lockOf(id: string): [number, number] {
  const at = id.indexOf(':');
  const lockClass = LOCK_CLASS.get(id.slice(0, at));
  if (lockClass === undefined) throw new Error(`no lock for room ${id}`);
  return [lockClass, Number(id.slice(at + 1))];
}

const isTimeout = (error: unknown): boolean => error instanceof Error && /timeout/i.test(error.message);

export class PostgresRoomHost implements RoomHost {
  hosting = false;
  readonly distributed = true;
  /** The leader lock is held (hosting follows once the leader's work has started). */
  private leader = false;
  /** Rooms whose lock this instance holds. */
  private readonly owned = new Set<string>();
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Rounds and claims run one at a time: a lock is never taken twice by this session. */
  private readonly turns = new SerialQueue();
  private work: HostWork | null = null;
  private readonly retryMs: number;
  private markSettled: () => void = () => undefined;
  private readonly firstRound = new Promise<void>((resolve) => (this.markSettled = resolve));

  constructor(
    private readonly databaseUrl: string,
    private readonly options: PostgresHostOptions,
  ) {
    this.retryMs = options.retryMs ?? 1_000;
  }

  owns(roomId: string): boolean {
    return this.owned.has(roomId);
  }

  /** The rooms of a kind this instance holds, by number. */
  private ownedOf(kind: string): number[] {
    const prefix = `${kind}:`;
    return [...this.owned]
      .filter((id) => id.startsWith(prefix))
      .map((id) => Number(id.slice(prefix.length)))
      .sort((a, b) => a - b);
  }

  start(work: HostWork): void {
    this.work = work;
    this.schedule(0);
  }

  settled(): Promise<void> {
    return this.firstRound;
  }

  rebalance(): void {
    if (this.work && !this.closed) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.turns
        .run(() => this.round())
        .catch(async (error: unknown) => {
          this.options.log('room host: a balancing round failed', error);
          if (isTimeout(error)) this.failed(error);
          else if (this.owned.size === 0 && !this.leader) await this.dropClient();
        })
        .finally(() => {
          this.markSettled();
          if (!this.closed && !this.timer) this.schedule(this.retryMs);
        });
    }, delayMs);
  }

  claim(roomId: string): Promise<Claim> {
    if (this.owned.has(roomId)) return Promise.resolve('here');
    if (this.closed || !this.work || !LOCK_CLASS.has(roomId.slice(0, roomId.indexOf(':'))))
      return Promise.resolve('elsewhere');
    return this.turns
      .run(() => this.take(roomId))
      .catch((error: unknown): Claim => {
        this.options.log('room host: could not claim a room', error);
        return 'elsewhere';
      });
  }

  /**
   * One balancing round: the leader lock if free; then, kind by kind, the share (rooms ÷ live
   * instances, the instances counted by their locks' connections); vacant rooms above the share
   * given back; free rooms taken up to it.
   */
  private async round(): Promise<void> {
    if (this.closed || !this.work) return;
    const client = await this.connection();
    const work = this.work;
    if (!this.leader) {
      const [row] = (
        await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [STORE_LOCKS.stationHost])
      ).rows;
      if (row?.locked === true) {
        this.leader = true;
        try {
          await work.lead();
        } catch (error) {
          // The lead is given up, so that this instance or another tries again on a later round.
          this.leader = false;
          await client.query('SELECT pg_advisory_unlock($1)', [STORE_LOCKS.stationHost]);
          throw error;
        }
        this.hosting = this.leader;
      }
    }
    const [{ live }] = (
      await client.query<{ live: number }>(
        `SELECT count(*)::int AS live FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
        [HOST_APPLICATION_NAME],
      )
    ).rows as [{ live: number }];
    let gaveBack = false;
    for (const { kind, lockClass, list } of ROOM_KINDS) {
      const { rows } = await client.query<{ rooms: number[]; held: number[] }>(
        `SELECT (SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM (${list}) r) AS rooms,
                (SELECT coalesce(array_agg(objid::int), '{}') FROM pg_locks
                  WHERE locktype = 'advisory' AND classid = $1 AND objsubid = 2 AND granted
                    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
        [lockClass],
      );
      const { rooms, held } = rows[0]!;
      const share = roomShare(rooms.length, live);
      // The highest first, so that an instance taking free rooms in order finds them.
      for (const id of this.ownedOf(kind).reverse()) {
        if (this.ownedOf(kind).length <= share) break;
        if (!(await work.release(roomId(kind, id)))) continue;
        await this.unlock(roomId(kind, id));
        gaveBack = true;
      }
      const taken = new Set(held);
      for (const id of rooms) {
        if (this.ownedOf(kind).length >= share) break;
        if (!taken.has(id)) await this.take(roomId(kind, id));
      }
    }
    if (gaveBack) work.gaveBack();
  }

  private async take(roomId: string): Promise<Claim> {
    if (this.owned.has(roomId)) return 'here';
    if (this.closed || !this.work) return 'elsewhere';
    const client = await this.connection();
    const [row] = (
      await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', lockOf(roomId))
    ).rows;
    if (row?.locked !== true) return 'elsewhere';
    this.owned.add(roomId);
    let adopted = false;
    try {
      adopted = await this.work.adopt(roomId);
    } finally {
      if (!adopted) await this.unlock(roomId);
    }
    return adopted ? 'here' : 'missing';
  }

  private async unlock(roomId: string): Promise<void> {
    this.owned.delete(roomId);
    await this.client?.query('SELECT pg_advisory_unlock($1, $2)', lockOf(roomId));
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: HOST_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: 2_000,
      options: KEEPALIVE,
      connectionTimeoutMillis: 5_000,
      // A round queries every second, so the connection is never idle and TCP keepalive never
      // probes it: a query that takes this long means the connection is gone (fail-stop below).
      query_timeout: QUERY_TIMEOUT_MS,
    });
    const drop = (error: unknown) => {
      if (this.client !== client) return;
      this.client = null;
      this.failed(error);
    };
    client.on('error', drop);
    client.on('end', () => drop(new Error('the room host connection ended')));
    this.client = client;
    try {
      await client.connect();
    } catch (error) {
      this.client = null;
      throw error;
    }
    return client;
  }

  /**
   * The locks' connection failed (or stopped answering) while this instance may hold locks: it
   * stops at once, since another instance may be taking its rooms (it ends; a supervisor
   * restarts it). Holding nothing, it just connects again on the next round.
   */
  private failed(error: unknown): void {
    if (this.closed || (!this.leader && this.owned.size === 0)) {
      void this.dropClient();
      return;
    }
    this.leader = false;
    this.hosting = false;
    this.owned.clear();
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    void this.dropClient();
    this.work?.lost(error);
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  async close(stopRooms?: () => Promise<void>): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.hosting = false;
    await this.turns.idle().catch(() => undefined);
    this.owned.clear();
    await stopRooms?.();
    this.leader = false;
    // Closing the connection frees every lock at once: the others take the rooms on their next round.
    await this.dropClient();
  }
}
