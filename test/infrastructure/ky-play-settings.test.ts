import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import { isPostResponseError, KyPlay } from '../../src/infrastructure';
import { kyServiceApi } from '../support/ky-api';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';

const TOKEN = 'operator-token-for-tests-0123456789';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
});
afterAll(async () => t?.close());

describe('KyPlay.settingsHistory against the reference server over HTTP [R11-6]', () => {
  it('[R11-6] a guest reads a station history as the server publishes it; an unknown station is a 404 refusal', async () => {
    const stationId = (await playableStation(t)).station_id;
    await fetch(`${t.apiBase}operator/station_settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [OPERATOR_AUTH_HEADER]: `Bearer ${TOKEN}` },
      body: JSON.stringify({ station_id: stationId, play_price: 130, reason: 'campaign' }),
    });
    const { http, session } = kyServiceApi(t.apiBase);
    const play = new KyPlay(http, session);
    const history = await firstValueFrom(play.settingsHistory(stationId));
    expect(history).toMatchObject({ stationId, currentVersion: 1, page: 1, hasMore: false });
    expect(history.list).toEqual([
      {
        version: 1,
        applied_at: expect.stringMatching(/Z$/),
        reason: 'campaign',
        changes: [{ field: 'playPrice', before: expect.any(Number), after: 130 }],
      },
    ]);
    const refused = await firstValueFrom(play.settingsHistory(999_999)).catch((e: unknown) => e);
    expect(isPostResponseError(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 404 });
  });
});
