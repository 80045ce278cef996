/**
 * WHIP ingest benchmark (`npm run bench:ingest`, issue 43): one camera published over WHIP and
 * forwarded to many viewers without re-encoding. Starts the reference server as its own process
 * (pinned to core 0 when there are two cores and taskset; this process, the publisher's encoder and
 * the viewers on core 1), publishes ffmpeg's moving test pattern (640×480, 30 fps, VP8 800 kbit/s,
 * a keyframe every 0.5 s as the painted cameras make them) with the project's werift WHIP client, and prints:
 *
 * 1. server CPU (its process only: forwarding encodes nothing) at 0, 1, 50, 100 and 200 viewers,
 *    each a werift receive-only peer on the Sora-compatible signaling, over an 8 s window, and the
 *    viewers per core that gives;
 * 2. a viewer's join → first keyframe, p50 / p95 / max, for viewers joining while the others are
 *    connected (the join asks the publisher for a keyframe; this publisher makes one every 0.5 s
 *    whatever it is asked, so this is the worst case of a publisher that ignores PLI);
 * 3. forwarding delay: from the publisher writing a frame's first packet to a viewer receiving it
 *    (the frames matched by their VP8 bytes), p50 / p95 / max, with 1 and with 200 viewers. Loopback:
 *    the server's part of glass-to-glass, not the encoders' or the browser's;
 * 4. what the spectators' LL-HLS of a camera costs the server (its process and its children: the
 *    ffmpeg tools), issue 44: an H.264 camera's stream remuxed (nothing decoded or encoded) beside a
 *    VP8 camera's encoded once (one ffmpeg, libx264), both 640×480 at 30 fps, each over an 8 s
 *    window while a player asks its playlist every half second.
 *
 *   npx tsx bench/ingest.ts [--viewers=1,50,100,200] [--warmup=2000] [--window=8000] [--delay-window=4000]
 *     [--hls-idle=11000]
 *
 * --warmup and --window: each CPU measure's warm-up and window (ms); --delay-window: how long the
 * forwarding delays are collected; --hls-idle: the wait for the H.264 camera's HLS run to end (10 s
 * after its last ask) before the VP8 camera's is measured alone.
 * Smallest (npm test's smoke run): --viewers=1 --warmup=300 --window=1000 --delay-window=1000 --hls-idle=0.
 */
import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RtpPacket } from 'werift';
import { RtcViewer } from '../test/support/rtc-viewer';
import { TestPatternPublisher } from '../test/support/whip-test-publisher';
import {
  cpuSeconds,
  failWithRefusals,
  feedServerCommand,
  fmt,
  freePort,
  now,
  pct,
  setUp,
  sleep,
  treeCpuSeconds,
} from './support';

failWithRefusals();

const VIEWER_COUNTS = (
  process.argv.find((a) => a.startsWith('--viewers='))?.slice('--viewers='.length) ?? '1,50,100,200'
)
  .split(',')
  .map(Number);
const msArg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const WARMUP_MS = msArg('warmup', 2000);
const WINDOW_MS = msArg('window', 8000);
const DELAY_WINDOW_MS = msArg('delay-window', 4000);
const HLS_IDLE_MS = msArg('hls-idle', 11_000);
const JOIN_BATCH = 10;
const TOKEN = 'bench-ingest-operator-token-0123456789';

const pinning = ((): { server: string } | null => {
  if (process.env.BENCH_NO_PIN || availableParallelism() < 2) return null;
  try {
    execSync(`taskset -a -p -c 1 ${process.pid}`, { stdio: 'ignore' });
    return { server: '0' };
  } catch {
    return null;
  }
})();
console.log(
  `placement: ${pinning ? 'server on core 0; the publisher (ffmpeg, werift) and the viewers on core 1 (taskset)' : 'unpinned'}`,
);

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'onkure-bench-ingest-'));
// BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it exits.
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
const serverCommand = feedServerCommand(profile);
let stopping = false;
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
      ONKURE_OPERATOR_TOKEN: TOKEN,
      ONKURE_FEED: 'rtc',
      RTC_MAX_CONNECTIONS_PER_CLIENT: '1000',
      RTC_MAX_VIEWERS_PER_CAMERA: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
server.once('exit', (code, signal) => {
  if (!stopping) {
    console.error(`bench:ingest: the server ended during the run (${signal ?? `exit code ${code}`})`);
    process.exit(1);
  }
});
const origin = `http://127.0.0.1:${port}`;
const signaling = `ws://127.0.0.1:${port}/signaling`;
const viewers: RtcViewer[] = [];
let publisher: TestPatternPublisher | null = null;
let h264Publisher: TestPatternPublisher | null = null;
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
  type Station = { station_id: number; station_status: string; type: string; designated_type: string };
  const top = await setUp<{ sale_list: { list: Station[] }[] }>(
    fetch(`${origin}/api/contents/top_page_prize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ shop_id: 1, is_top_page: 1 }),
    }),
    'the top page (the stations)',
  );
  // A normal open station: its cameras need no media token.
  const stationId = top.sale_list
    .flatMap((s) => s.list)
    .find((s) => s.station_status === 'open' && s.type === 'normal' && s.designated_type === 'normal')!.station_id;
  /** A station key for the bench's publisher (the operator's shared dev token). */
  const issueKey = async (name: string, station: number) =>
    (
      await setUp<{ key: string }>(
        fetch(`${origin}/api/operator/station_key_issue`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-operator-authorization': `Bearer ${TOKEN}` },
          body: JSON.stringify({ name, station_ids: [station] }),
        }),
        `operator/station_key_issue for station ${station}`,
      )
    ).key;
  const key = await issueKey('bench camera', stationId);

  // The frames the publisher sends, by their first VP8 bytes, and when.
  const sentAt = new Map<string, number>();
  const frameKey = (rtp: RtpPacket, descriptorBytes: number) =>
    rtp.payload.subarray(descriptorBytes, descriptorBytes + 24).toString('hex');
  publisher = await TestPatternPublisher.start(`${origin}/whip/${stationId}/front`, key, {
    keyframeSeconds: 0.5,
    size: '640x480',
    kbps: 800,
    onSent: (rtp) => {
      // The publisher's packetizer writes a 4-byte descriptor (X, I, 15-bit picture id); S starts a frame.
      if ((rtp.payload[0]! & 0x10) === 0) return;
      sentAt.set(frameKey(rtp, 4), now());
      if (sentAt.size > 2000) sentAt.delete(sentAt.keys().next().value!);
    },
  });
  const delays: number[] = [];
  let measuring = false;
  const watch = async () => {
    const viewer = await RtcViewer.connect(signaling, `station-${stationId}-front`, (rtp) => {
      if (!measuring || (rtp.payload[0]! & 0x10) === 0) return;
      const at = sentAt.get(frameKey(rtp, 4));
      if (at !== undefined) delays.push(now() - at);
    });
    viewers.push(viewer);
    return viewer;
  };
  const joins: number[] = [];
  const fill = async (count: number) => {
    while (viewers.length < count) {
      const batch = Math.min(JOIN_BATCH, count - viewers.length);
      const joined = await Promise.all(Array.from({ length: batch }, () => watch()));
      for (let i = 0; ; i += 1) {
        if (joined.every((v) => v.firstKeyframeAt !== null)) break;
        if (i > 100) throw new Error('viewers got no keyframe within 10 s');
        await sleep(100);
      }
      for (const v of joined) joins.push(v.firstKeyframeAt! - v.startedAt);
    }
  };
  /** CPU over a window after a warm-up, in cores: the server's process (or, with treeCpuSeconds, its tools too). */
  const measure = async (cpu: (pid: number) => number = cpuSeconds) => {
    await sleep(WARMUP_MS);
    const before = cpu(server.pid!);
    const started = performance.now();
    await sleep(WINDOW_MS);
    return (cpu(server.pid!) - before) / ((performance.now() - started) / 1000);
  };

  console.log('\n1. server CPU while one camera is forwarded (cores busy; forwarding encodes nothing)');
  const idle = await measure();
  console.log(`   viewers    0: ${fmt(idle * 100)} % of a core (the publisher's packets alone)`);
  let perViewer = NaN;
  for (const count of VIEWER_COUNTS) {
    await fill(count);
    const cpu = await measure();
    perViewer = (cpu - idle) / count;
    console.log(
      `   viewers ${String(count).padStart(4)}: ${fmt(cpu * 100)} % of a core, ${fmt(perViewer * 100, 7)} % per viewer → ${fmt(1 / perViewer, 6)} viewers per core`,
    );
  }

  console.log(`\n2. join → first keyframe (ms), ${joins.length} viewers joining in batches of ${JOIN_BATCH}`);
  console.log(`   p50 ${fmt(pct(joins, 50))}   p95 ${fmt(pct(joins, 95))}   max ${fmt(Math.max(...joins))}`);

  console.log('\n3. forwarding delay: publisher writes a frame → a viewer receives it (ms, loopback)');
  delays.length = 0;
  measuring = true;
  await sleep(DELAY_WINDOW_MS);
  measuring = false;
  const many = [...delays];
  // One viewer: close all but the first.
  await Promise.all(viewers.splice(1).map((v) => v.close()));
  delays.length = 0;
  await sleep(WARMUP_MS);
  measuring = true;
  await sleep(DELAY_WINDOW_MS);
  measuring = false;
  const one = [...delays];
  for (const [label, values] of [
    ['1 viewer   ', one],
    [`${VIEWER_COUNTS.at(-1)} viewers`, many],
  ] as const)
    console.log(
      `   ${label}: p50 ${fmt(pct(values, 50))}   p95 ${fmt(pct(values, 95))}   max ${fmt(Math.max(...values))}   (${values.length} frames)`,
    );

  console.log("\n4. the spectators' LL-HLS of one camera: server CPU, its ffmpeg tools included (% of a core)");
  await Promise.all(viewers.splice(0).map((v) => v.close()));
  const h264Station = top.sale_list
    .flatMap((s) => s.list)
    .find(
      (s) =>
        s.station_id !== stationId &&
        s.station_status === 'open' &&
        s.type === 'normal' &&
        s.designated_type === 'normal',
    )!.station_id;
  const h264Key = await issueKey('bench H.264 camera', h264Station);
  h264Publisher = await TestPatternPublisher.start(`${origin}/whip/${h264Station}/front`, h264Key, {
    codec: 'H264',
    keyframeSeconds: 1,
    size: '640x480',
  });
  const treeCpu = () => measure(treeCpuSeconds);
  /** Asks the camera's playlist every half second (the run lasts while it is asked for), until stopped. */
  const watchHls = (station: number) => {
    let asking = true;
    const url = `${origin}/api/stations/${station}/hls/front/index.m3u8`;
    const done = (async () => {
      while (asking) {
        const answer = await fetch(url);
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`HLS playlist: HTTP ${answer.status}`);
        await sleep(500);
      }
    })();
    return async () => {
      asking = false;
      await done;
    };
  };
  const base = await treeCpu();
  console.log(`   both cameras published, no spectators: ${fmt(base * 100)}`);
  let stop = watchHls(h264Station);
  const remuxed = await treeCpu();
  await stop();
  console.log(
    `   + the H.264 camera's HLS (remuxed):     ${fmt(remuxed * 100)}   → ${fmt((remuxed - base) * 100)} for its HLS`,
  );
  // Its run ends 10 s after the last ask: the VP8 camera's alone after that.
  await sleep(HLS_IDLE_MS);
  stop = watchHls(stationId);
  const encoded = await treeCpu();
  await stop();
  console.log(
    `   + the VP8 camera's HLS (encoded once):  ${fmt(encoded * 100)}   → ${fmt((encoded - base) * 100)} for its HLS`,
  );
} finally {
  stopping = true;
  await Promise.all(viewers.map((v) => v.close()));
  await publisher?.stop();
  await h264Publisher?.stop();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
