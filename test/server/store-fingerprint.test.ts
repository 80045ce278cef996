import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFingerprint } from '../support/store-fingerprint';
import { startTestServer, type TestServer } from '../support/test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
});
afterAll(async () => t?.close());

describe('the store fingerprint the fuzz tests rely on', () => {
  it('changes on every committed insert, update and delete, and not on a read or a rolled-back write', async () => {
    const store = t.server.store();
    const start = await storeFingerprint(store);
    await store.query('SELECT * FROM stations');
    expect(await storeFingerprint(store)).toBe(start);

    await store
      .transaction(async (tx) => {
        await tx.query(`UPDATE shops SET shop_name = 'x' WHERE shop_id = 1`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await storeFingerprint(store)).toBe(start);

    await store.query(`INSERT INTO shops (shop_id, shop_name) VALUES (77, 'テスト')`);
    const inserted = await storeFingerprint(store);
    expect(inserted).not.toBe(start);
    await store.query(`UPDATE shops SET shop_name = 'テスト2' WHERE shop_id = 77`);
    const updated = await storeFingerprint(store);
    expect(updated).not.toBe(inserted);
    await store.query(`DELETE FROM shops WHERE shop_id = 77`);
    expect(await storeFingerprint(store)).not.toBe(updated);
  });
});
