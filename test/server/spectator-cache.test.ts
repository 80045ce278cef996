import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepts } from '../../scripts/lib/daemon';
import { nginxCacheConfig, nginxWorkers, readCacheLog, startNginx, nginxFiles } from '../../scripts/lib/nginx';
import { LlHlsClient, originLoad } from '../support/ll-hls-client';
import { freePort } from '../support/server-process';
import { playableStation } from '../support/stations';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The spectators' LL-HLS through a real HTTP cache (issue 44): Debian's nginx with the
 * configuration of scripts/lib/nginx.ts in front of the server, a camera published over WHIP, and
 * a crowd of simulated low-latency players (test/support/ll-hls-client.ts) reading the stream
 * through the cache. However many ask, each part costs the origin its own request and the
 * blocking reload that waited for it.
 */
const CLIENTS = 200;
/** Parts every client receives before the crowd stops: 10 s of video. */
const PARTS = 20;

let t: TestServer;
let station = 0;
let cameras: TestCameras;
let dir = '';
let nginx: Awaited<ReturnType<typeof startNginx>> | null = null;
let nginxPort = 0;
/** The HLS requests the origin received (its HTTP server's own count, beside nginx's log). */
const originRequests: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, listen: true });
  station = (await playableStation(t)).station_id;
  cameras = await TestCameras.issue(t, [station]);
  t.server.app.server.on('request', (request: { url?: string }) => {
    if (request.url?.includes('/hls/')) originRequests.push(request.url);
  });
  dir = mkdtempSync(join(tmpdir(), 'onkure-nginx-'));
  nginxPort = await freePort();
  nginx = await startNginx(
    join(dir, 'nginx.conf'),
    nginxCacheConfig({ port: nginxPort, origin: t.origin, dir }),
    nginxPort,
  );
}, 30_000);
afterAll(async () => {
  await cameras?.stopAll();
  await nginx?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

const alive = (pid: number) => existsSync(`/proc/${pid}`);

describe("the spectators' LL-HLS through nginx's cache", () => {
  it('200 low-latency players through nginx each get every part in order, and each part costs the origin at most its own request and one blocking reload; nginx stops and leaves nothing', async () => {
    await cameras.publish(station, 'front', { size: '640x360' });
    const playlistUrl = `http://127.0.0.1:${nginxPort}/api/stations/${station}/hls/front/index.m3u8`;
    // The first request starts the camera's encoder; the origin holds it until the first segment
    // (up to 6 s, then 503, not kept by the cache): asked again until the stream is live.
    let warmup = 0;
    for (let status = 0; status !== 200;) {
      expect(warmup).toBeLessThan(5);
      warmup += 1;
      status = (await fetch(playlistUrl).then((r) => r.arrayBuffer().then(() => r))).status;
    }

    // Every player keeps its connections (a free one is not closed: Node's default keeps 256).
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
    const clients = Array.from({ length: CLIENTS }, () => new LlHlsClient(playlistUrl, agent));
    // The crowd stops once every client has received PARTS parts (or one has failed).
    const enough = new Promise<void>((resolve) => {
      const check = () => {
        if (clients.every((c) => c.received.length >= PARTS) || clients.some((c) => c.failures.length > 0)) resolve();
      };
      for (const client of clients) client.onProgress = check;
    });
    const runs = clients.map((client) => client.run());
    // A crowd that stalls fails here, saying where each client is and what the origin runs, not at
    // the test's timeout with nothing to go on.
    let deadline: NodeJS.Timeout | undefined;
    const stalled = await Promise.race([
      enough.then(() => null),
      new Promise<string>((resolve) => {
        deadline = setTimeout(() => {
          const where = clients
            .map((c, i) => `client ${i}: ${c.describe()}`)
            .filter((_, i, all) => i < 5 || all.length - i <= 5);
          resolve([`encoders: ${JSON.stringify(t.server.services().hls.running())}`, ...where].join('\n'));
        }, 45_000);
      }),
    ]);
    clearTimeout(deadline);
    for (const client of clients) client.stop();
    await Promise.all(runs);
    agent.destroy();

    expect(stalled).toBeNull();
    // Every client: no failure, every part from its start on, each following the one before.
    expect(clients.flatMap((c) => c.failures)).toEqual([]);
    expect(Math.min(...clients.map((c) => c.received.length))).toBeGreaterThanOrEqual(PARTS);
    const breaks = clients.flatMap((c) =>
      c.received.slice(1).filter((part, i) => {
        const before = c.received[i]!;
        return before.decodeTime + before.duration !== part.decodeTime;
      }),
    );
    expect(breaks).toEqual([]);

    // nginx's log holds every request the clients made, and says which went to the origin.
    const master = nginx!.process;
    // Its worker, and the cache's manager and loader.
    const workers = nginxWorkers(master.pid!);
    expect(workers.length).toBeGreaterThanOrEqual(2);
    await nginx!.stop();
    const lines = readCacheLog(nginxFiles(dir).accessLog);
    expect(lines.length).toBe(warmup + clients.reduce((sum, c) => sum + c.requests, 0));
    const load = originLoad(lines);
    expect(load.epochs.size).toBe(1);
    // The origin's own count agrees with nginx's log: the log is not what is counting wrong.
    expect(load.originRequests).toBe(originRequests.length);
    // Each part: at least one origin request (the cache started empty, so a log that counts none
    // is wrong), at most two (the part, and the blocking reload that waited for it).
    const perPart = [...load.perPart.values()];
    expect(perPart.length).toBeGreaterThanOrEqual(PARTS);
    expect(Math.min(...perPart)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...perPart)).toBeLessThanOrEqual(2);
    // In all, the origin answered a small share of the crowd's requests (200 clients: about 1 in 100).
    expect(load.clientRequests).toBeGreaterThan(CLIENTS * PARTS * 2);
    expect(load.originRequests * 50).toBeLessThan(load.clientRequests);

    // Nothing of nginx is left: its master and workers ended, its port closed, its directory gone.
    expect(master.exitCode !== null || master.signalCode !== null).toBe(true);
    expect([master.pid!, ...workers].filter(alive)).toEqual([]);
    expect(await accepts(nginxPort)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
    expect(existsSync(dir)).toBe(false);
  }, 90_000);
});
