import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/store/migrate';
import { openPgliteStore } from '../../server/store/store';

/** Issue 46: `npm run reconcile -- <day>` on the embedded store: the report, the exit status, the run kept. */
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-reconcile-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const reconcile = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/reconcile.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test' },
    timeout: 60_000,
  });

describe('npm run reconcile (issue 46)', () => {
  it(
    'prints a day that adds up and exits 0; lists a credit with no sale and exits 1; keeps the run; refuses a bad day',
    { timeout: 180_000 },
    async () => {
      const clean = reconcile('2026-11-28');
      expect(clean.stderr).toBe('');
      expect(clean.status).toBe(0);
      expect(clean.stdout).toMatch(/money reconciliation 2026-11-28/);
      expect(clean.stdout).toMatch(/no mismatch/);

      const store = await openPgliteStore(dataDir);
      try {
        await migrate(store);
        const [user] = await store.query<{ user_id: number }>('INSERT INTO users DEFAULT VALUES RETURNING user_id');
        await store.query(
          `INSERT INTO tc_ledger (user_id, kind, delta, balance_after, reason, reference, idempotency_key, created_at)
         VALUES ($1, 'toll', 500, 500, 'purchase', 'no-such-settlement', 'settlement:forged', '2026-11-29T03:00:00Z')`,
          [user!.user_id],
        );
      } finally {
        await store.close();
      }
      const found = reconcile('2026-11-29');
      expect(found.status).toBe(1);
      expect(found.stdout).toMatch(/1 mismatch\(es\):\n\s+credit_without_settlement\s+no-such-settlement/);
      const json = reconcile('2026-11-29', '--json');
      expect(JSON.parse(json.stdout)).toMatchObject({
        day: '2026-11-29',
        mismatches: [{ kind: 'credit_without_settlement' }],
      });

      const kept = await openPgliteStore(dataDir);
      try {
        const runs = await kept.query<{ day: string; mismatches: number }>(
          "SELECT to_char(day, 'YYYY-MM-DD') AS day, mismatches FROM reconciliation_runs ORDER BY day",
        );
        expect(runs).toEqual([
          { day: '2026-11-28', mismatches: 0 },
          { day: '2026-11-29', mismatches: 1 },
        ]);
      } finally {
        await kept.close();
      }
      for (const bad of [['2026-02-30'], ['soon'], ['2026-11-29', '--all']]) {
        const refused = reconcile(...bad);
        expect(refused.status, bad.join(' ')).toBe(2);
        expect(refused.stdout).toBe('');
      }
    },
  );
});
