/**
 * Live-feed benchmark (`npm run bench:feed`). Starts the reference server as its own process (so
 * it has a core to itself on a 2-core machine) and prints, in one run:
 *
 * 1. control input → first still showing the move: players on several stations send their button
 *    commands over socket.io; a viewer per station polls the front camera the way the client does
 *    (the next request 90 ms after the previous answer) and reads each picture's tick header. The
 *    latency of a command is from sending it to the arrival of the first picture whose tick is
 *    later than the tick the server applied it at (p50 / p95 / p99);
 * 2. stills received per second per camera by that viewer, and distinct machine ticks shown;
 * 3. how many still fetches a second one core serves: N simulated viewers, each fetching front and
 *    side every 100 ms (10 fps), for N = 50 … 400; the achieved rate, p50 / p99 latency and the
 *    server process's CPU, and the largest N whose p99 stays within 50 ms;
 * 4. the cost of drawing one picture (a moving claw is drawn once per tick per camera).
 *
 *   npx tsx bench/feed.ts [stations=4] [playsPerStation=3]
 */
import { spawn } from 'node:child_process';
import { Agent, get } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ControlAck, ServerToClientEvents } from '../src/contract';
import { renderFrame } from '../server/play/cameras/camera-renderer';
import { layPrizes } from '../server/play/crane/crane-machine';

const stationCount = Number(process.argv[2] ?? 4);
const playsPerStation = Number(process.argv[3] ?? 3);
const STILL_INTERVAL_MS = 90;

const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const fmt = (n: number) => n.toFixed(1).padStart(6);

/** Keep-alive GETs with node:http (far less client CPU per request than fetch, so the load generator keeps up). */
const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
function fetchStill(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    }).on('error', reject);
  });
}

/** CPU seconds (user + system) the server process used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-bench-feed-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: '', LOG_LEVEL: 'warn', ONKURE_DEV_CALLS: '1', NODE_ENV: 'development' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const origin = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; ; i += 1) {
    if (i > 300) throw new Error('server did not start');
    const ok = await fetch(`${origin}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    await sleep(100);
  }
  const post = async <T>(path: string, body: object) => (await fetch(`${origin}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<T>;
  type Station = { station_id: number; station_status: string; type: string; designated_type: string };
  type Play = { play: { play_id: number; phase: string } | null };
  const top = await post<{ sale_list: { list: Station[] }[] }>('contents/top_page_prize', { shop_id: 1, is_top_page: 1 });
  const stations: number[] = [...new Set(top.sale_list.flatMap((s) => s.list).filter((s) => s.station_status === 'open' && s.type === 'normal' && s.designated_type === 'normal').map((s) => s.station_id))].slice(0, stationCount);

  // ---- 1 and 2: input → picture latency, stills per second ----------------------------------
  const latencies: number[] = [];
  const fpsSamples: number[] = [];
  const ticksPerSecond: number[] = [];
  await Promise.all(stations.map(async (stationId, index) => {
    const who = await post<{ user_id: number; access_token: string }>('auth/debug_login', { name: `bench-${index}` });
    const identity = { user_id: who.user_id, access_token: who.access_token };
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(origin, { path: '/socket.io', transports: ['websocket'], auth: identity });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    // The viewer: polls the front camera like the client (next request 90 ms after an answer).
    let latestTick = 0;
    const waiters: { after: number; resolve: (at: number) => void }[] = [];
    let viewing = true;
    let frames = 0;
    const ticksSeen = new Set<number>();
    const viewStart = performance.now();
    const viewer = (async () => {
      while (viewing) {
        const res = await fetch(`${origin}/api/stations/${stationId}/camera/front.jpg?t=${Date.now()}`);
        await res.arrayBuffer();
        const at = performance.now();
        latestTick = Number(res.headers.get('x-onkure-tick') ?? 0);
        frames += 1;
        ticksSeen.add(latestTick);
        for (const w of waiters.splice(0)) {
          if (latestTick > w.after) w.resolve(at);
          else waiters.push(w);
        }
        await sleep(STILL_INTERVAL_MS);
      }
    })();
    const command = async (playId: number, button: 'right' | 'back', cmd: 'press' | 'release') => {
      const sentAt = performance.now();
      const ack = await new Promise<ControlAck>((resolve) => socket.emit('control', { play_id: playId, button, command: cmd }, resolve));
      if (!ack.ok) return;
      const shownAt = await new Promise<number>((resolve) => waiters.push({ after: ack.tick, resolve }));
      latencies.push(shownAt - sentAt);
    };
    await post('v2/play/reserve', { ...identity, station_id: stationId });
    let play = (await post<Play>('v2/play/confirm', { ...identity, station_id: stationId })).play!;
    for (let n = 0; n < playsPerStation; n += 1) {
      while ((await post<Play>('v2/play/current', identity)).play?.phase !== 'playing') await sleep(100);
      await command(play.play_id, 'right', 'press');
      await sleep(400 + index * 50);
      await command(play.play_id, 'right', 'release');
      await command(play.play_id, 'back', 'press');
      await sleep(300 + index * 40);
      await command(play.play_id, 'back', 'release');
      while ((await post<Play>('v2/play/current', identity)).play?.phase !== 'result') await sleep(200);
      if (n + 1 < playsPerStation) play = (await post<Play>('v2/play/continue', { ...identity, play_id: play.play_id })).play!;
    }
    await post('v2/play/finish', { ...identity, play_id: play.play_id });
    viewing = false;
    await viewer;
    const seconds = (performance.now() - viewStart) / 1000;
    fpsSamples.push(frames / seconds);
    ticksPerSecond.push(ticksSeen.size / seconds);
    socket.close();
  }));

  // ---- 3: still fetches a second per core -----------------------------------------------------
  const rounds: { viewers: number; rps: number; p50: number; p99: number; cpu: number; perCore: number }[] = [];
  for (const viewers of [50, 100, 200, 300, 400, 500]) {
    const times: number[] = [];
    const durationMs = 4000;
    const cpuBefore = cpuSeconds(server.pid!);
    const started = performance.now();
    await Promise.all(Array.from({ length: viewers }, async (_, v) => {
      const stationId = stations[v % stations.length]!;
      // Spread the viewers' phases over the 100 ms period.
      await sleep((v * 100) / viewers);
      while (performance.now() - started < durationMs) {
        const slot = performance.now();
        await Promise.all((['front', 'side'] as const).map(async (camera) => {
          const t0 = performance.now();
          await fetchStill(`${origin}/api/stations/${stationId}/camera/${camera}.jpg?t=${Date.now()}`);
          times.push(performance.now() - t0);
        }));
        await sleep(Math.max(0, 100 - (performance.now() - slot)));
      }
    }));
    const elapsed = (performance.now() - started) / 1000;
    const cpu = (cpuSeconds(server.pid!) - cpuBefore) / elapsed;
    const rps = times.length / elapsed;
    rounds.push({ viewers, rps, p50: pct(times, 50), p99: pct(times, 99), cpu, perCore: rps / Math.max(cpu, 0.01) });
  }

  // ---- 4: drawing cost -------------------------------------------------------------------------
  const scene = { x: 420, z: 380, h: 0.4, grip: 0.3, prizes: layPrizes(5, 3), carryingPrizeId: null, dimmed: false };
  renderFrame('front', scene);
  const drawStart = performance.now();
  let bytes = 0;
  for (let i = 0; i < 100; i += 1) bytes = renderFrame(i % 2 ? 'front' : 'side', { ...scene, x: 420 + i }).length;
  const drawMs = (performance.now() - drawStart) / 100;

  console.log(`live feed — ${stations.length} stations × ${playsPerStation} plays, server in its own process (Node ${process.versions.node})`);
  console.log(`  control → first still showing it (${latencies.length} commands): p50 ${fmt(pct(latencies, 50))} ms  p95 ${fmt(pct(latencies, 95))} ms  p99 ${fmt(pct(latencies, 99))} ms  (goal p95 ≤ 150 ms)`);
  console.log(`  stills per second per camera (one viewer, 90 ms after each answer): ${fmt(pct(fpsSamples, 50))}  distinct ticks shown per second: ${fmt(pct(ticksPerSecond, 50))}`);
  console.log(`  drawing one 480×360 picture: ${drawMs.toFixed(2)} ms, ${bytes} bytes JPEG`);
  console.log('  still fetches served (each viewer: front + side every 100 ms):');
  for (const r of rounds) {
    console.log(`    ${String(r.viewers).padStart(3)} viewers  ${r.rps.toFixed(0).padStart(5)} fetches/s  p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  server CPU ${(r.cpu * 100).toFixed(0).padStart(3)}%  ≈ ${r.perCore.toFixed(0)} fetches/s per core`);
  }
  const best = rounds.filter((r) => r.p99 <= 50).at(-1);
  console.log(`  most viewers with p99 ≤ 50 ms: ${best ? `${best.viewers} (${best.rps.toFixed(0)} fetches/s)` : 'none'}  (goal ≥ 200 viewers × 2 cameras × 10 fps = 4000 fetches/s per core)`);
} finally {
  agent.destroy();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
