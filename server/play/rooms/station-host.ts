import pg from 'pg';
import { STORE_LOCKS } from '../../store/store-locks';

/**
 * Which instance runs the station rooms, the kuji lines' timers and the other deadline work
 * (docs/deployment.md, R10-8). With the embedded store there is one instance: it always does. On
 * PostgreSQL every instance serves the API and the sockets, and exactly one of them — the one
 * holding a session advisory lock on its own connection — runs the rooms. When it dies, its
 * connection closes, PostgreSQL frees the lock, and the next instance to try (every `retryMs`)
 * takes the rooms over and resumes every play from the store, as after a restart.
 */
export interface StationHost {
  /** Whether this instance runs the rooms now. */
  readonly hosting: boolean;
  /**
   * Starts trying: `acquired` runs once the rooms are this instance's. `lost` runs when the lock's
   * connection fails while hosting (another instance may be taking over): the instance must stop
   * running rooms at once (server/main.ts ends the process; a supervisor starts it again).
   */
  start(acquired: () => Promise<void>, lost: (error: unknown) => void): void;
  close(): Promise<void>;
}

/** The embedded store's single instance. */
export class LocalStationHost implements StationHost {
  /** From the first moment: a call before the start's recovery loads its room on demand, as before. */
  hosting = true;

  start(acquired: () => Promise<void>): void {
    void acquired();
  }

  async close(): Promise<void> {
    this.hosting = false;
  }
}

export interface PostgresHostOptions {
  /** How often a standby instance tries for the lock (default 2 s). */
  readonly retryMs?: number;
  readonly log: (message: string, error?: unknown) => void;
}

/**
 * The lock's connection probes the network itself (TCP keepalive after 2 s idle, every 1 s, 5
 * misses), and the server's side does too (tcp_keepalives_*), so a host whose machine vanished
 * without closing its connection loses the lock within about 7 s, and a standby takes over
 * within the 10 s of R10-8.
 */
const KEEPALIVE = '-c tcp_keepalives_idle=2 -c tcp_keepalives_interval=1 -c tcp_keepalives_count=5';

export class PostgresStationHost implements StationHost {
  hosting = false;
  /** The lock is held (hosting follows once the rooms are loaded). */
  private locked = false;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly retryMs: number;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: PostgresHostOptions,
  ) {
    this.retryMs = options.retryMs ?? 2_000;
  }

  start(acquired: () => Promise<void>, lost: (error: unknown) => void): void {
    const attempt = async (): Promise<void> => {
      this.timer = null;
      if (this.closed) return;
      try {
        if (await this.tryLock(lost)) {
          // Rooms are served from here only once every one of them is loaded and resumed.
          await acquired();
          this.hosting = this.locked;
          return;
        }
      } catch (error) {
        this.options.log('station host: could not try for the rooms lock', error);
        await this.dropClient();
      }
      if (!this.closed) this.timer = setTimeout(() => void attempt(), this.retryMs);
    };
    void attempt();
  }

  private async tryLock(lost: (error: unknown) => void): Promise<boolean> {
    if (!this.client) {
      const client = new pg.Client({
        connectionString: this.databaseUrl,
        application_name: 'onkure-station-host',
        keepAlive: true,
        keepAliveInitialDelayMillis: 2_000,
        options: KEEPALIVE,
        connectionTimeoutMillis: 5_000,
      });
      const drop = (error: unknown) => {
        if (!this.locked || this.closed) return;
        this.locked = false;
        this.hosting = false;
        lost(error);
      };
      client.on('error', drop);
      client.on('end', () => drop(new Error('the station host connection ended')));
      this.client = client;
      await client.connect();
    }
    const [row] = (
      await this.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
        STORE_LOCKS.stationHost,
      ])
    ).rows;
    this.locked = row?.locked === true;
    return this.locked;
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.hosting = false;
    this.locked = false;
    // Closing the connection frees the lock at once: a standby takes the rooms on its next try.
    await this.dropClient();
  }
}
