import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostResponseError } from '../../src/infrastructure';
import { kyServiceApi } from '../support/ky-api';
import { startTestServer, type TestServer } from '../support/test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true });
});
afterAll(async () => t?.close());

describe('KyPrizeCatalog against the reference server over HTTP', () => {
  it('[R7-1] reads the top page from the configured API base', async () => {
    const { api } = kyServiceApi(t.apiBase);
    const page = await firstValueFrom(api.topPage({ shopId: 1 }));
    const stations = page.sale_list.flatMap((s) => s.list);
    expect(stations.length).toBeGreaterThanOrEqual(30);
    expect(stations[0]?.prize_name).toMatch(/[\u3040-\u30ff]/);
  });

  it('[R8-1] raises PostResponseError when error_code is not 200', async () => {
    const { api } = kyServiceApi(t.apiBase);
    const error = await firstValueFrom(api.topPage({ shopId: 404 })).catch((e: unknown) => e);
    expect(isPostResponseError(error)).toBe(true);
    expect(error).toMatchObject({ code: 404, info: 'ショップが見つかりません。' });
  });
});
