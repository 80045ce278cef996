/**
 * Live-feed benchmark (`npm run bench:feed`): the rtc video and the jpg stills side by side, in
 * one run. Starts the reference server as its own process with the built app (building it when
 * dist/client is missing), video on and the tick marker written into the video, and prints:
 *
 * 1. control input → the first frame showing it, p50 / p95 (nearest rank) / max, measured in
 *    Chromium. A page of the real app watches the station in rtc mode (requestVideoFrameCallback
 *    reads the tick marker out of each presented video frame) while a player in this process plays
 *    a session, sending its button commands over socket.io; then a page in jpg mode (each still's
 *    load, with the tick the server stamped on it) watches a second session. Each command's
 *    latency runs from sending it to the first frame whose tick is later than the tick the server
 *    applied it at. Both processes read the same clock (performance.timeOrigin +
 *    performance.now(), epoch-based, on one machine). A player watches in one mode, so each mode
 *    is measured with only its own page open; `--together` watches one session on both pages.
 * 2. frames per second each page showed while the machine moved, and distinct machine ticks shown.
 * 3. server CPU per viewer at 1, 10, 50, 100 and 200 viewers of one station, each viewer watching
 *    both cameras: rtc viewers are werift peers in this process (the same signaling as
 *    sora-js-sdk), jpg viewers poll front and side like the client (the next still 90 ms after
 *    each answer). CPU is the server process's (forwarding, stills decoding by its ffmpeg children)
 *    and, apart, the sim agent's (painting and encoding its cameras, the cabinet's side), from
 *    /proc, over an 8 s window. It also prints how long a joining rtc viewer waits for its first
 *    keyframe. `--latency-only` skips this part.
 * 4. the cost of drawing one picture (JPEG for a still, raw I420 for the encoder).
 *
 * Where it runs: on a machine with two cores or more (and `taskset`), the server (with its stills
 * decoders, which inherit it) is pinned to core 0 and this process, with Chromium, the sim agent
 * (a cabinet's own computer in production) and the benchmark's own peers and pollers, to core 1,
 * so that the server's CPU is its own and the browser does not take the server's core. The first line printed says which. BENCH_NO_PIN=1 runs
 * everything unpinned.
 *
 *   npx tsx bench/feed.ts [plays=3] [--together] [--latency-only] [--viewers=1,10,50,100,200] [--warmup=3000]
 *     [--window=8000]  (the CPU windows: ms of warm-up, then ms measured, per viewer count)
 *   Smallest (npm test's smoke run, with dist/client built): 1 --viewers=1 --warmup=500 --window=1000.
 *   BENCH_DEBUG=1 also prints each command's latency; BENCH_CPU_PROF=<dir> has the server write a
 *   V8 CPU profile there when it exits.
 */
import { execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ControlAck, ServerToClientEvents } from '../src/contract';
import { renderFrame, renderPixels, TICK_MARKER } from '../media/cameras/camera-renderer';
import { layPrizes } from '../src/domain/play/crane-machine';
import { RtcViewer } from '../test/support/rtc-viewer';
import { demoMachineFile, spawnDemoAgent } from '../scripts/server-process.mjs';
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

const together = process.argv.includes('--together');
const latencyOnly = process.argv.includes('--latency-only');
const plays = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 3);
const VIEWER_COUNTS = (
  process.argv.find((a) => a.startsWith('--viewers='))?.slice('--viewers='.length) ?? '1,10,50,100,200'
)
  .split(',')
  .map(Number);
/** rtc viewers connected at once while the benchmark fills a viewer count. */
const JOIN_BATCH = 10;
const msArg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const WARMUP_MS = msArg('warmup', 3000);
const WINDOW_MS = msArg('window', 8000);
const STILL_INTERVAL_MS = 90;

const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
function fetchStill(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    }).on('error', reject);
  });
}

if (!existsSync('dist/client/index.html')) execSync('npx vite build', { stdio: 'inherit' });

/**
 * Cores: the server on core 0, this process (and Chromium, which it starts, and its peers) on core
 * 1, when there are two and taskset exists. Null: unpinned.
 */
const pinning = ((): { server: string; bench: string } | null => {
  if (process.env.BENCH_NO_PIN || availableParallelism() < 2) return null;
  try {
    // Every thread of this process; Chromium and anything else started later inherits it.
    execSync(`taskset -a -p -c 1 ${process.pid}`, { stdio: 'ignore' });
    return { server: '0', bench: '1' };
  } catch {
    return null;
  }
})();
const placement = pinning
  ? `server (event loop, stills decoders) on core ${pinning.server}; Chromium, the sim agent (painting, encoding), the player, the rtc peers and jpg pollers of this benchmark on core ${pinning.bench} (taskset)`
  : `unpinned: server, Chromium and the benchmark share all ${availableParallelism()} cores`;
console.log(`placement: ${placement}`);

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-bench-feed-'));
// The demo's sim agent drives the stations, a process of its own over the agent protocol, as for `npm start`.
const agentDir = mkdtempSync(join(tmpdir(), 'onkure-bench-feed-agent-'));
let machineAgent: ReturnType<typeof spawn> | null = null;
// BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it exits.
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
let stopping = false;
const serverCommand = feedServerCommand(profile);
const server = spawn(
  pinning ? 'taskset' : serverCommand[0]!,
  pinning ? ['-c', pinning.server, ...serverCommand] : serverCommand.slice(1),
  {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: 'dist/client',
      LOG_LEVEL: 'warn',
      ONKURE_DEV_CALLS: '1',
      NODE_ENV: 'development',
      ONKURE_DEMO_AGENT_DIR: agentDir,
      ONKURE_FEED: 'rtc',
      RTC_TICK_MARKER: '1',
      RTC_MAX_CONNECTIONS_PER_CLIENT: '1000',
      RTC_MAX_VIEWERS_PER_CAMERA: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
// A server that ends during the run ends the run with a message, rather than leaving it waiting.
server.once('exit', (code, signal) => {
  if (!stopping) {
    console.error(`bench:feed: the server ended during the run (${signal ?? `exit code ${code}`})`);
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
  // The server writes the agent's machine file once it listens; every station is played once its agent reports it.
  if (!(await demoMachineFile(agentDir, 30_000)))
    throw new Error('the server wrote no machine file for the demo agent');
  // The agent paints its cameras with the tick marker too: its video, published over WHIP, carries it.
  machineAgent = spawnDemoAgent(process.cwd(), agentDir, { ...process.env, RTC_TICK_MARKER: '1' }, [
    'ignore',
    'ignore',
    'inherit',
  ]);
  // Off the server's core, every thread (the painter's worker too; its encoders inherit it).
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
  type Play = { play: { play_id: number; phase: string } | null };
  const top = await post<{ sale_list: { list: Station[] }[] }>('contents/top_page_prize', {
    shop_id: 1,
    is_top_page: 1,
  });
  const stations = [
    ...new Set(
      top.sale_list
        .flatMap((s) => s.list)
        .filter((s) => s.station_status === 'open' && s.type === 'normal' && s.designated_type === 'normal')
        .map((s) => s.station_id),
    ),
  ];
  const stationId = stations[0]!;

  // ---- 1 and 2: control → first frame, in Chromium, an rtc page and a jpg page ------------------
  /** A shown frame: the tick it shows, when it was shown, and (video) when its last packet arrived. */
  type Frame = [tick: number, at: number, receivedAt?: number];
  const openPage = async (mode: 'rtc' | 'jpg'): Promise<Page> => {
    // bypassCSP: the measuring scripts are evaluated as text, which the app's CSP (rightly) forbids.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await page.addInitScript(
      `(() => { const N = window.RTCPeerConnection; window.__pcs = []; window.RTCPeerConnection = class extends N { constructor(c) { super(c); window.__pcs.push(this); } }; })()`,
    );
    await page.goto(`${origin}/game/${stationId}`);
    // The switch works once the page has started its feed. The page is a spectator's, which watches
    // the station's HLS by default (issue 44); a spectator who picks rtc or jpg gets it and keeps it.
    await page.waitForFunction(
      `document.querySelector('[data-testid="feed-mode"]')?.getAttribute('data-mode') === 'hls'`,
    );
    await page.getByTestId(`mode-${mode}`).click();
    await page.waitForFunction(
      `document.querySelector('[data-testid="feed-mode"]')?.getAttribute('data-mode') === '${mode}'`,
    );
    if (mode === 'rtc') {
      await page.waitForFunction(
        "document.querySelector('.cameras__layer:not([hidden]) video')?.videoWidth === 360",
        null,
        { timeout: 20_000 },
      );
      // Every presented video frame: draw it, read the tick marker's squares back.
      // (Scripts as text: tsx's helpers do not exist in the page.)
      const { bits, cell, x, y } = TICK_MARKER;
      await page.evaluate(`(() => {
        const frames = [];
        window.__frames = frames;
        const video = document.querySelector('.cameras__layer:not([hidden]) video');
        const canvas = new OffscreenCanvas(${x + bits * cell}, ${y + cell});
        const g = canvas.getContext('2d', { willReadFrequently: true });
        function onFrame(presented, meta) {
          g.drawImage(video, 0, 0);
          const pixels = g.getImageData(0, 0, canvas.width, canvas.height).data;
          let tick = 0;
          for (let bit = 0; bit < ${bits}; bit += 1) {
            const i = (${y + cell / 2} * canvas.width + ${x} + bit * ${cell} + ${cell / 2}) * 4;
            tick = tick * 2 + (pixels[i] + pixels[i + 1] + pixels[i + 2] > 384 ? 1 : 0);
          }
          frames.push([tick, performance.timeOrigin + presented, performance.timeOrigin + (meta.receiveTime ?? presented)]);
          video.requestVideoFrameCallback(onFrame);
        }
        video.requestVideoFrameCallback(onFrame);
      })()`);
    } else {
      // Every still the front camera shows: its load, with the tick the server stamped on it.
      await page.evaluate(`(() => {
        const frames = [];
        window.__frames = frames;
        document.addEventListener('load', (event) => {
          const img = event.target;
          if (img.classList && img.classList.contains('cameras__still') && img.closest('.cameras__layer:not([hidden])')) frames.push([Number(img.dataset.tick || 0), performance.timeOrigin + performance.now()]);
        }, true);
      })()`);
    }
    return page;
  };

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
  type Command = { sentAt: number; tick: number };
  /** One player's session of `plays` plays: a right move and a back move each. */
  /** Commands the server refused (an outcome of the load, printed with the results). */
  const refusedCommands: string[] = [];
  const playSession = async (): Promise<{ commands: Command[]; start: number; end: number }> => {
    const commands: Command[] = [];
    const command = async (playId: number, button: 'right' | 'back', cmd: 'press' | 'release') => {
      const sentAt = now();
      const ack = await new Promise<ControlAck>((resolve) =>
        socket.emit('control', { play_id: playId, button, command: cmd }, resolve),
      );
      if (ack.ok) commands.push({ sentAt, tick: ack.tick });
      else refusedCommands.push(`${button} ${cmd}: ${JSON.stringify(ack)}`);
    };
    const start = now();
    await post('v2/play/reserve', { ...identity, station_id: stationId });
    let play = (await post<Play>('v2/play/confirm', { ...identity, station_id: stationId })).play!;
    for (let n = 0; n < plays; n += 1) {
      while ((await post<Play>('v2/play/current', identity)).play?.phase !== 'playing') await sleep(100);
      await command(play.play_id, 'right', 'press');
      await sleep(700 + n * 90);
      await command(play.play_id, 'right', 'release');
      // Apart, so that each command is timed by a frame of its own (pressed together, both would
      // land on one tick and one frame, and count one observation twice).
      await sleep(150);
      await command(play.play_id, 'back', 'press');
      await sleep(500 + n * 70);
      await command(play.play_id, 'back', 'release');
      while ((await post<Play>('v2/play/current', identity)).play?.phase !== 'result') await sleep(200);
      if (n + 1 < plays) play = (await post<Play>('v2/play/continue', { ...identity, play_id: play.play_id })).play!;
    }
    await post('v2/play/finish', { ...identity, play_id: play.play_id });
    return { commands, start, end: now() };
  };
  const framesOf = (page: Page) => page.evaluate('window.__frames') as Promise<Frame[]>;
  type Shown = { latencies: number[]; received: number[]; fps: number; ticks: number; commands: number };
  /** What one page showed of one session: each command's first frame showing it, frames/s, ticks/s. */
  const shownOn = async (
    mode: 'rtc' | 'jpg',
    page: Page,
    session: Awaited<ReturnType<typeof playSession>>,
  ): Promise<Shown> => {
    const shown: Shown = { latencies: [], received: [], fps: 0, ticks: 0, commands: session.commands.length };
    const frames: Frame[] = (await framesOf(page)).filter(([, at]) => at >= session.start && at <= session.end);
    const each: string[] = [];
    for (const c of session.commands) {
      const first = frames.find(([tick, at]) => tick > c.tick && at >= c.sentAt);
      if (first) shown.latencies.push(first[1] - c.sentAt);
      // The video's own arrival time: the first frame showing the move whose last packet came in.
      const arrived = frames
        .filter(([tick, , receivedAt]) => tick > c.tick && receivedAt !== undefined && receivedAt >= c.sentAt)
        .map(([, , receivedAt]) => receivedAt!);
      if (arrived.length > 0) shown.received.push(Math.min(...arrived) - c.sentAt);
      each.push(
        `${first ? (first[1] - c.sentAt).toFixed(0) : '—'}/${arrived.length > 0 ? (Math.min(...arrived) - c.sentAt).toFixed(0) : '—'}@${c.tick}`,
      );
    }
    if (process.env.BENCH_DEBUG) {
      console.log(mode, 'shown/received@tick', each.join(' '));
      const gaps = frames
        .slice(1)
        .map(([, at], i) => [at - frames[i]![1], frames[i]![1] - session.start] as const)
        .filter(([g]) => g > 250)
        .map(([g, t]) => `${g.toFixed(0)}@${t.toFixed(0)}`);
      console.log(mode, 'gaps > 250 ms between frames (length@start since the session began):', gaps.join(' '));
      console.log(mode, 'commands at', session.commands.map((c) => (c.sentAt - session.start).toFixed(0)).join(' '));
    }
    const seconds = (session.end - session.start) / 1000;
    shown.fps = frames.length / seconds;
    shown.ticks = new Set(frames.map(([tick]) => tick)).size / seconds;
    return shown;
  };
  const printStats = async (page: Page) => {
    if (!process.env.BENCH_DEBUG) return;
    console.log(
      await page.evaluate(`(async () => {
      const out = [];
      for (const pc of window.__pcs || []) {
        if (pc.connectionState !== 'connected') continue;
        (await pc.getStats()).forEach((r) => { if (r.type === 'inbound-rtp') out.push({ recv: r.framesReceived, dec: r.framesDecoded, drop: r.framesDropped, freezes: r.freezeCount, freezeMs: r.totalFreezesDuration, pli: r.pliCount, nack: r.nackCount, lost: r.packetsLost, kf: r.keyFramesDecoded, jb: r.jitterBufferDelay / r.jitterBufferEmittedCount }); });
      }
      return JSON.stringify(out);
    })()`),
    );
  };
  // A player watches in one mode: by default each mode gets its own session with only its page
  // open. `--together` watches one session on both pages at once (the browser's and the server's
  // work for both modes then share the cores; earlier rounds measured that way).
  const shown = {} as Record<'rtc' | 'jpg', Shown>;
  if (together) {
    const rtcPage = await openPage('rtc');
    const jpgPage = await openPage('jpg');
    const session = await playSession();
    shown.rtc = await shownOn('rtc', rtcPage, session);
    shown.jpg = await shownOn('jpg', jpgPage, session);
    await printStats(rtcPage);
    await rtcPage.close();
    await jpgPage.close();
  } else {
    for (const mode of ['rtc', 'jpg'] as const) {
      const page = await openPage(mode);
      shown[mode] = await shownOn(mode, page, await playSession());
      await printStats(page);
      await page.close();
    }
  }
  socket.close();

  // ---- 3: server CPU per viewer -----------------------------------------------------------------
  /** The sim agent and its descendants (its cameras' ffmpeg encoders). */
  const agentPids = (): number[] => {
    const descendants = (pid: number): number[] => {
      const children = readdirSync(`/proc/${pid}/task`, { withFileTypes: false }).flatMap((tid) => {
        try {
          return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
            .trim()
            .split(/\s+/)
            .filter(Boolean)
            .map(Number);
        } catch {
          return [];
        }
      });
      return [pid, ...children.flatMap(descendants)];
    };
    return machineAgent?.pid ? descendants(machineAgent.pid) : [];
  };
  const measure = async (): Promise<{ server: number; encoders: number }> => {
    const pids = agentPids();
    const before = { server: cpuSeconds(server.pid!), encoders: pids.map(cpuSeconds) };
    const started = performance.now();
    await sleep(WINDOW_MS);
    const elapsed = (performance.now() - started) / 1000;
    return {
      server: (cpuSeconds(server.pid!) - before.server) / elapsed,
      encoders: pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - before.encoders[i]!, 0) / elapsed,
    };
  };
  const idle = latencyOnly ? { server: 0, encoders: 0 } : await measure();
  const signaling = `${origin.replace('http:', 'ws:')}/signaling`;
  const cpu: {
    mode: 'rtc' | 'jpg';
    viewers: number;
    server: number;
    encoders: number;
    received: number;
    failed?: number;
  }[] = [];
  // Joins of a camera already live (its agent publishing), and of one its agent was just asked to
  // publish (each phase starts with none watching: the agent stopped its cameras in between).
  const joins: number[] = [];
  const coldJoins: number[] = [];
  /** Each live-camera join's stages (ms from the viewer's start): offer, answer sent, media connected, first keyframe; and its phase. */
  const stages: { viewers: number; offer: number; answer: number; connected: number; keyframe: number }[] = [];
  type LiveStatus = { cameras: { stationId: number; camera: string; live: boolean }[] };
  const liveCameras = async () =>
    new Set(
      (await post<LiveStatus>('dev/live/status', {})).cameras
        .filter((c) => c.stationId === stationId && c.live)
        .map((c) => `station-${stationId}-${c.camera}`),
    );
  for (const viewers of latencyOnly ? [] : VIEWER_COUNTS) {
    const peers: RtcViewer[] = [];
    const channels = Array.from({ length: viewers }, () =>
      ['front', 'side'].map((camera) => `station-${stationId}-${camera}`),
    ).flat();
    // A connection the server could not take (refused, or timed out on a full machine) is counted, not fatal.
    let failed = 0;
    const cold = new Set<RtcViewer>();
    for (let at = 0; at < channels.length; at += JOIN_BATCH) {
      const live = await liveCameras();
      const batch = channels.slice(at, at + JOIN_BATCH);
      for (const [i, joined] of (
        await Promise.allSettled(batch.map((channel) => RtcViewer.connect(signaling, channel)))
      ).entries()) {
        if (joined.status === 'fulfilled') {
          peers.push(joined.value);
          if (!live.has(batch[i]!)) cold.add(joined.value);
        } else failed += 1;
      }
    }
    await sleep(WARMUP_MS);
    for (const p of peers) {
      if (p.firstKeyframeAt === null) continue;
      (cold.has(p) ? coldJoins : joins).push(p.firstKeyframeAt - p.startedAt);
      if (!cold.has(p))
        stages.push({
          viewers,
          offer: (p.offerAt ?? NaN) - p.startedAt,
          answer: (p.answeredAt ?? NaN) - p.startedAt,
          connected: (p.connectedAt ?? NaN) - p.startedAt,
          keyframe: p.firstKeyframeAt - p.startedAt,
        });
    }
    const packetsBefore = peers.reduce((s, p) => s + p.packets, 0);
    const used = await measure();
    const received = (peers.reduce((s, p) => s + p.packets, 0) - packetsBefore) / (WINDOW_MS / 1000) / peers.length;
    cpu.push({ mode: 'rtc', viewers, ...used, received, failed });
    await Promise.all(peers.map((p) => p.disconnect().catch(() => p.close())));
    await sleep(500);
  }
  for (const viewers of latencyOnly ? [] : VIEWER_COUNTS) {
    let polling = true;
    let fetched = 0;
    const pollers = Array.from({ length: viewers }, async (_, v) => {
      await sleep((v * STILL_INTERVAL_MS) / viewers);
      while (polling) {
        await Promise.all(
          (['front', 'side'] as const).map((camera) =>
            fetchStill(`${origin}/api/stations/${stationId}/camera/${camera}.jpg?t=${Date.now()}`),
          ),
        );
        fetched += 2;
        await sleep(STILL_INTERVAL_MS);
      }
    });
    await sleep(WARMUP_MS);
    const before = fetched;
    const used = await measure();
    const received = (fetched - before) / (WINDOW_MS / 1000) / (viewers * 2);
    polling = false;
    await Promise.all(pollers);
    cpu.push({ mode: 'jpg', viewers, ...used, received });
  }

  // ---- 4: drawing cost -------------------------------------------------------------------------
  const scene = { x: 420, z: 380, h: 0.4, grip: 0.3, prizes: layPrizes(5, 3), carryingPrizeId: null, dimmed: false };
  renderFrame('front', scene);
  renderPixels('front', scene);
  const cost = (draw: (i: number) => number) => {
    const start = performance.now();
    let bytes = 0;
    for (let i = 0; i < 100; i += 1) bytes = draw(i);
    return { ms: (performance.now() - start) / 100, bytes };
  };
  const jpegCost = cost((i) => renderFrame(i % 2 ? 'front' : 'side', { ...scene, x: 420 + i }).length);
  const rawCost = cost((i) => renderPixels(i % 2 ? 'front' : 'side', { ...scene, x: 420 + i }).length);

  console.log(
    `live feed — station ${stationId}, ${plays} plays and ${shown.rtc.commands} commands per mode, ${together ? 'both pages watching one session' : 'each mode its own session'}; server in its own process (Node ${process.versions.node}), Chromium ${browser.version()}`,
  );
  console.log(`  placement: ${placement}`);
  console.log(
    `  control → first frame showing it (Chromium, front camera); commands refused: ${refusedCommands.length}${refusedCommands.length ? ` (${refusedCommands.slice(0, 3).join('; ')})` : ''}`,
  );
  for (const mode of ['rtc', 'jpg'] as const) {
    const s = shown[mode];
    console.log(
      `    ${mode}  shown     p50 ${fmt(pct(s.latencies, 50))} ms  p95 ${fmt(pct(s.latencies, 95))} ms  max ${fmt(Math.max(...s.latencies))} ms  (${s.latencies.length} matched)   frames/s ${fmt(s.fps, 5)}  distinct ticks/s ${fmt(s.ticks, 5)}`,
    );
    if (s.received.length > 0)
      console.log(
        `    ${mode}  received  p50 ${fmt(pct(s.received, 50))} ms  p95 ${fmt(pct(s.received, 95))} ms  max ${fmt(Math.max(...s.received))} ms  (the frame's last packet in, before decoding and compositing)`,
      );
  }
  const ratio = (p: number) => pct(shown.rtc.latencies, p) / pct(shown.jpg.latencies, p);
  console.log(
    `    rtc/jpg   p50 ${ratio(50).toFixed(2)}  p95 ${ratio(95).toFixed(2)}  max ${(Math.max(...shown.rtc.latencies) / Math.max(...shown.jpg.latencies)).toFixed(2)}   (rtc's latency as a share of jpg's)`,
  );
  if (!latencyOnly) {
    console.log(
      `  rtc join → first keyframe, the camera live (${joins.length} connections): p50 ${fmt(pct(joins, 50))} ms  p95 ${fmt(pct(joins, 95))} ms;  the camera starting (its agent asked to publish it: ${coldJoins.length}): p50 ${fmt(pct(coldJoins, 50))} ms  p95 ${fmt(pct(coldJoins, 95))} ms  max ${fmt(Math.max(...coldJoins))} ms`,
    );
    // Where the slowest twentieth of the live-camera joins spent their time.
    const slow = [...stages]
      .sort((a, b) => b.keyframe - a.keyframe)
      .slice(0, Math.max(1, Math.ceil(stages.length / 20)));
    const median = (pick: (x: (typeof stages)[number]) => number) => fmt(pct(slow.map(pick), 50));
    console.log(
      `    its slowest ${slow.length}: median ms from the start to the offer ${median((x) => x.offer)}, the answer sent ${median((x) => x.answer)}, the media connected ${median((x) => x.connected)}, the first keyframe ${median((x) => x.keyframe)}; by phase (viewers): ${[...new Set(slow.map((x) => x.viewers))].map((v) => `${v}×${slow.filter((x) => x.viewers === v).length}`).join(' ')}`,
    );
    console.log(
      `  CPU per viewer (each viewer watches front + side; server = its Node process; agent = the sim agent painting and encoding its cameras with its ffmpeg, a cabinet's side, not the server's; idle server ${(idle.server * 100).toFixed(1)}%):`,
    );
    for (const r of cpu) {
      const unit = r.mode === 'rtc' ? 'RTP packets/s' : 'stills/s';
      console.log(
        `    ${r.mode}  ${String(r.viewers).padStart(3)} viewers  server ${(r.server * 100).toFixed(1).padStart(5)}%  agent ${(r.encoders * 100).toFixed(1).padStart(5)}%  server per viewer ${((r.server / r.viewers) * 100).toFixed(2).padStart(6)}% (≈ ${Math.round(
          r.viewers / r.server,
        )
          .toString()
          .padStart(
            4,
          )} viewers a core)   ${r.received.toFixed(1)} ${unit} per camera per viewer${r.failed ? `   (${r.failed} of ${r.viewers * 2} connections failed)` : ''}`,
      );
    }
  }
  console.log(
    `  drawing one picture: ${jpegCost.ms.toFixed(2)} ms as a 480×360 JPEG (${jpegCost.bytes} bytes), ${rawCost.ms.toFixed(2)} ms as 360×480 I420 for the encoder (${rawCost.bytes} bytes)`,
  );
} finally {
  stopping = true;
  agent.destroy();
  if (machineAgent && machineAgent.exitCode === null) {
    machineAgent.kill('SIGTERM');
    await new Promise((resolve) => machineAgent!.once('exit', resolve));
  }
  rmSync(agentDir, { recursive: true, force: true });
  await browser.close();
  // The server may be gone already (it failed, or something ended it): then there is no exit to wait for.
  if (server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
}
