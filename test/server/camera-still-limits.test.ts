import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STILL_IMAGE_REFRESH_MS } from '../../src/domain/constants';
import { FEED_HOP_HEADER } from '../../server/live/feed-forward';
import { STILLS_PER_CLIENT } from '../../server/routes/station-feed.routes';
import { ManualServerClock } from '../support/manual-server-clock';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 46: the camera stills (`/stations/:id/camera/front.jpg|side.jpg`) have a per-client limit
 * of their own, which a real page's pace never reaches and a script hammering the route does.
 */
let t: TestServer;
let stations: number[] = [];
/**
 * The paths asked for in the pace tests: stills of stations that do not exist, answered 404 at once.
 * The limit counts every still request first, whatever its station (a real station's still waits
 * for its camera on the server's clock, which stands still here); the last test shows a real
 * station's still refused the same way.
 */
const NO_STATION = 999_999;
const clock = new ManualServerClock(new Date(Math.ceil(Date.now() / 60_000) * 60_000));
/** The operator console's floor: a still per station on screen, fetched again every 2 s (src/ui/operator/station-still.tsx). */
const CONSOLE_STILLS = 40;
const CONSOLE_REFRESH_MS = 2_000;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock, agent: false });
  stations = (await t.server.store().query<{ station_id: number }>('SELECT station_id FROM stations ORDER BY 1')).map(
    (r) => r.station_id,
  );
});
afterAll(async () => t?.close());

async function still(ip: string, stationId: number, file = 'front.jpg', headers: Record<string, string> = {}) {
  const res = await t.server.app.inject({
    method: 'GET',
    url: `/api/stations/${stationId}/camera/${file}?t=${clock.now().getTime()}`,
    headers,
    remoteAddress: ip,
  });
  return {
    status: res.statusCode,
    json: String(res.headers['content-type']).includes('json') ? (res.json() as Record<string, unknown>) : null,
    retryAfter: res.headers['retry-after'],
  };
}

describe('camera stills: a limit per client', () => {
  it('a play page at its fastest and a console floor of 40 stills, from one address for two minutes, are never refused', async () => {
    const ip = '203.0.113.10';
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    // Each camera asked again STILL_IMAGE_REFRESH_MS after its answer arrived (answers taking no time: the fastest pace).
    let nextConsole = 0;
    for (let elapsed = 0; elapsed < 120_000; elapsed += STILL_IMAGE_REFRESH_MS) {
      count((await still(ip, NO_STATION, 'front.jpg')).status);
      count((await still(ip, NO_STATION, 'side.jpg')).status);
      if (elapsed >= nextConsole) {
        nextConsole += CONSOLE_REFRESH_MS;
        for (let i = 0; i < CONSOLE_STILLS; i++) count((await still(ip, NO_STATION + 1 + i)).status);
      }
      clock.advance(STILL_IMAGE_REFRESH_MS);
    }
    expect([...statuses.keys()]).toEqual([404]);
    expect([...statuses.values()].reduce((x, y) => x + y)).toBeGreaterThan(4_000);
  });

  it('a script hammering the route is refused past the limit with 429 in our envelope; another client is not', async () => {
    const ip = '203.0.113.20';
    const answers = await Promise.all(
      Array.from({ length: STILLS_PER_CLIENT.max + 50 }, (_, i) =>
        still(ip, NO_STATION, i % 2 ? 'side.jpg' : 'front.jpg'),
      ),
    );
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(50);
    for (const answer of refused) {
      expect(answer.json).toEqual({ error_code: 429, error_info: expect.stringContaining('カメラ画像') as unknown });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    expect(answers.filter((a) => a.status === 404)).toHaveLength(STILLS_PER_CLIENT.max);
    // A real station's still and another file are refused the same way.
    for (const station of stations.slice(0, 3)) expect((await still(ip, station)).status).toBe(429);
    expect((await still(ip, stations[0]!, 'back.jpg')).status).toBe(429);
    expect((await still('203.0.113.21', NO_STATION)).status).toBe(404);
    // Once the client pauses for the window (and the one after it, which weighs it), it is served again.
    clock.advance(2 * STILLS_PER_CLIENT.windowMs);
    expect((await still(ip, NO_STATION)).status).toBe(404);
  });

  it('a forwarded hop is not counted again (the first instance counted it)', async () => {
    const ip = '203.0.113.30';
    for (let i = 0; i < STILLS_PER_CLIENT.max; i++) await still(ip, NO_STATION);
    expect((await still(ip, NO_STATION)).status).toBe(429);
    expect((await still(ip, NO_STATION, 'front.jpg', { [FEED_HOP_HEADER]: '1' })).status).toBe(404);
  });

  it('bad input is a 4xx with a Japanese error_info, never a 5xx', async () => {
    const ip = '203.0.113.40';
    for (const url of [
      '/api/stations/abc/camera/front.jpg',
      '/api/stations/1/camera/%00.jpg',
      '/api/stations/1/camera/front.jpg?t=abc',
      `/api/stations/1/camera/front.jpg?k=${'x'.repeat(500)}`,
      `/api/stations/${'9'.repeat(40)}/camera/side.jpg`,
    ]) {
      const res = await t.server.app.inject({ method: 'GET', url, remoteAddress: ip });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json()).toEqual({
        error_code: expect.any(Number) as unknown,
        error_info: expect.stringMatching(/[\u3040-\u30ff\u4e00-\u9fff]/) as unknown,
      });
    }
  });
});
