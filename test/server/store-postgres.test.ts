import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createOnkureServer } from '../../server/app';
import { readServerConfig, ServerConfigError } from '../../server/config';
import { seedCatalogue } from '../../server/seed/seed';
import { migrate } from '../../server/store/migrate';
import { openPostgresStore } from '../../server/store/postgres-store';
import { openPgliteStore, type Store } from '../../server/store/store';
import { usePostgresCluster } from '../support/postgres-cluster';
import { storeFingerprint } from '../support/store-fingerprint';

/** Issue 25: the store on a real PostgreSQL server, beside the embedded PGlite. */
const postgres = usePostgresCluster();
const migrationFiles = readdirSync(
  join(dirname(fileURLToPath(import.meta.url)), '../../server/store/migrations'),
).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f));
const serverEnv = (databaseUrl: string, dataDir = ':memory:') =>
  readServerConfig({ PORT: '0', STATIC_DIR: '', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, DATA_DIR: dataDir });

describe('the store on PostgreSQL', () => {
  it('four instances migrating and seeding one empty database at once: every migration runs once, the catalogue is seeded once', async () => {
    const url = await postgres.cluster.createDatabase('race');
    const stores = await Promise.all([1, 2, 3, 4].map(() => openPostgresStore(url, { poolSize: 3 })));
    try {
      const applied = await Promise.all(stores.map((s) => migrate(s)));
      // Each file was applied by exactly one of them.
      expect(applied.flat().sort()).toEqual([...migrationFiles].sort());
      const seeded = await Promise.all(stores.map((s) => seedCatalogue(s, new Date())));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      const one: Store = stores[0]!;
      expect(await one.query('SELECT count(*)::int AS n FROM schema_migrations')).toEqual([
        { n: migrationFiles.length },
      ]);
      expect(await one.query('SELECT count(*)::int AS n FROM shops')).toEqual([{ n: 1 }]);
      const counts = await one.query<{ stations: number; carousels: number; settings: number }>(
        `SELECT (SELECT count(*) FROM stations)::int AS stations, (SELECT count(*) FROM carousels)::int AS carousels,
                (SELECT count(*) FROM station_settings WHERE active)::int AS settings`,
      );
      const reference = await openPgliteStore(null);
      await migrate(reference);
      await seedCatalogue(reference, new Date());
      expect(counts).toEqual(
        await reference.query(
          `SELECT (SELECT count(*) FROM stations)::int AS stations, (SELECT count(*) FROM carousels)::int AS carousels,
                  (SELECT count(*) FROM station_settings WHERE active)::int AS settings`,
        ),
      );
      await reference.close();
      // A later start finds everything done.
      expect(await migrate(one)).toEqual([]);
      expect(await seedCatalogue(one, new Date())).toBe(false);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('answers the same JavaScript values as PGlite for every column type the repositories read', async () => {
    const sql = `SELECT 42::int2 AS small, 7::int4 AS int, 9007199254740991::int8 AS big, 9007199254740993::int8 AS huge,
      count(*) AS counted, 1.5::float8 AS float, 12.50::numeric AS money, true AS yes, 'テキスト'::text AS text,
      '2026-11-26'::date AS day, '2026-11-26T01:02:03.456Z'::timestamptz AS at,
      '{"a":[1,"二"]}'::jsonb AS doc, '\\x00ff'::bytea AS bytes, ARRAY[1,2]::int4[] AS ints, ARRAY[3,4]::int8[] AS bigs,
      NULL::int8 AS nothing, date_trunc('day', '2026-11-26T23:30:00+09:00'::timestamptz) AS trunc
      FROM (VALUES (1)) v`;
    const pgStore = await openPostgresStore(await postgres.cluster.createDatabase('types'));
    const lite = await openPgliteStore(null);
    try {
      const [fromPg] = await pgStore.query(sql);
      const [fromLite] = await lite.query(sql);
      const normal = (row: Record<string, unknown> | undefined) => ({
        ...row,
        bytes: Array.from(row!.bytes as Uint8Array),
      });
      expect(normal(fromPg)).toEqual(normal(fromLite));
      expect(fromPg).toMatchObject({ big: 9007199254740991, huge: 9007199254740993n, counted: 1, money: '12.50' });
      // Sessions run in UTC on both: date arithmetic in SQL agrees.
      expect((fromPg!.trunc as Date).toISOString()).toBe('2026-11-26T00:00:00.000Z');
    } finally {
      await pgStore.close();
      await lite.close();
    }
  });

  it('rolls a failed transaction back, and a connection killed mid-transaction costs that transaction only', async () => {
    const store = await openPostgresStore(await postgres.cluster.seededDatabase(), { poolSize: 2 });
    try {
      const before = await storeFingerprint(store);
      await expect(
        store.transaction(async (tx) => {
          await tx.query(`UPDATE shops SET shop_name = 'x'`);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await storeFingerprint(store)).toBe(before);
      await expect(
        store.transaction(async (tx) => {
          await tx.query(`UPDATE shops SET shop_name = 'y'`);
          await tx.query('SELECT pg_terminate_backend(pg_backend_pid())');
        }),
      ).rejects.toThrow();
      expect(await storeFingerprint(store)).toBe(before);
      // The pool replaced the dead connection: both of its connections still work.
      const names = await Promise.all([1, 2, 3].map(() => store.query('SELECT shop_name FROM shops')));
      expect(names.every((rows) => rows.length === 1 && rows[0]!.shop_name !== 'y')).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('servers on DATABASE_URL', () => {
  const started: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of started) await s.close();
  });

  it('two instances start at once on one empty database (and one DATA_DIR: no directory lock on PostgreSQL) and serve one catalogue', async () => {
    const url = await postgres.cluster.createDatabase('pair');
    const dataDir = fileURLToPath(new URL('.', import.meta.url));
    const [a, b] = [1, 2].map(() => createOnkureServer(serverEnv(url, dataDir), { logger: false }));
    started.push(a!, b!);
    await Promise.all([a!.ready, b!.ready]);
    const top = await Promise.all(
      [a!, b!].map(async (s) => {
        const r = await s.app.inject({
          method: 'POST',
          url: '/api/contents/top_page_prize',
          payload: { shop_id: 1, is_top_page: 1 },
        });
        return { status: r.statusCode, body: r.body };
      }),
    );
    expect(top[0]!.status).toBe(200);
    expect(top[0]!.body.length).toBeGreaterThan(1000);
    expect(top[1]).toEqual(top[0]);
    expect((await a!.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('an unreachable database: the server answers 503 on /healthz and the API, and does not crash', async () => {
    const s = createOnkureServer(serverEnv(`postgres://onkure@127.0.0.1:${postgres.cluster.port}/no_such_database`), {
      logger: false,
    });
    started.push(s);
    await expect(s.ready).rejects.toThrow(/no_such_database/);
    const health = await s.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'failed' });
  });

  it.each(['mysql://x@y/z', 'postgres://', 'localhost:5432'])('refuses DATABASE_URL=%s with a clear message', (url) => {
    expect(() => serverEnv(url)).toThrow(ServerConfigError);
    expect(() => serverEnv(url)).toThrow(/DATABASE_URL must be a PostgreSQL address/);
  });
});
