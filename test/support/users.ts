import { IdentityService } from '../../server/auth/identity';
import type { TestServer } from './test-server';
import { systemClock } from '../../server/clock';

export interface TestUser {
  readonly user_id: number;
  readonly access_token: string;
}

/**
 * Creates a user straight in the store and issues a real access token for it, so tests of any
 * endpoint can call as a signed-in user (or as two different users).
 */
export async function createTestUser(
  t: Pick<TestServer, 'server'>,
  fields: Partial<Record<'email' | 'nickname' | 'status' | 'vip_level' | 'birth' | 'created_at', unknown>> = {},
  /** Free TC credited through the server's own ledger (a player who can pay for plays). */
  options: { freeTc?: number } = {},
): Promise<TestUser> {
  const store = t.server.store();
  const columns = Object.keys(fields);
  const values = Object.values(fields);
  const [row] = await store.query<{ user_id: number }>(
    columns.length === 0
      ? 'INSERT INTO users DEFAULT VALUES RETURNING user_id'
      : `INSERT INTO users (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING user_id`,
    values,
  );
  const identity = new IdentityService(store, systemClock);
  const { access_token } = await identity.issueToken(row!.user_id);
  if (options.freeTc)
    await t.server
      .services()
      .ledger.credit(row!.user_id, 'free', { amount: options.freeTc, reason: 'admin', idempotencyKey: 'test:grant' });
  return { user_id: row!.user_id, access_token };
}
