import pg from 'pg';
import type { SqlExecutor, Store } from './store';

/**
 * Result parsing made to match PGlite's (the embedded default), so every repository reads the same
 * JavaScript values from either store: bigint columns as numbers (BigInt beyond 2^53), `date`
 * as a Date at UTC midnight; numeric stays a string, timestamps are Dates, json is parsed.
 */
const INT8 = 20;
const INT8_ARRAY = 1016;
const DATE = 1082;
const parseInt8 = (value: string): number | bigint => {
  const n = BigInt(value);
  return n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER) ? n : Number(n);
};

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return parseInt8;
    if (oid === INT8_ARRAY) {
      const parseArray = pg.types.getTypeParser(INT8_ARRAY as never, 'text') as unknown as (
        v: string,
      ) => (string | null)[];
      return (value: string) => parseArray(value).map((v) => (v === null ? null : Number(v)));
    }
    if (oid === DATE) return (value: string) => new Date(value);
    return pg.types.getTypeParser(oid, format ?? 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PostgresStoreOptions {
  /** Connections in the pool (DATABASE_POOL_SIZE, default 10). */
  readonly poolSize?: number;
  /** Name shown in pg_stat_activity (the instance), for operators. */
  readonly applicationName?: string;
}

/**
 * The store on a PostgreSQL server (DATABASE_URL=postgres://…) through node-postgres' pool: the
 * same SQL, migrations and transactions as the embedded PGlite. Each session runs in UTC, as PGlite
 * does, so date arithmetic in SQL gives the same answers on both.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: typeParsers,
    options: '-c TimeZone=UTC',
    application_name: options.applicationName ?? 'onkure',
    // A connection that cannot be made in 10 s is an error the caller sees, not a hang.
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection (the server restarted) must not crash the process: the
  // pool drops it and makes a new one on the next query.
  pool.on('error', () => undefined);
  // Fail at start, with the server's own message, when the address or credentials are wrong.
  await pool.query('SELECT 1');
  return new PostgresStore(pool);
}

function wrap(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    async query<R>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as R[];
    },
  };
}

export class PostgresStore implements Store {
  private readonly executor: SqlExecutor;

  constructor(readonly pool: pg.Pool) {
    this.executor = wrap(pool);
  }

  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]> {
    return this.executor.query<R>(sql, params);
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    // A connection lost while checked out (the server restarted, the session was ended) reports on
    // the client, not the pool: without a listener it would crash the process. The query in flight
    // fails with it, so the transaction's caller sees the error; the client is not reused.
    const lost = () => {
      broken = true;
    };
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      const result = await work(wrap(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // The connection itself failed: it must not go back to the pool.
        broken = true;
      }
      throw error;
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
