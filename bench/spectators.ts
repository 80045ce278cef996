/**
 * Spectators benchmark (`npm run bench:spectators`, issue 44): a station's LL-HLS through a real
 * HTTP cache. Starts the reference server as its own process (as bench/feed.ts does), the demo's
 * sim agent publishing its painted cameras with the machine's tick written into each picture
 * (RTC_TICK_MARKER=1), and Debian's nginx in front with the configuration of scripts/lib/nginx.ts.
 * Prints:
 *
 * 1. for 10 and then 1,000 simulated low-latency players (test/support/ll-hls-client.ts: blocking
 *    playlist reloads and each new part, as hls.js asks), each phase 60 s once they have all
 *    joined: origin requests per part (max and mean, from nginx's log: the part's own and the
 *    blocking reloads that waited for it), the players' requests, the origin's CPU (the server's
 *    Node process; its HLS encoder, an ffmpeg child, apart), nginx's CPU, and failures;
 * 2. glass-to-glass latency in Chromium: a page (served by this benchmark) plays the station's
 *    front camera through nginx with hls.js in low-latency mode while a crowd of simulated players
 *    watches too and a player in this process plays sessions, so that the machine ticks. Each
 *    presented video frame's tick marker is read (requestVideoFrameCallback and a canvas, as
 *    bench/feed.ts does for rtc); the time the machine was at that tick comes from the control
 *    answers (each names the server's mirror of the machine's tick when it handled the command;
 *    the machine ticks every CRANE.tickMs while a play runs). Latency: a tick's first presented
 *    frame − the time the machine reached it, p50 / p95 / max over the distinct ticks shown.
 *
 * Where it runs: the server (and its HLS encoder, which inherits it) on core 0; this process, the
 * simulated players, nginx, Chromium and the sim agent (a cabinet's own computer in production)
 * on core 1 (taskset), when there are two cores; from 500 players on, half of them run in a helper
 * process on core 0 (bench/spectator-crowd.ts): one core does not keep up with a thousand players'
 * requests beside nginx, and a player that falls behind asks what the cache no longer holds.
 * BENCH_NO_PIN=1 runs everything unpinned, in this process.
 *
 *   npx tsx bench/spectators.ts [--clients=10,1000] [--seconds=60] [--latency-seconds=30] [--latency-crowd=100]
 *     [--ramp=5000]  (ms over which each crowd joins)
 *   Smallest (npm test's smoke run): --clients=2 --seconds=1 --latency-seconds=1 --latency-crowd=2 --ramp=200.
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ControlAck, ServerToClientEvents } from '../src/contract';
import { TICK_MARKER } from '../media/cameras/camera-renderer';
import { CRANE } from '../src/domain/play/crane-machine';
import { demoMachineFile, spawnDemoAgent } from '../scripts/server-process.mjs';
import { nginxCacheConfig, nginxFiles, nginxWorkers, readCacheLog, startNginx } from '../scripts/lib/nginx';
import { LlHlsClient, originLoad } from '../test/support/ll-hls-client';
import type { CrowdMessage, CrowdResult } from './spectator-crowd';
import {
  cpuSeconds,
  failWithRefusals,
  feedServerCommand,
  fmt,
  freePort,
  now,
  pct,
  postJson,
  setUp,
  sleep,
} from './support';

failWithRefusals();

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const CLIENT_COUNTS = arg('clients', '10,1000').split(',').map(Number);
const PHASE_S = Number(arg('seconds', '60'));
const LATENCY_S = Number(arg('latency-seconds', '30'));
const LATENCY_CROWD = Number(arg('latency-crowd', '100'));
/** Players join over this long (spectators arrive; a thousand connections at one instant is a SYN flood). */
const RAMP_MS = Number(arg('ramp', '5000'));
/** A crowd this large is split between this process and a helper on the other core (crowd()). */
const HELPER_FROM = 500;

const benchStarted = performance.now();
const pinning = ((): { server: string; bench: string } | null => {
  if (process.env.BENCH_NO_PIN || availableParallelism() < 2) return null;
  try {
    // Every thread of this process; nginx, Chromium and the agent, started later, inherit it.
    execSync(`taskset -a -p -c 1 ${process.pid}`, { stdio: 'ignore' });
    return { server: '0', bench: '1' };
  } catch {
    return null;
  }
})();
const placement = pinning
  ? `server (and its HLS encoder) on core ${pinning.server}; nginx, the simulated players, Chromium and the sim agent on core ${pinning.bench} (taskset); from ${HELPER_FROM} players, half of them in a helper process on core ${pinning.server}`
  : `unpinned: everything shares all ${availableParallelism()} cores`;
console.log(`placement: ${placement}`);

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-bench-spectators-'));
const agentDir = mkdtempSync(join(tmpdir(), 'onkure-bench-spectators-agent-'));
const nginxDir = mkdtempSync(join(tmpdir(), 'onkure-bench-spectators-nginx-'));
let machineAgent: ReturnType<typeof spawn> | null = null;
let nginx: Awaited<ReturnType<typeof startNginx>> | null = null;
let stopping = false;
const serverCommand = feedServerCommand();
const server = spawn(
  pinning ? 'taskset' : serverCommand[0]!,
  pinning ? ['-c', pinning.server, ...serverCommand] : serverCommand.slice(1),
  {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      LOG_LEVEL: 'warn',
      ONKURE_DEV_CALLS: '1',
      NODE_ENV: 'development',
      ONKURE_DEMO_AGENT_DIR: agentDir,
      RTC_TICK_MARKER: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
server.once('exit', (code, signal) => {
  if (!stopping) {
    console.error(`bench:spectators: the server ended during the run (${signal ?? `exit code ${code}`})`);
    process.exit(1);
  }
});
const origin = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--autoplay-policy=no-user-gesture-required',
  ],
});
// Every player keeps its connections (a free one is not closed: the default keeps 256).
const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });

/** The server's HLS encoder (its ffmpeg child making H.264), if it runs. */
function encoderPid(): number | null {
  const children = readdirSync(`/proc/${server.pid}/task`).flatMap((tid) => {
    try {
      return readFileSync(`/proc/${server.pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  });
  for (const pid of children) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('libx264')) return Number(pid);
    } catch {
      // gone
    }
  }
  return null;
}

try {
  for (let i = 0; ; i += 1) {
    if (i > 300) throw new Error('server did not start');
    if (
      await fetch(`${origin}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  if (!(await demoMachineFile(agentDir, 30_000)))
    throw new Error('the server wrote no machine file for the demo agent');
  // The agent paints the machine's tick into its cameras' pictures: the HLS made from them carries it.
  machineAgent = spawnDemoAgent(process.cwd(), agentDir, { ...process.env, RTC_TICK_MARKER: '1' }, [
    'ignore',
    'ignore',
    'inherit',
  ]);
  if (pinning && machineAgent.pid) execSync(`taskset -a -pc ${pinning.bench} ${machineAgent.pid}`, { stdio: 'ignore' });
  for (let i = 0; (await fetch(`${origin}/healthz/agents`).then((r) => r.status)) !== 200; i += 1) {
    if (i > 300) throw new Error("the stations' agent did not connect");
    await sleep(100);
  }
  // Every HTTP call here sets up what is measured (the player, the play, the station) or reads it:
  // a refusal stops the bench with it. The measured commands go over the socket (counted below).
  const post = async <T extends object>(path: string, body: object) =>
    setUp(postJson<T>(`${origin}/api/${path}`, body), path);
  type Station = { station_id: number; station_status: string; type: string; designated_type: string };
  const top = await post<{ sale_list: { list: Station[] }[] }>('contents/top_page_prize', {
    shop_id: 1,
    is_top_page: 1,
  });
  // A normal open station: its stream needs no media token, so the cache may share it.
  const stationId = top.sale_list
    .flatMap((s) => s.list)
    .find((s) => s.station_status === 'open' && s.type === 'normal' && s.designated_type === 'normal')!.station_id;

  const nginxPort = await freePort();
  nginx = await startNginx(
    join(nginxDir, 'nginx.conf'),
    nginxCacheConfig({ port: nginxPort, origin, dir: nginxDir }),
    nginxPort,
  );
  const nginxOrigin = `http://127.0.0.1:${nginxPort}`;
  const playlistUrl = `${nginxOrigin}/api/stations/${stationId}/hls/front/index.m3u8`;
  // The first request asks the agent for the camera and starts the encoder; the origin holds it
  // until the first segment (6 s at most, then 503).
  for (let i = 0; (await fetch(playlistUrl).then((r) => r.arrayBuffer().then(() => r.status))) !== 200; i += 1)
    if (i > 10) throw new Error('the stream did not start');
  const nginxVersion = execSync('/usr/sbin/nginx -v 2>&1')
    .toString()
    .trim()
    .replace(/^nginx version: /, '');

  /**
   * A crowd of simulated players, joining over RAMP_MS; `stop()` ends them and resolves with what
   * they got once all have ended. A large crowd (HELPER_FROM players or more, two cores) is split:
   * half in this process, half in a helper process (bench/spectator-crowd.ts) on the server's
   * core, which its few percent leave idle: a thousand players' requests are more than one core's
   * work beside nginx's, and a player that falls behind asks what a cache no longer holds.
   */
  const crowd = async (count: number) => {
    const helperCount = pinning && count >= HELPER_FROM ? Math.floor(count / 2) : 0;
    const clients = Array.from({ length: count - helperCount }, () => new LlHlsClient(playlistUrl, agent));
    let helper: ChildProcess | null = null;
    let result: Promise<CrowdResult> | null = null;
    if (helperCount > 0) {
      const crowdScript = join(process.cwd(), 'bench/spectator-crowd.ts');
      helper = spawn('taskset', ['-c', pinning!.server, process.execPath, '--import', 'tsx', crowdScript], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const answers = (type: string) =>
        new Promise<unknown>((resolve, reject) => {
          const onMessage = (message: { type: string }) => {
            if (message.type !== type) return;
            helper!.off('message', onMessage);
            resolve(message);
          };
          helper!.on('message', onMessage);
          helper!.once('exit', (code) => reject(new Error(`the players' helper process ended (${code})`)));
        });
      await answers('ready');
      result = answers('result') as Promise<CrowdResult>;
      result.catch(() => undefined);
      helper.send({ type: 'start', url: playlistUrl, count: helperCount, rampMs: RAMP_MS } satisfies CrowdMessage);
    }
    const runs = clients.map(async (client, i) => {
      await sleep((i * RAMP_MS) / clients.length);
      await client.run();
    });
    return {
      clients,
      /** The helper process, if any (its CPU is the players' too). */
      helper: helper?.pid ?? null,
      async stop(): Promise<{ requests: number; failures: string[]; received: number[] }> {
        for (const client of clients) client.stop();
        helper?.send({ type: 'stop' } satisfies CrowdMessage);
        await Promise.all(runs);
        const other = result ? await result : { requests: 0, failures: [], received: [] };
        return {
          requests: clients.reduce((sum, c) => sum + c.requests, 0) + other.requests,
          failures: [...clients.flatMap((c) => c.failures), ...other.failures],
          received: [...clients.map((c) => c.received.length), ...other.received],
        };
      },
    };
  };
  const nginxPids = () => [nginx!.process.pid!, ...nginxWorkers(nginx!.process.pid!)];
  const cpuOf = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

  // ---- 1: origin requests per part and the origin's CPU, 10 and 1,000 players --------------------
  type Phase = {
    clients: number;
    seconds: number;
    perPartMax: number;
    perPartMean: number;
    parts: number;
    clientRequests: number;
    originRequests: number;
    failures: number;
    failed: string[];
    received: number;
    server: number;
    encoder: number;
    nginx: number;
    players: number;
    receivedMin: number;
    helper: boolean;
  };
  const phases: Phase[] = [];
  for (const count of CLIENT_COUNTS) {
    const logFrom = statSync(nginxFiles(nginxDir).accessLog).size;
    const group = await crowd(count);
    await sleep(RAMP_MS);
    const encoder = encoderPid();
    const before = {
      at: performance.now(),
      server: cpuSeconds(server.pid!),
      encoder: encoder ? cpuSeconds(encoder) : 0,
      nginx: cpuOf(nginxPids()),
      players: process.cpuUsage(),
      helper: group.helper ? cpuSeconds(group.helper) : 0,
    };
    await sleep(PHASE_S * 1000);
    const seconds = (performance.now() - before.at) / 1000;
    const used = {
      server: (cpuSeconds(server.pid!) - before.server) / seconds,
      encoder: encoder ? (cpuSeconds(encoder) - before.encoder) / seconds : NaN,
      nginx: (cpuOf(nginxPids()) - before.nginx) / seconds,
      players: (() => {
        const d = process.cpuUsage(before.players);
        const helper = group.helper ? cpuSeconds(group.helper) - before.helper : 0;
        return ((d.user + d.system) / 1e6 + helper) / seconds;
      })(),
    };
    const got = await group.stop();
    const lines = readCacheLog(nginxFiles(nginxDir).accessLog, logFrom);
    const load = originLoad(lines);
    // The parts made during the phase (the first ones may have been fetched in the one before).
    const perPart = [...load.perPart.values()].filter((n) => n > 0);
    const failed = got.failures;
    phases.push({
      clients: count,
      seconds,
      perPartMax: Math.max(...perPart),
      perPartMean: perPart.reduce((a, b) => a + b, 0) / perPart.length,
      parts: perPart.length,
      clientRequests: got.requests,
      originRequests: load.originRequests,
      failures: failed.length,
      failed: [...new Set(failed)].slice(0, 5),
      received: got.received.reduce((a, b) => a + b, 0) / count,
      receivedMin: Math.min(...got.received),
      helper: group.helper !== null,
      ...used,
    });
    console.log(`  phase with ${count} players done`);
  }

  // ---- 2: glass to glass in Chromium, hls.js low-latency mode through nginx -------------------
  const page = await browser.newPage({ viewport: { width: 800, height: 800 } });
  // The page and hls.js are served by this benchmark at nginx's origin (the stream is then
  // same-origin: no CORS, and the canvas may read the video); the stream itself goes to nginx.
  const hlsJs = readFileSync('node_modules/hls.js/dist/hls.min.js', 'utf8');
  const hlsVersion = (JSON.parse(readFileSync('node_modules/hls.js/package.json', 'utf8')) as { version: string })
    .version;
  await page.route(`${nginxOrigin}/bench/**`, (route) =>
    route.request().url().endsWith('/hls.min.js')
      ? route.fulfill({ contentType: 'text/javascript', body: hlsJs })
      : route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><meta charset="utf-8"><title>spectator</title>
<video id="video" muted autoplay playsinline></video>
<script src="/bench/hls.min.js"></script>`,
        }),
  );
  await page.goto(`${nginxOrigin}/bench/spectator.html`);
  const { bits, cell, x, y } = TICK_MARKER;
  // Every presented frame: drawn to a canvas, the tick marker's squares read back (as bench/feed.ts).
  await page.evaluate(`(() => {
    const frames = [];
    window.__frames = frames;
    window.__errors = [];
    const video = document.getElementById('video');
    const hls = new Hls({ lowLatencyMode: true });
    hls.on(Hls.Events.ERROR, (_, data) => { if (data.fatal) window.__errors.push(data.details); });
    hls.loadSource(${JSON.stringify(playlistUrl)});
    hls.attachMedia(video);
    window.__hls = hls;
    const canvas = new OffscreenCanvas(${x + bits * cell}, ${y + cell});
    const g = canvas.getContext('2d', { willReadFrequently: true });
    function onFrame(presented) {
      g.drawImage(video, 0, 0);
      const pixels = g.getImageData(0, 0, canvas.width, canvas.height).data;
      let tick = 0;
      for (let bit = 0; bit < ${bits}; bit += 1) {
        const i = (${y + cell / 2} * canvas.width + ${x} + bit * ${cell} + ${cell / 2}) * 4;
        tick = tick * 2 + (pixels[i] + pixels[i + 1] + pixels[i + 2] > 384 ? 1 : 0);
      }
      frames.push([tick, performance.timeOrigin + presented]);
      video.requestVideoFrameCallback(onFrame);
    }
    video.requestVideoFrameCallback(onFrame);
  })()`);
  await page.waitForFunction('window.__frames.length > 30 || window.__errors.length > 0', null, { timeout: 30_000 });
  const group = await crowd(LATENCY_CROWD);
  await sleep(RAMP_MS);

  // A player plays sessions while the page watches: the machine ticks only while a play runs.
  const who = await post<{ user_id: number; access_token: string }>('auth/debug_login', { name: 'bench-player' });
  const identity = { user_id: who.user_id, access_token: who.access_token };
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(origin, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: identity,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  type Play = { play: { play_id: number; phase: string } | null };
  /** Each play: its control answers (tick, sent at), and when it started and ended. */
  const plays: { anchors: { tick: number; at: number }[]; start: number; end: number }[] = [];
  /** Commands the server refused (an outcome, printed with the results). */
  let refusedCommands = 0;
  const measureStart = now();
  const timeUp = () => now() - measureStart >= LATENCY_S * 1000;
  // Sessions of up to three plays (a play is about 9 s) until LATENCY_S is up.
  while (!timeUp()) {
    await post('v2/play/reserve', { ...identity, station_id: stationId });
    let play = (await post<Play>('v2/play/confirm', { ...identity, station_id: stationId })).play!;
    for (let n = 0; ; n += 1) {
      const record = { anchors: [] as { tick: number; at: number }[], start: now(), end: 0 };
      plays.push(record);
      // The answer's tick is the server's mirror of the machine, which the agent reports while
      // the claw moves: the first press's (the claw waiting at home, nothing reported since the
      // start) names a tick long past, and is no anchor.
      const command = async (button: 'right' | 'back', cmd: 'press' | 'release', anchor = true) => {
        const at = now();
        const ack = await new Promise<ControlAck>((resolve) =>
          socket.emit('control', { play_id: play.play_id, button, command: cmd }, resolve),
        );
        if (ack.ok && anchor) record.anchors.push({ tick: ack.tick, at });
        if (!ack.ok) refusedCommands += 1;
      };
      while ((await post<Play>('v2/play/current', identity)).play?.phase !== 'playing') await sleep(100);
      await command('right', 'press', false);
      await sleep(700 + n * 90);
      await command('right', 'release');
      await sleep(150);
      await command('back', 'press');
      await sleep(500 + n * 70);
      await command('back', 'release');
      while ((await post<Play>('v2/play/current', identity)).play?.phase !== 'result') await sleep(200);
      record.end = now();
      if (n === 2 || timeUp()) break;
      play = (await post<Play>('v2/play/continue', { ...identity, play_id: play.play_id })).play!;
    }
    await post('v2/play/finish', { ...identity, play_id: play.play_id });
  }
  const measureEnd = now();
  socket.close();
  // The last play's ticks reach the screen a latency later.
  await page.waitForFunction(`window.__frames.at(-1)[1] > ${measureEnd + 4_000}`, null, { timeout: 20_000 });
  const frames = ((await page.evaluate('window.__frames')) as [number, number][]).filter(
    ([, at]) => at >= measureStart && at <= measureEnd + 10_000,
  );
  const pageErrors = (await page.evaluate('window.__errors')) as string[];
  await page.close();
  const crowdFailures = (await group.stop()).failures.length;

  // When the machine was at tick T of a play: from the nearest control answer of that play at or
  // before T (or its first), at CRANE.tickMs a tick. An answer names the server's mirror of the
  // machine's tick when it handled the command, a trip after the send and at most a report's trip
  // behind the agent: its send time stands for that tick's time, within a few ms either way.
  const tickTime = (p: (typeof plays)[number], tick: number): number | null => {
    const anchor = p.anchors.findLast((a) => a.tick <= tick) ?? p.anchors[0];
    return anchor ? anchor.at + (tick - anchor.tick) * CRANE.tickMs : null;
  };
  if (process.env.BENCH_DEBUG)
    for (const p of plays)
      console.log(
        `play ${(p.start - measureStart).toFixed(0)}–${(p.end - measureStart).toFixed(0)} ms: answers (tick@ms) ${p.anchors.map((a) => `${a.tick}@${(a.at - measureStart).toFixed(0)}`).join(' ')}`,
      );
  /** Each shown tick's first frame: its play, when the machine was at it, when it was shown. */
  const shown: { play: number; tick: number; at: number; latency: number }[] = [];
  const seen = new Set<string>();
  for (const [tick, at] of frames) {
    // Tick 0 is also what an idle machine shows (no play): no time of its own.
    if (tick === 0) continue;
    // The play it belongs to: ticks start again at each play, so the one whose tick T came
    // before this frame the least time before it (within 10 s), not past the play's end.
    let best: { play: number; latency: number } | null = null;
    plays.forEach((p, i) => {
      const t = tickTime(p, tick);
      if (t === null || t > at || t < p.start - 1_000 || t > p.end + 1_000 || at - t > 10_000) return;
      if (!best || at - t < best.latency) best = { play: i, latency: at - t };
    });
    if (!best) continue;
    const { play, latency } = best;
    // A tick's first frame only: the machine was at it once; later frames showing it are its stills.
    const key = `${play}:${tick}`;
    if (seen.has(key)) continue;
    seen.add(key);
    shown.push({ play, tick, at, latency });
  }
  const latencies = shown.map((s) => s.latency);
  if (process.env.BENCH_DEBUG)
    plays.forEach((_, i) =>
      console.log(
        `play ${i}: shown (tick@ms:latency) ${shown
          .filter((s) => s.play === i)
          .filter((_, j) => j % 10 === 0)
          .map((s) => `${s.tick}@${(s.at - measureStart).toFixed(0)}:${s.latency.toFixed(0)}`)
          .join(' ')}`,
      ),
    );
  // Checks of the mapping: the machine's pace between each play's control answers, and the pace
  // its ticks were shown at over the whole play (both should be CRANE.tickMs a tick).
  const paces = plays
    .filter((p) => p.anchors.length >= 2)
    .map((p) => (p.anchors.at(-1)!.at - p.anchors[0]!.at) / (p.anchors.at(-1)!.tick - p.anchors[0]!.tick));
  const shownPaces = plays
    .map((_, i) => shown.filter((s) => s.play === i))
    .filter((s) => s.length >= 20)
    .map((s) => (s.at(-1)!.at - s[0]!.at) / (s.at(-1)!.tick - s[0]!.tick));

  console.log(
    `spectators — station ${stationId}'s front camera as LL-HLS (0.5 s parts, 2 s segments) through nginx ${nginxVersion}; server in its own process (Node ${process.versions.node}), Chromium ${browser.version()}, hls.js ${hlsVersion}`,
  );
  console.log(`  placement: ${placement}`);
  console.log(
    '  simulated low-latency players (blocking reload + each new part) through nginx; CPU as % of a core over the phase:',
  );
  for (const p of phases) {
    console.log(
      `    ${String(p.clients).padStart(5)} players ${p.seconds.toFixed(0)} s: origin requests per part max ${p.perPartMax} mean ${p.perPartMean.toFixed(2)} (${p.parts} parts); requests: players ${p.clientRequests} (${(p.clientRequests / p.seconds).toFixed(0)}/s), origin ${p.originRequests} in all; failures ${p.failures}${p.failed.length ? ` (${p.failed.join('; ')})` : ''}; parts per player ${p.received.toFixed(0)} (fewest ${p.receivedMin})`,
    );
    console.log(
      `          CPU: server ${(p.server * 100).toFixed(1)}%, its HLS encoder (ffmpeg) ${(p.encoder * 100).toFixed(1)}%, nginx ${(p.nginx * 100).toFixed(1)}%, the players ${(p.players * 100).toFixed(1)}%${p.helper ? ' (half of them in a helper process on core 0)' : ''}`,
    );
  }
  console.log(
    `  glass to glass in Chromium (hls.js lowLatencyMode through nginx, ${LATENCY_CROWD} simulated players beside it, ${plays.length} plays in ${((measureEnd - measureStart) / 1000).toFixed(0)} s): machine tick → its first presented frame p50 ${fmt(pct(latencies, 50))} ms  p95 ${fmt(pct(latencies, 95))} ms  max ${fmt(Math.max(...latencies))} ms  (${latencies.length} ticks)`,
  );
  console.log(
    `    frames presented ${(frames.filter(([, at]) => at <= measureEnd).length / ((measureEnd - measureStart) / 1000)).toFixed(1)}/s; ms a tick (nominal ${CRANE.tickMs}): between a play's control answers ${paces.map((p) => p.toFixed(1)).join(' ')}, as shown over a play ${shownPaces.map((p) => p.toFixed(1)).join(' ')}; hls.js fatal errors ${pageErrors.length}${pageErrors.length ? ` (${pageErrors.join(', ')})` : ''}; the players' failures ${crowdFailures}; commands refused ${refusedCommands}`,
  );
  console.log(`  the benchmark ran ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
} finally {
  stopping = true;
  agent.destroy();
  await nginx?.stop();
  rmSync(nginxDir, { recursive: true, force: true });
  if (machineAgent && machineAgent.exitCode === null) {
    machineAgent.kill('SIGTERM');
    await new Promise((resolve) => machineAgent!.once('exit', resolve));
  }
  rmSync(agentDir, { recursive: true, force: true });
  await browser.close();
  if (server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
}
