import pg from 'pg';
import { SerialQueue } from '../../rooms/serial-queue';
import { STORE_LOCKS } from '../../store/store-locks';

/**
 * Which instance runs what (docs/deployment.md, R10-8). With the embedded store there is one
 * instance: it runs everything. On PostgreSQL every instance serves the API and the sockets, and:
 *
 * - each **station room** runs on exactly one instance, the one holding that station's session
 *   advisory lock. Every instance takes up to its share (stations ÷ live instances) and gives back
 *   idle stations (no play, no line) above it, so the stations spread over the live instances and
 *   some move to an instance that joins. When an instance dies its connection closes, PostgreSQL
 *   frees its locks, and the others take its stations within one round (`retryMs`), resuming each
 *   play from the store as after a restart;
 * - the **leader** — the instance holding the one-key host lock — runs the kuji lines' timers and
 *   the deadline sweeps (settlement expiry, the prize storage period).
 *
 * All locks are held on one connection per instance; when it fails, the instance must stop at
 * once (`lost`): it may no longer own what it runs.
 */
export interface StationHost {
  /** Whether this instance is the leader now (kuji lines' timers, the sweeps). */
  readonly hosting: boolean;
  /** Whether stations can run on other instances (PostgreSQL). */
  readonly distributed: boolean;
  /** Whether this instance runs the station's room now (locked; the room may still be loading). */
  owns(stationId: number): boolean;
  /**
   * Takes a station nobody runs (a call for it found no owner): 'here' when it runs here now,
   * 'elsewhere' when another instance holds it, 'missing' when there is no such station.
   */
  claim(stationId: number): Promise<Claim>;
  /** Runs a balancing round soon (another instance gave stations back). */
  rebalance(): void;
  start(work: HostWork): void;
  /** Stops: no more rounds, then `stopRooms` (the rooms' writes land), then the locks are freed. */
  close(stopRooms?: () => Promise<void>): Promise<void>;
}

export type Claim = 'here' | 'elsewhere' | 'missing';

/** What the host has the instance do as locks come and go. */
export interface HostWork {
  /** This instance became the leader: start the kuji lines' timers and the sweeps. */
  lead(): Promise<void>;
  /** This instance now holds the station's lock: load and resume its room. False: no such station. */
  adopt(stationId: number): Promise<boolean>;
  /** Stops running the station if it is idle (no play, no line): true when stopped. */
  release(stationId: number): Promise<boolean>;
  /** Stations were given back: tell the other instances to balance now. */
  gaveBack(): void;
  /**
   * The locks' connection failed: another instance may be taking over. Stop every room and the
   * leader's work at once (server/main.ts ends the process; a supervisor starts it again).
   */
  lost(error: unknown): void;
}

/** The embedded store's single instance: it runs everything. */
export class LocalStationHost implements StationHost {
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

  async close(stopRooms?: () => Promise<void>): Promise<void> {
    this.hosting = false;
    await stopRooms?.();
  }
}

export interface PostgresHostOptions {
  /** How often an instance balances its stations and tries for the leader lock (default 1 s). */
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

/** The share of `stations` one of `live` instances runs: the stations spread evenly, none left over. */
export function stationShare(stations: number, live: number): number {
  return Math.ceil(stations / Math.max(1, live));
}

const isTimeout = (error: unknown): boolean => error instanceof Error && /timeout/i.test(error.message);

export class PostgresStationHost implements StationHost {
  hosting = false;
  readonly distributed = true;
  /** The leader lock is held (hosting follows once the leader's work has started). */
  private leader = false;
  /** Stations whose lock this instance holds. */
  private readonly owned = new Set<number>();
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Rounds and claims run one at a time: a lock is never taken twice by this session. */
  private readonly turns = new SerialQueue();
  private work: HostWork | null = null;
  private readonly retryMs: number;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: PostgresHostOptions,
  ) {
    this.retryMs = options.retryMs ?? 1_000;
  }

  owns(stationId: number): boolean {
    return this.owned.has(stationId);
  }

  /** The stations this instance runs (tests and /healthz/stations). */
  stations(): number[] {
    return [...this.owned].sort((a, b) => a - b);
  }

  start(work: HostWork): void {
    this.work = work;
    this.schedule(0);
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
          this.options.log('station host: a balancing round failed', error);
          if (isTimeout(error)) this.failed(error);
          else if (this.owned.size === 0 && !this.leader) await this.dropClient();
        })
        .finally(() => {
          if (!this.closed && !this.timer) this.schedule(this.retryMs);
        });
    }, delayMs);
  }

  claim(stationId: number): Promise<Claim> {
    if (this.owned.has(stationId)) return Promise.resolve('here');
    if (this.closed || !this.work) return Promise.resolve('elsewhere');
    return this.turns
      .run(() => this.take(stationId))
      .catch((error: unknown): Claim => {
        this.options.log('station host: could not claim a station', error);
        return 'elsewhere';
      });
  }

  /**
   * One balancing round: the leader lock if free; then the share (stations ÷ live instances, the
   * instances counted by their locks' connections); idle stations above the share given back;
   * free stations taken up to it.
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
    const { rows } = await client.query<{ live: number; stations: number[]; held: number[] }>(
      `SELECT (SELECT count(*)::int FROM pg_stat_activity
                WHERE application_name = $1 AND datname = current_database()) AS live,
              (SELECT coalesce(array_agg(station_id ORDER BY station_id), '{}') FROM stations) AS stations,
              (SELECT coalesce(array_agg(objid::int), '{}') FROM pg_locks
                WHERE locktype = 'advisory' AND classid = $2 AND objsubid = 2 AND granted
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
      [HOST_APPLICATION_NAME, STORE_LOCKS.stationClass],
    );
    const { live, stations, held } = rows[0]!;
    const share = stationShare(stations.length, live);
    let gaveBack = false;
    // The highest first, so that an instance taking free stations in order finds them.
    for (const stationId of this.stations().reverse()) {
      if (this.owned.size <= share) break;
      if (!(await work.release(stationId))) continue;
      await this.unlock(stationId);
      gaveBack = true;
    }
    if (gaveBack) work.gaveBack();
    const taken = new Set(held);
    for (const stationId of stations) {
      if (this.owned.size >= share) break;
      if (!taken.has(stationId)) await this.take(stationId);
    }
  }

  private async take(stationId: number): Promise<Claim> {
    if (this.owned.has(stationId)) return 'here';
    if (this.closed || !this.work) return 'elsewhere';
    const client = await this.connection();
    const [row] = (
      await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
        STORE_LOCKS.stationClass,
        stationId,
      ])
    ).rows;
    if (row?.locked !== true) return 'elsewhere';
    this.owned.add(stationId);
    let adopted = false;
    try {
      adopted = await this.work.adopt(stationId);
    } finally {
      if (!adopted) await this.unlock(stationId);
    }
    return adopted ? 'here' : 'missing';
  }

  private async unlock(stationId: number): Promise<void> {
    this.owned.delete(stationId);
    await this.client?.query('SELECT pg_advisory_unlock($1, $2)', [STORE_LOCKS.stationClass, stationId]);
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
    client.on('end', () => drop(new Error('the station host connection ended')));
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
   * stops at once, since another instance may be taking its stations (it ends; a supervisor
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
    // Closing the connection frees every lock at once: the others take the stations on their next round.
    await this.dropClient();
  }
}
