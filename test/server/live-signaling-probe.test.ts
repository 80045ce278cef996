import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { connect as tcpConnect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { RTCPeerConnection } from 'werift';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIGNALING_CLOSE } from '../../server/live/signaling';
import { post } from './user-helpers';
import { ManualServerClock } from '../support/manual-server-clock';
import { recvonlyConnect, recvonlyPeer, RtcViewer } from '../support/rtc-viewer';
import { gatedStation } from '../support/stations';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Attacks on the rtc feed's signaling endpoint (server/live/signaling.ts), each asserting what
 * should happen: the server stays up, refuses cleanly (a 4xxx close with a reason ≤ 123 bytes),
 * and leaks nothing (no session, no camera channel, no ffmpeg child). The server draws no picture:
 * a camera's video comes from its WHIP publisher, and a viewer starts no process (the server's
 * only ffmpeg children are stills decoders and H.264 transcoders). A camera nobody publishes is
 * dark but can be connected to; the probes about media flowing (or not) watch a camera on which a
 * test pattern is published (TestCameras), so that "no video" is checked while video is sent.
 * Probes that found a defect are kept with the defect described above them; each is fixed and its
 * test now holds.
 */

type Closed = { code: number; reason: string };
interface Raw {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  closed: Promise<Closed>;
  offered: Promise<Record<string, unknown>>;
}

let t: TestServer;
let signaling: string;
let port: number;
let normal: number[] = [];
let vip = 0;
/** A key for the stations whose cameras the probes publish (normal[0..14] and vip). */
let cameras: TestCameras;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

/** Every close the probes saw: each reason must fit a close frame (≤ 123 bytes). */
const reasons: Closed[] = [];

/** A distinct loopback address per simulated client (the per-client limit counts addresses). */
let nextAddress = 10;
const freshAddress = () => `127.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 2}`;

const LIMITS = { RTC_MAX_CONNECTIONS_PER_CLIENT: '8', RTC_MAX_VIEWERS_PER_CAMERA: '2' };
const TIMINGS = { connectMs: 1_000, answerMs: 1_500, pingMs: 300, gatherMs: 2_000 };
/**
 * The signaling deadlines and pings run on this clock, which only the tests move: a deadline falls
 * when a probe says, never because a loaded machine was slow to make an offer.
 */
const signalingClock = new ManualServerClock();

// A slowloris upgrade started before the tests and checked at the end (Node's headers timeout is 10 s).
let slowloris: {
  socket: Socket;
  startedAt: number;
  closedAt: number | null;
  answer: string;
  timer: ReturnType<typeof setInterval>;
} | null = null;

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  t = await startTestServer({
    listen: true,
    env: LIMITS,
    signalingTimings: TIMINGS,
    signalingClock,
  });
  signaling = `${t.origin.replace('http:', 'ws:')}/signaling`;
  port = Number(new URL(t.origin).port);
  normal = (
    await t.server
      .store()
      .query<{ station_id: number }>(
        "SELECT station_id FROM stations WHERE station_type = 'normal' AND station_status = 'open' ORDER BY station_id",
      )
  ).map((r) => r.station_id);
  vip = await gatedStation(t);
  cameras = await TestCameras.issue(t, [...normal.slice(0, 15), vip]);

  // Slowloris: a valid upgrade's headers, one short header line a second, never finished.
  const socket = tcpConnect(port, '127.0.0.1');
  let n = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(`X-Slow-${n++}: a\r\n`);
  }, 1_000);
  slowloris = { socket, startedAt: Date.now(), closedAt: null, answer: '', timer };
  socket.on('connect', () =>
    socket.write(`GET /signaling HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n`),
  );
  socket.on('data', (d) => {
    slowloris!.answer += d.toString();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    slowloris!.closedAt = Date.now();
    clearInterval(slowloris!.timer);
  });
});

/**
 * What a test opened on the client side (sockets, viewers, peer connections), closed after it even
 * if it failed halfway, so that one failure does not leave sessions to the next test. The tests
 * check what the server closes and releases by themselves before that.
 */
const opened: { close(): unknown }[] = [];
const watch = async (url: string, channel: string): Promise<RtcViewer> => {
  const viewer = await RtcViewer.connect(url, channel);
  opened.push(viewer);
  return viewer;
};

// Then the publishers; then nothing may be left (no session, channel, ffmpeg child).
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
  await cameras?.stopAll();
  await assertClean('nothing left after the test');
});

afterAll(async () => {
  if (slowloris) {
    clearInterval(slowloris.timer);
    slowloris.socket.destroy();
  }
  await t?.close();
  process.off('unhandledRejection', onUnhandled);
});

const services = () => t.server.services();
const status = () => services().rtcFeed.status();

/**
 * ffmpeg processes that are children of this test process: the server's (it runs in this process:
 * stills decoders and H.264 transcoders; a viewer starts none) and the encoders of the tests' own
 * publishers (ffmpeg's `testsrc`, test/support/whip-test-publisher.ts). `server` leaves the
 * publishers' out.
 */
function ffmpegChildren(which: 'all' | 'server' = 'all'): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // A killed ffmpeg stays a zombie until Node reaps it: not running, not counted.
      if (Number(ppid) !== process.pid || !comm.startsWith('ffmpeg') || state === 'Z') continue;
      if (which === 'server' && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('testsrc=')) continue;
      pids.push(Number(entry));
    } catch {
      // the process ended while we read it
    }
  }
  return pids;
}

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  await expect.poll(check, { timeout: ms, interval: 25, message: what }).toBe(true);
};

const healthy = async (ms = 1_000) => {
  const started = Date.now();
  const response = await fetch(`${t.origin}/healthz`, { signal: AbortSignal.timeout(ms) });
  return { ok: response.status === 200, ms: Date.now() - started };
};

/** What is running, for a failed check's message. */
const running = () =>
  `${services().signaling.connections} sessions, channels ${JSON.stringify(status())}, ffmpeg children ${JSON.stringify(ffmpegChildren())}`;

/** Nothing left behind: no session, no camera channel, no ffmpeg child; the HTTP API answers. */
async function assertClean(what = 'nothing left behind'): Promise<void> {
  await until(
    () => services().signaling.connections === 0 && status().length === 0 && ffmpegChildren().length === 0,
    what,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${running()}`);
  });
  expect((await healthy()).ok).toBe(true);
}

/**
 * The sessions are gone and their viewers with them, while the tests' publishers still send: only
 * the published cameras' channels are left (without viewers), and no ffmpeg of the server's.
 * (afterEach stops the publishers, then checks that nothing at all is left.)
 */
async function assertReleased(what = 'the sessions released'): Promise<void> {
  await until(
    () =>
      services().signaling.connections === 0 &&
      status().every((channel) => channel.viewers === 0 && channel.source === 'whip') &&
      ffmpegChildren('server').length === 0,
    what,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${running()}`);
  });
}

/** A station camera's channel as rtcFeed.status() shows it, if there is one. */
const channelOf = (stationId: number, camera: 'front' | 'side') =>
  status().find((channel) => channel.stationId === stationId && channel.camera === camera);

/** Publishes the test pattern on a camera and resolves once its video flows through the camera's channel. */
async function publish(stationId: number, camera: 'front' | 'side'): Promise<void> {
  await cameras.publish(stationId, camera);
  await until(() => (channelOf(stationId, camera)?.packets ?? 0) > 0, `station ${stationId} ${camera} sends video`);
  expect(channelOf(stationId, camera)).toMatchObject({ live: true, source: 'whip' });
}

/**
 * Moves the signaling clock on by `ms` a ping at a time, each ping answered before the next (a
 * single jump would fire three pings at once, and the third would find two unanswered).
 */
async function advancePonged(ms: number): Promise<void> {
  for (let moved = 0; moved < ms; moved += TIMINGS.pingMs) {
    signalingClock.advance(Math.min(TIMINGS.pingMs, ms - moved));
    await until(() => sessions().every((session) => session.unanswered === 0), 'the ping answered');
  }
}

/** Opens a signaling socket (own address unless given), recording messages and the close. */
function open(
  url = signaling,
  options: { headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: options.headers ?? {},
      localAddress: options.localAddress ?? freshAddress(),
    });
    opened.push({ close: () => ws.terminate() });
    const messages: Record<string, unknown>[] = [];
    let offer: (m: Record<string, unknown>) => void = () => undefined;
    let noOffer: (e: Error) => void = () => undefined;
    const offered = new Promise<Record<string, unknown>>((res, rej) => {
      offer = res;
      noOffer = rej;
    });
    offered.catch(() => undefined);
    const closed = new Promise<Closed>((done) => {
      ws.on('close', (code, reason) => {
        const c = { code, reason: reason.toString() };
        reasons.push(c);
        noOffer(new Error(`closed ${code} ${c.reason}`));
        done(c);
      });
    });
    ws.on('message', (data) => {
      let m: Record<string, unknown>;
      try {
        m = JSON.parse(data.toString()) as Record<string, unknown>;
      } catch {
        m = { unparsed: data.toString() };
      }
      messages.push(m);
      if (m.type === 'offer') offer(m);
      if (m.type === 'ping' && ws.readyState === WebSocket.OPEN) ws.send('{"type":"pong"}');
    });
    ws.on('error', () => undefined);
    ws.once('open', () => resolve({ ws, messages, closed, offered }));
    ws.once('unexpected-response', (_req, response) => {
      reject(new Error(`HTTP ${response.statusCode}`));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/** 'offer' when the server offered, else the close it gave. */
const outcome = (r: Raw): Promise<string> =>
  r.offered.then(
    () => 'offer',
    async () => {
      const c = await r.closed;
      return `${c.code} ${c.reason}`;
    },
  );

/** Sends `messages` on a fresh socket and resolves with the close. */
async function refused(messages: (string | Buffer)[], url = signaling): Promise<Closed> {
  const r = await open(url);
  for (const m of messages) r.ws.send(m);
  return r.closed;
}

const connect = (channel: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify(recvonlyConnect(channel, extra));

/**
 * A werift viewer's answer to an offer (what a real client would send), its peer connection, and
 * the RTP packets it has received so far (counted from the start: werift announces the track
 * while the offer is being set).
 */
async function answerTo(offerSdp: string): Promise<{ pc: RTCPeerConnection; sdp: string; received: () => number }> {
  const pc = recvonlyPeer();
  opened.push(pc);
  let packets = 0;
  pc.onTrack.subscribe((track) =>
    track.onReceiveRtp.subscribe(() => {
      packets += 1;
    }),
  );
  await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
  await pc.setLocalDescription(await pc.createAnswer());
  return { pc, sdp: pc.localDescription!.sdp, received: () => packets };
}

/** Resolves once the server has taken the answer (the session is connected) or has ended it. */
const answerTaken = () =>
  until(
    () => sessions().every((session) => session.state === 'connected' || session.state === 'closed'),
    'the answer taken',
  );

/** The server's private session objects (to read what an attacker made it store). */
const sessions = () => [...(services().signaling as unknown as { sessions: Set<Record<string, unknown>> }).sessions];

describe('upgrade requests', () => {
  /*
   * Found by this probe and fixed (server crash, unauthenticated, one request). An upgrade request whose target Node's HTTP
   * parser accepts but WHATWG URL rejects — e.g. `GET //[ HTTP/1.1` with `Upgrade: websocket` —
   * makes `new URL(request.url, 'http://localhost')` throw inside the http server's 'upgrade'
   * listeners: server/app.ts:104 (the 404-for-unknown-upgrades listener, which runs first) and
   * server/live/signaling.ts:101 (SignalingServer.attach). Nothing catches it (Node emits 'upgrade'
   * from the socket's data handler, and server/main.ts has no uncaughtException handler), so the
   * whole process exits with `TypeError: Invalid URL` (reproduced against `npx tsx server/main.ts`:
   * one `printf 'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'`
   * on a TCP socket and /healthz no longer answers). Other such targets: `//%`, `//a:99999/x`,
   * `http://[/x`. Fix: parse defensively in both listeners, e.g.
   * `let path; try { path = new URL(request.url ?? '/', 'http://localhost').pathname } catch { return socket.destroy() }`
   * (or URL.canParse first), and answer 400 for the 404 listener.
   * Probed here by calling the server's own 'upgrade' listeners (a real socket would kill the test worker).
   */
  it('an upgrade whose URL WHATWG cannot parse (GET //[) is refused instead of throwing out of the upgrade listeners (crashes the process)', () => {
    const server = t.server.app.server;
    for (const target of ['//[', '//%', '//a:99999/signaling', 'http://[/signaling']) {
      for (const listener of server.listeners('upgrade') as ((
        req: IncomingMessage,
        socket: PassThrough,
        head: Buffer,
      ) => void)[]) {
        const socket = new PassThrough();
        const request = {
          url: target,
          method: 'GET',
          headers: { upgrade: 'websocket', connection: 'Upgrade', host: '127.0.0.1' },
          socket: { remoteAddress: '127.0.0.1' },
        } as unknown as IncomingMessage;
        expect(
          () => listener.call(server, request, socket, Buffer.alloc(0)),
          `upgrade listener with ${target}`,
        ).not.toThrow();
        socket.destroy();
      }
    }
  });

  it("Origin spoofing: only the app's own origin (or none: non-browser clients, by design) may open the socket", async () => {
    const forbidden = [
      'https://evil.example',
      'null',
      '',
      `http://127.0.0.1:${port}.evil.example`,
      `http://127.0.0.1:${port + 1}`,
      `http://evil.example, ${t.origin}`,
      `${t.origin}, http://evil.example`,
      `${t.origin}/`,
      `${t.origin.toUpperCase()}`,
      `ws://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}@evil.example`,
      `http://localhost.evil.example:${port}`,
    ];
    for (const origin of forbidden)
      await expect(
        open(signaling, { headers: { Origin: origin } }),
        `Origin: ${JSON.stringify(origin)}`,
      ).rejects.toThrow('HTTP 403');
    for (const headers of [{}, { Origin: t.origin }] as Record<string, string>[]) {
      const ok = await open(signaling, { headers });
      ok.ws.terminate();
    }
    // Origin equal to a spoofed Host is let through (the app-wide rule, server/http/security-headers.ts);
    // harmless for this socket: it carries no ambient authority (no cookie; the media token is in the URL),
    // and a non-browser client may omit Origin anyway.
    const rebinding = await open(signaling, { headers: { Host: 'evil.example', Origin: 'http://evil.example' } });
    rebinding.ws.terminate();
    await assertClean();
  });

  it('malformed upgrades (bad version, bad key, POST, no Upgrade) get an HTTP error and the server stays up', async () => {
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const s = tcpConnect(port, '127.0.0.1', () => s.write(text));
        let answer = '';
        s.on('data', (d) => {
          answer += d.toString();
        });
        s.on('error', () => undefined);
        s.on('close', () => resolve(answer));
        setTimeout(() => s.destroy(), 2_000);
      });
    const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
    const base = [`Host: 127.0.0.1:${port}`, 'Connection: Upgrade', 'Upgrade: websocket'];
    expect(
      await raw(
        head([
          'GET /signaling HTTP/1.1',
          ...base,
          'Sec-WebSocket-Version: 99',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        ]),
      ),
    ).toMatch(/^HTTP\/1\.1 400 /);
    expect(
      await raw(head(['GET /signaling HTTP/1.1', ...base, 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: short'])),
    ).toMatch(/^HTTP\/1\.1 400 /);
    expect(
      await raw(
        head([
          'POST /signaling HTTP/1.1',
          ...base,
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          'Content-Length: 0',
        ]),
      ),
    ).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(
      await raw(
        head([
          'GET /signaling?k=' + 'x'.repeat(20_000) + ' HTTP/1.1',
          ...base,
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        ]),
      ),
    ).toMatch(/^HTTP\/1\.1 431 /);
    await assertClean();
  });

  it('an upgraded socket that never sends anything is closed at the connect deadline (4408)', async () => {
    const r = await open();
    await until(() => services().signaling.connections === 1, 'the server holds the session');
    signalingClock.advance(TIMINGS.connectMs - 1);
    expect(r.ws.readyState).toBe(WebSocket.OPEN);
    signalingClock.advance(1);
    expect(await r.closed).toEqual({
      code: SIGNALING_CLOSE.timeout,
      reason: 'no connect message in time',
    });
    await assertClean();
  });
});

describe('message-level abuse', () => {
  it('a message over 64 KB (maxPayload) closes the socket (1009) and leaks nothing', async () => {
    const r = await open();
    r.ws.send(JSON.stringify({ type: 'connect', pad: 'x'.repeat(70_000) }));
    const c = await r.closed;
    expect(c.code).toBeOneOf([1009, 1006]);
    // The same after connect, while the session holds a viewer's place on its camera.
    const v = await open();
    v.ws.send(connect(`station-${normal[0]}-front`));
    await v.offered;
    v.ws.send(JSON.stringify({ type: 'answer', sdp: 'v=0\r\n' + 'a=x\r\n'.repeat(15_000) }));
    expect((await v.closed).code).toBeOneOf([1009, 1006]);
    await assertClean();
  });

  it('a text frame that is not UTF-8 closes the socket (1007) and leaks nothing', async () => {
    const r = await open();
    r.ws.send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), { binary: false });
    expect((await r.closed).code).toBeOneOf([1007, 1006]);
    await assertClean();
  });

  it('deeply nested JSON (30,000 levels) is refused or ignored cleanly, at any place in a message', async () => {
    const depth = 30_000;
    expect(await refused(['['.repeat(depth) + ']'.repeat(depth)])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'a signaling message needs a string type',
    });
    const nested = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    expect(await refused([`{"type":${nested}}`])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'a signaling message needs a string type',
    });
    // In the free-form metadata of a connect: served as usual (metadata is not read).
    const r = await open();
    r.ws.send(
      `{"type":"connect","role":"recvonly","channel_id":"station-${normal[0]}-side","audio":false,"video":{"codec_type":"VP8","x":${nested}},"metadata":${nested}}`,
    );
    await r.offered;
    r.ws.send('{"type":"disconnect"}');
    expect(await r.closed).toEqual({ code: SIGNALING_CLOSE.normal, reason: 'disconnect' });
    await assertClean();
  });

  it('prototype keys (__proto__, constructor) neither pollute Object.prototype nor confuse the protocol', async () => {
    expect(await refused(['{"__proto__":{"type":"connect"}}'])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'a signaling message needs a string type',
    });
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(await refused([`{"type":"${type}"}`])).toEqual({
        code: SIGNALING_CLOSE.badMessage,
        reason: `expected connect, got ${type}`,
      });
    }
    const channel = `station-${normal[1]}-front`;
    // role only in a __proto__ key: not an own role, so malformed.
    expect(await refused([`{"type":"connect","channel_id":"${channel}","__proto__":{"role":"recvonly"}}`])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'malformed connect message',
    });
    // Sneaking audio/codec in via __proto__ or constructor.prototype: either served as a normal recvonly VP8 connection, or refused; never polluting.
    const r = await open();
    r.ws.send(
      `{"type":"connect","role":"recvonly","channel_id":"${channel}","audio":false,"video":{"codec_type":"VP8","__proto__":{"codec_type":"H264"}},"__proto__":{"audio":true,"polluted":1},"constructor":{"prototype":{"polluted":2}}}`,
    );
    expect(await outcome(r)).toBe('offer');
    for (const type of ['constructor', '__proto__', 'toString']) {
      const s = await open();
      s.ws.send(connect(`station-${normal[1]}-side`));
      await s.offered;
      s.ws.send(`{"type":"${type}"}`);
      expect(await s.closed).toEqual({ code: SIGNALING_CLOSE.badMessage, reason: `unknown message type "${type}"` });
    }
    r.ws.send('{"type":"disconnect"}');
    await r.closed;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).audio).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('role');
    await assertClean();
  });

  /*
   * Found by this probe and fixed (reason truncation can overflow the close frame; the session then never closes or cleans up).
   * SignalingSession.end (server/live/signaling.ts:203) cuts the reason to 123 bytes with
   * `Buffer.from(reason).subarray(0, 123).toString()`. When byte 123 falls inside a multi-byte UTF-8
   * character, toString() turns the dangling bytes into U+FFFD (3 bytes), so the reason becomes 124–125
   * bytes and `ws.close()` throws RangeError ('The message must not be greater than 123 bytes'). By then
   * `state` is already 'closed' and readyState CLOSING, so no close frame is sent, cleanUp() never runs,
   * and every later end() (connect/answer deadlines, pings) returns at once. The attacker's socket then
   * stays open forever, counted against RTC_MAX_CONNECTIONS_PER_CLIENT, holding its camera viewer slot
   * (RTC_MAX_VIEWERS_PER_CAMERA) until the attacker chooses to drop TCP, and server close() waits on
   * it. The attacker controls the text: `expected connect, got ${type.slice(0, 40)}` (line 243) and
   * `unknown message type ${JSON.stringify(type.slice(0, 40))}` (line 277) slice by UTF-16 units, so 40 CJK
   * characters are 120 bytes (also any werift error message in `signaling failed: …`, line 191).
   * Reproduction: open /signaling, send `{"type":"ああああ…"}` (41 × あ): no close ever arrives.
   * Fix: truncate on a character boundary, e.g. `let r = reason; while (Buffer.byteLength(r) > 123) r = r.slice(0, -1);`
   * (or TextEncoder.encodeInto into a 123-byte buffer and decode only `written` bytes), and make end()
   * robust: wrap ws.close in try/catch falling back to ws.terminate(), and always run cleanUp().
   */
  it('a multi-byte message type before connect is refused with 4400 and a reason ≤ 123 bytes', async () => {
    const r = await open();
    try {
      r.ws.send(JSON.stringify({ type: 'あ'.repeat(41) }));
      const c = await r.closed;
      expect(c.code).toBe(SIGNALING_CLOSE.badMessage);
    } finally {
      r.ws.terminate();
      await r.closed;
    }
  });

  it("the same after connect: the session ends (4400, a cut reason) and leaves its camera's viewers", async () => {
    const r = await open();
    try {
      r.ws.send(connect(`station-${normal[2]}-front`));
      await r.offered;
      expect(channelOf(normal[2]!, 'front')?.viewers).toBe(1);
      r.ws.send(JSON.stringify({ type: '日'.repeat(40) }));
      const c = await r.closed;
      expect(c).toEqual({ code: SIGNALING_CLOSE.badMessage, reason: expect.any(String) as string });
    } finally {
      r.ws.terminate();
      await r.closed;
      await assertClean();
    }
  });

  it('a flood of 1,000 messages a second on one connected socket: the server keeps up (/healthz stays fast, the video comes), disconnect still closes 1000', async () => {
    // A published camera: the viewer's media connects and its video comes during the flood.
    await publish(normal[3]!, 'front');
    const viewer = await watch(signaling, `station-${normal[3]}-front`);
    const slowest: number[] = [];
    for (let second = 0; second < 2; second += 1) {
      for (let tick = 0; tick < 100; tick += 1) {
        for (let i = 0; i < 10; i += 1) viewer.ws.send(i % 2 ? '{"type":"pong"}' : '{"type":"stats","reports":[]}');
        await new Promise((r) => setTimeout(r, 10));
      }
      slowest.push((await healthy(2_000)).ms);
    }
    expect(Math.max(...slowest)).toBeLessThan(1_000);
    await until(() => viewer.keyframes > 0 && viewer.frames > 10, 'the video comes');
    expect(viewer.log.closed).toBeNull();
    expect(await viewer.disconnect()).toEqual({ code: SIGNALING_CLOSE.normal, reason: 'disconnect' });
    await assertReleased();
  });

  it('a burst of messages queued behind the connect (2,000 pongs before the offer is made) is handled in order', async () => {
    const r = await open();
    r.ws.send(connect(`station-${normal[3]}-side`));
    for (let i = 0; i < 2_000; i += 1) r.ws.send('{"type":"pong"}');
    await r.offered;
    r.ws.send('{"type":"disconnect"}');
    expect(await r.closed).toEqual({ code: SIGNALING_CLOSE.normal, reason: 'disconnect' });
    await assertClean();
  });

  /*
   * Found by this probe and fixed (unbounded per-connection state, and ICE checks toward attacker-chosen addresses). Nothing
   * limits how many `candidate` messages a connection may send (server/live/signaling.ts:262-273). Before
   * the answer, werift's addIceCandidate keeps every one in `pendingRemoteCandidates`; after it, each
   * becomes a remote candidate paired with every local one, and the server sends STUN connectivity
   * checks to each address:port the client named (any host, e.g. inside the server's network). At
   * loopback speed a client sends tens of thousands of 2 KB candidates within the 10 s answer deadline,
   * on each of its 8 sockets: hundreds of MB of heap, and a reflector of STUN packets.
   * Reproduction: connect, then send 3,000 `{"type":"candidate","candidate":"candidate:N 1 udp 1 10.9.X.Y 9 typ host …"}`.
   * Fix: count candidates per session and end the session (4429 or 4400) past a small bound (a browser
   * sends a handful; e.g. 50), and consider ignoring candidates whose address is not a plausible peer.
   */
  it('a candidate flood is bounded (the session is ended, or the server keeps at most ~100 candidates)', async () => {
    const r = await open();
    try {
      r.ws.send(connect(`station-${normal[4]}-front`));
      await r.offered;
      const flood = 3_000;
      for (let i = 0; i < flood; i += 1) {
        r.ws.send(
          JSON.stringify({
            type: 'candidate',
            candidate: `candidate:${i} 1 udp 2122260223 10.9.${i >> 8}.${i & 255} 9 typ host generation 0 ufrag x network-cost 999 ${'p'.repeat(1_800)}`,
            sdpMid: '0',
            sdpMLineIndex: 0,
          }),
        );
      }
      // Past 50 candidates the session ends (docs/live-feed.md): the server holds none of the rest.
      expect(await r.closed).toEqual({ code: SIGNALING_CLOSE.badMessage, reason: 'too many candidates' });
    } finally {
      r.ws.terminate();
      await r.closed;
      await assertClean();
    }
  });
});

describe('SDP abuse', () => {
  const offerOn = async (channel: string) => {
    const r = await open();
    r.ws.send(connect(channel));
    return { r, offer: await r.offered };
  };

  it('garbage, huge and mismatched answers are refused with 4400 (reason ≤ 123 bytes) and the session leaves its camera', async () => {
    const channel = `station-${normal[5]}-front`;
    const answers = [
      'garbage',
      'v=0\r\n' + `a=${'x'.repeat(60_000)}\r\n`,
      'v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\na=rtpmap:111 opus/48000/2\r\n',
      'v=0\r\n' + 'm=video 9 UDP/TLS/RTP/SAVPF 96\r\n'.repeat(500),
      '\u0000'.repeat(1_000),
      'v=0\r\n' + 'あ'.repeat(20_000),
    ];
    for (const sdp of answers) {
      const { r } = await offerOn(channel);
      r.ws.send(JSON.stringify({ type: 'answer', sdp }));
      const c = await r.closed;
      expect(c.code, `answer ${JSON.stringify(sdp.slice(0, 30))}: ${c.reason}`).toBe(SIGNALING_CLOSE.badMessage);
      expect(c.reason).toMatch(/^signaling failed: |^malformed answer message$/);
      await until(
        () => services().signaling.connections === 0 && status().length === 0,
        'the session and its camera channel gone after a bad answer',
      );
    }
    await assertClean();
  });

  it('answer twice, re-answer without a re-offer, and an answer queued before the offer are refused with 4400', async () => {
    const channel = `station-${normal[5]}-side`;
    // A published camera, live throughout: a dark one takes its track off with a re-offer once the
    // media is up, and a re-answer sent then could have its re-offer.
    await publish(normal[5]!, 'side');
    {
      const { r, offer } = await offerOn(channel);
      const { pc, sdp } = await answerTo(String(offer.sdp));
      r.ws.send(JSON.stringify({ type: 'answer', sdp }));
      r.ws.send(JSON.stringify({ type: 'answer', sdp }));
      expect(await r.closed).toEqual({ code: SIGNALING_CLOSE.badMessage, reason: 'answer out of turn' });
      await pc.close();
    }
    {
      const { r, offer } = await offerOn(channel);
      const { pc, sdp } = await answerTo(String(offer.sdp));
      r.ws.send(JSON.stringify({ type: 'answer', sdp }));
      r.ws.send(JSON.stringify({ type: 're-answer', sdp }));
      expect(await r.closed).toEqual({ code: SIGNALING_CLOSE.badMessage, reason: 're-answer without a re-offer' });
      expect(r.messages.map((m) => m.type)).not.toContain('re-offer');
      await pc.close();
    }
    {
      const { r } = await offerOn(channel);
      r.ws.send(JSON.stringify({ type: 're-answer', sdp: 'v=0' }));
      expect(await r.closed).toEqual({ code: SIGNALING_CLOSE.badMessage, reason: 're-answer without a re-offer' });
    }
    {
      // Sent right behind connect: handled after the offer exists (messages are queued), so it is an answer (garbage).
      const r = await open();
      r.ws.send(connect(channel));
      r.ws.send(JSON.stringify({ type: 'answer', sdp: 'v=0' }));
      expect((await r.closed).code).toBe(SIGNALING_CLOSE.badMessage);
    }
    {
      // Candidates before the answer (trickled early) are accepted; the end-of-candidates marker and mDNS names too.
      const { r, offer } = await offerOn(channel);
      r.ws.send(
        JSON.stringify({
          type: 'candidate',
          candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 9 typ host',
          sdpMid: '0',
          sdpMLineIndex: 0,
        }),
      );
      r.ws.send(
        JSON.stringify({
          type: 'candidate',
          candidate: 'candidate:2 1 udp 2122260223 0f3c.local 9 typ host',
          sdpMid: '0',
        }),
      );
      r.ws.send(JSON.stringify({ type: 'candidate', candidate: '' }));
      r.ws.send(JSON.stringify({ type: 'candidate', candidate: 'not a candidate at all' }));
      r.ws.send(JSON.stringify({ type: 'candidate', candidate: 'x', sdpMLineIndex: 65 }));
      expect(await r.closed).toEqual({ code: SIGNALING_CLOSE.badMessage, reason: 'malformed candidate message' });
      expect(offer.type).toBe('offer');
    }
    await assertReleased();
  });

  it('a well-formed answer with a wrong DTLS fingerprint gets no video while the camera sends (a real viewer beside it gets it), and the session ends', async () => {
    const station = normal[6]!;
    const channel = `station-${station}-front`;
    await publish(station, 'front');
    // A real viewer of the same camera beside the forged one: the video is there to be had.
    const honest = await watch(signaling, channel);
    const { r, offer } = await offerOn(channel);
    const { pc, sdp, received } = await answerTo(String(offer.sdp));
    const fingerprint = randomBytes(32)
      .toString('hex')
      .toUpperCase()
      .replace(/(..)(?!$)/g, '$1:');
    r.ws.send(
      JSON.stringify({
        type: 'answer',
        sdp: sdp.replace(/^a=fingerprint:(\S+) .*$/m, `a=fingerprint:$1 ${fingerprint}`),
      }),
    );
    await answerTaken();
    // Two keyframes and a second of frames reach the real viewer after the forged answer was taken.
    const keyframes = honest.keyframes;
    const frames = honest.frames;
    await until(
      () => honest.keyframes >= keyframes + 2 && honest.frames >= frames + 30,
      'the real viewer gets the video meanwhile',
    );
    expect(received()).toBe(0);
    expect(await honest.disconnect()).toEqual({ code: SIGNALING_CLOSE.normal, reason: 'disconnect' });
    // The forged connection failed (4400), or the media deadline ends it (4408), pings answered on the way.
    await advancePonged(TIMINGS.answerMs);
    expect([
      { code: SIGNALING_CLOSE.badMessage, reason: 'signaling failed: the answer was not accepted' },
      { code: SIGNALING_CLOSE.timeout, reason: 'media did not connect in time' },
    ]).toContainEqual(await r.closed);
    expect(received()).toBe(0);
    await pc.close();
    await assertReleased();
  });

  /*
   * Found by this probe and fixed (a viewer held for ever with no media flowing). After the answer the only liveness check was
   * ping/pong (server/live/signaling-session.ts, answered()); nothing required the peer connection ever to connect.
   * An answer whose ICE credentials are wrong (or whose client never does ICE at all) leaves werift's
   * connection in 'checking'/'connecting' for ever (observed: still open after 40 s), so a client that
   * only answers pongs kept its place among the camera's viewers (RTC_MAX_VIEWERS_PER_CAMERA) and the
   * camera wanted from its station's agent (camera-demand.ts) indefinitely, at the cost of one idle
   * WebSocket.
   * Reproduction: connect, take the offer, answer with a real answer whose a=ice-ufrag/a=ice-pwd are
   * replaced, keep answering ping with pong: the session never ends.
   * Fix: after the answer, expect the peer connection to reach 'connected' within a deadline (e.g.
   * answerMs, 10 s; ICE+DTLS on a working path takes well under 1 s) and end with 4408 otherwise.
   * Probed on a published camera (its video sent, to nobody) and on a dark one. A dark camera's
   * track is taken off by a re-offer, whose re-answer cancels the deadline: that happens only once
   * the media is up, or a client that re-answers would keep a dark camera's session for ever.
   */
  it("an answer whose client then does no ICE at all (and only pongs) does not hold its place among the camera's viewers for ever, on a published camera or a dark one: 4408 at the media deadline", async () => {
    await publish(normal[6]!, 'side');
    for (const [station, live] of [
      [normal[6]!, true],
      [normal[7]!, false],
    ] as const) {
      const { r, offer } = await offerOn(`station-${station}-side`);
      const { pc, sdp } = await answerTo(String(offer.sdp));
      await pc.close(); // the answer is real, but nobody is behind it
      r.ws.send(JSON.stringify({ type: 'answer', sdp }));
      await answerTaken();
      // Pings come and are answered (open() pongs); the media deadline still ends the session.
      for (let at = TIMINGS.pingMs; at < TIMINGS.answerMs; at += TIMINGS.pingMs) {
        signalingClock.advance(TIMINGS.pingMs);
        await until(() => sessions()[0]?.unanswered === 0, 'the ping answered');
      }
      expect(r.ws.readyState).toBe(WebSocket.OPEN);
      expect(channelOf(station, 'side')).toMatchObject({ viewers: 1, live });
      signalingClock.advance(TIMINGS.answerMs % TIMINGS.pingMs || TIMINGS.pingMs);
      expect(await r.closed, live ? 'published camera' : 'dark camera').toEqual({
        code: SIGNALING_CLOSE.timeout,
        reason: 'media did not connect in time',
      });
      // With no media up, no renegotiation (whose re-answer would end the deadline) was started.
      expect(r.messages.map((m) => m.type)).not.toContain('re-offer');
      await assertReleased();
    }
  });

  it("an answer with altered ICE credentials either connects its media and then gets the camera's video (werift's lite agent does not check the remote ufrag; the viewer is then real) or ends at the media deadline", async () => {
    await publish(normal[6]!, 'side');
    const { r, offer } = await offerOn(`station-${normal[6]}-side`);
    const { pc, sdp, received } = await answerTo(String(offer.sdp));
    try {
      r.ws.send(
        JSON.stringify({
          type: 'answer',
          sdp: sdp
            .replace(/^a=ice-ufrag:.*$/m, 'a=ice-ufrag:evil')
            .replace(/^a=ice-pwd:.*$/m, `a=ice-pwd:${'e'.repeat(24)}`),
        }),
      );
      await answerTaken();
      const media = () =>
        (sessions()[0] as { pc?: { connectionState?: string } } | undefined)?.pc?.connectionState === 'connected';
      const connected = await expect
        .poll(media, { timeout: 6_000 })
        .toBe(true)
        .then(
          () => true,
          () => false,
        );
      if (connected) {
        await until(() => received() > 30, 'the video reaches the viewer whose ICE credentials were altered');
        expect(r.ws.readyState).toBe(WebSocket.OPEN);
      } else {
        expect(received()).toBe(0);
        await advancePonged(TIMINGS.answerMs);
        expect(await r.closed).toEqual({ code: SIGNALING_CLOSE.timeout, reason: 'media did not connect in time' });
      }
    } finally {
      r.ws.terminate();
      await pc.close();
      await assertReleased();
    }
  });

  /*
   * Found by this probe and fixed (minor, protocol): a malformed answer is closed 1000 'peer connection failed', not 4400 as
   * docs/live-feed.md's table says. werift's setRemoteDescription moves the peer connection to 'failed'
   * before it rejects, and the connectionStateChange subscriber (server/live/signaling.ts:345-347) ends
   * the session with SIGNALING_CLOSE.normal first; the 4400 'signaling failed: …' of the queue's catch
   * is then never sent. 1000 is the close sora-js-sdk treats as a normal end, so a client whose answer
   * the server could not use is told everything was fine. Reproduction: connect, then
   * `{"type":"answer","sdp":"v=0"}` → close 1000 'peer connection failed'.
   * Fix: only a clean 'closed' may end with 1000; end 'failed' with a 4xxx (e.g. 4400 while the answer
   * is being applied, 4503 for a later ICE/DTLS failure), or mark the session "applying answer" and let
   * the catch decide the code.
   */
  it('a malformed answer is refused with 4400 (docs), not a normal 1000 close', async () => {
    const { r } = await offerOn(`station-${normal[6]}-front`);
    r.ws.send(JSON.stringify({ type: 'answer', sdp: 'v=0' }));
    expect((await r.closed).code).toBe(SIGNALING_CLOSE.badMessage);
  });
});

describe('resources under churn and concurrency', () => {
  it('30 connects at once to 30 different cameras (2 published, 28 dark) from 30 addresses: all are served (no limit applies), no viewer starts an ffmpeg, and every session and dark channel is released when they close', async () => {
    const published = [`${normal[0]}-front`, `${normal[1]}-side`];
    await publish(normal[0]!, 'front');
    await publish(normal[1]!, 'side');
    // The server's own ffmpeg children (the publishers' encoders left out), sampled throughout.
    let peakFfmpeg = 0;
    const sampler = setInterval(() => {
      peakFfmpeg = Math.max(peakFfmpeg, ffmpegChildren('server').length);
    }, 10);
    const channels = normal.slice(0, 15).flatMap((id) => [`station-${id}-front`, `station-${id}-side`]);
    const sockets = await Promise.all(
      channels.map(async (channel) => {
        const r = await open();
        r.ws.send(connect(channel));
        return r;
      }),
    );
    const camera = (c: { stationId: number; camera: string }) => `${c.stationId}-${c.camera}`;
    try {
      // One socket per address and one viewer per camera: under RTC_MAX_CONNECTIONS_PER_CLIENT and
      // RTC_MAX_VIEWERS_PER_CAMERA, so every one is offered.
      expect(await Promise.all(sockets.map(outcome))).toEqual(Array(channels.length).fill('offer'));
      expect(services().signaling.connections).toBe(channels.length);
      expect(status().map(camera).sort()).toEqual(channels.map((c) => c.replace(/^station-/, '')).sort());
      expect(status().every((c) => c.viewers === 1)).toBe(true);
      expect(
        status()
          .filter((c) => c.source === 'whip')
          .map(camera)
          .sort(),
      ).toEqual(published.sort());
    } finally {
      for (const r of sockets) r.ws.terminate();
    }
    try {
      await until(
        () => services().signaling.connections === 0 && status().every((c) => c.viewers === 0),
        'every session ended',
      );
      // The dark cameras' channels went with their viewer; the published ones stay with their publisher.
      await until(() => status().length === published.length, 'the dark channels dropped');
      expect(status().map(camera).sort()).toEqual(published.sort());
    } finally {
      clearInterval(sampler);
    }
    expect(peakFfmpeg).toBe(0);
    await assertReleased();
  });

  it('the per-client limit holds from one address under a burst of 20, and frees up as sockets close', async () => {
    const address = freshAddress();
    const burst = await Promise.allSettled(
      Array.from({ length: 20 }, () => open(signaling, { localAddress: address })),
    );
    const opened = burst.flatMap((b) => (b.status === 'fulfilled' ? [b.value] : []));
    const allowed = Number(LIMITS.RTC_MAX_CONNECTIONS_PER_CLIENT);
    const refusals: Closed[] = [];
    for (const o of opened) void o.closed.then((c) => refusals.push(c));
    // The rest are refused at once; the allowed ones stay (their connect deadline is the test's to move).
    await until(() => refusals.length === opened.length - allowed, 'the ones over the limit refused');
    expect(refusals.every((c) => c.code === SIGNALING_CLOSE.limit)).toBe(true);
    expect(services().signaling.connections).toBe(allowed);
    for (const o of opened) o.ws.terminate();
    await until(() => services().signaling.connections === 0, 'all closed');
    const again = await open(signaling, { localAddress: address });
    await until(() => services().signaling.connections === 1, 'a socket from the same address is taken again');
    expect(again.ws.readyState).toBe(WebSocket.OPEN);
    again.ws.terminate();
    await assertClean();
  });
});

describe('channel ids and media tokens', () => {
  it('odd channel ids (unicode digits, huge, negative, zero, leading zero, whitespace, case) are refused with 4404 or 4400', async () => {
    const unknown = [
      'station-١-front',
      'station-１-front',
      'station-𝟏-front',
      `station-${normal[0]}-front\n`,
      `station-${normal[0]}-front `,
      ` station-${normal[0]}-front`,
      `station-${normal[0]}-FRONT`,
      'station-0-front',
      'station--1-front',
      `station-0${normal[0]}-front`,
      'station-9999999999-front',
      'station-999999999-front',
      'station-1e3-front',
      'station-0x1-front',
      `station-${normal[0]}.0-front`,
      `station-${normal[0]}-front\u0000`,
      `station-${normal[0]}-side-front`,
      `station-${normal[0]}-front/../side`,
      'station-+1-front',
      `station-${normal[0]}-fr\u200bont`,
    ];
    for (const channel of unknown)
      expect(await refused([connect(channel)]), JSON.stringify(channel)).toEqual({
        code: SIGNALING_CLOSE.unknownChannel,
        reason: 'unknown channel_id',
      });
    expect(await refused([connect(`station-${'9'.repeat(300)}-front`)])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'malformed connect message',
    });
    await assertClean();
  });

  it("media tokens: guessed, another station's, expired, empty, huge or duplicated tokens are refused (4403); the right one plays", async () => {
    const channel = `station-${vip}-front`;
    const user = Number((await post(t, 'auth/debug_login', { name: 'probe-vip' })).json.user_id);
    const right = randomBytes(24).toString('base64url');
    const other = randomBytes(24).toString('base64url');
    const expired = randomBytes(24).toString('base64url');
    await services().users.recordMediaToken(user, right, vip, 60_000);
    await services().users.recordMediaToken(user, other, normal[0]!, 60_000);
    await services().users.recordMediaToken(user, expired, vip, -1_000);
    const forbidden = { code: SIGNALING_CLOSE.forbidden, reason: 'this camera needs a media token' };
    // Brute force: 60 guesses in a row, each answered 4403, the server unbothered (tokens are 192-bit random).
    for (let i = 0; i < 60; i += 1)
      expect(await refused([connect(channel)], `${signaling}?k=${randomBytes(24).toString('base64url')}`)).toEqual(
        forbidden,
      );
    for (const k of [
      other,
      expired,
      '',
      'x'.repeat(8_000),
      encodeURIComponent(`${right}\u0000`),
      encodeURIComponent(`${right} `),
      right.toUpperCase(),
      `%E3%81%82${right}`,
    ]) {
      expect(await refused([connect(channel)], `${signaling}?k=${k}`), `k=${k.slice(0, 20)}…`).toEqual(forbidden);
    }
    expect(await refused([connect(channel)], `${signaling}?k=${other}&k=${right}`)).toEqual(forbidden); // the first k counts
    // The right token plays the station's other camera too (its video comes); on a normal station it is simply not needed.
    await publish(vip, 'side');
    const viewer = await watch(`${signaling}?k=${right}`, `station-${vip}-side`);
    await until(() => viewer.keyframes > 0 && viewer.frames > 10, 'the right token plays');
    expect(await viewer.disconnect()).toEqual({ code: SIGNALING_CLOSE.normal, reason: 'disconnect' });
    await assertReleased();
    healthyAfter.push((await healthy()).ok);
  });
});

const healthyAfter: boolean[] = [];

describe('shutdown and the rest of the server', () => {
  let other: TestServer;
  beforeAll(async () => {
    other = await startTestServer({
      listen: true,
      env: { ...LIMITS, RTC_MAX_CONNECTIONS_PER_CLIENT: '50' },
      signalingTimings: TIMINGS,
      signalingClock: new ManualServerClock(),
    });
  });
  let otherClosed = false;
  // The test closes it; if the test failed first, this does.
  afterAll(async () => {
    if (!otherClosed) await other?.close();
  });

  it('closing the server while sessions are mid-handshake: no unhandled rejection, every socket closed, no ffmpeg child (stills decoder, transcoder) left', async () => {
    const url = `${other.origin.replace('http:', 'ws:')}/signaling`;
    const sockets: Raw[] = [];
    try {
      // Some answered, some being offered, some idle; then more arriving while the server closes.
      for (let i = 0; i < 3; i += 1) {
        const r = await open(url);
        r.ws.send(connect(`station-${normal[i]}-front`));
        const { pc, sdp } = await answerTo(String((await r.offered).sdp));
        r.ws.send(JSON.stringify({ type: 'answer', sdp }));
        sockets.push(r);
        void pc.close();
      }
      for (let i = 0; i < 6; i += 1) {
        const r = await open(url);
        r.ws.send(connect(`station-${normal[i % 3]}-side`));
        sockets.push(r);
      }
      for (let i = 0; i < 3; i += 1) sockets.push(await open(url));
      const closing = other.close();
      const late = await Promise.allSettled(
        Array.from({ length: 5 }, async () => {
          const r = await open(url);
          r.ws.send(connect(`station-${normal[7]}-front`));
          sockets.push(r);
        }),
      );
      expect(late).toHaveLength(5);
      await closing;
      otherClosed = true;
      // Every socket is closed by the server's close (the test's timeout bounds the wait).
      await Promise.all(sockets.map((r) => r.closed));
      await until(() => ffmpegChildren().length === 0, 'no ffmpeg child left after close');
    } finally {
      for (const r of sockets) r.ws.terminate();
    }
    expect(unhandled).toEqual([]);
  });

  it('after all the abuse: /healthz answers, nothing is left open, no close reason over 123 bytes, no unhandled rejection', async () => {
    await assertClean();
    expect(healthyAfter.every(Boolean)).toBe(true);
    expect((await healthy()).ok).toBe(true);
    expect(reasons.filter((c) => Buffer.byteLength(c.reason) > 123)).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  // (A TCP connection that sends no byte at all is not under the headers timeout: Fastify's
  // connectionTimeout, 60 s, ends it; by design, docs/security.md. Not waited for here.)
  it('the slowloris upgrade (a header line a second, started before the first test) is cut off by the headers timeout (10 s)', async () => {
    // Cut off by the 10 s headers timeout (without it, a line a second would go on forever); the
    // bound leaves room for a loaded machine's event-loop delay (a CI run measured 13.3 s).
    await until(() => slowloris!.closedAt !== null, 'slowloris cut off', 20_000);
    expect(slowloris!.closedAt! - slowloris!.startedAt).toBeLessThan(16_000);
    expect(slowloris!.answer).toMatch(/^(HTTP\/1\.1 408 |$)/);
    expect(services().signaling.connections).toBe(0);
  });
});

// Last: before the fix below, the churn left werift's STUN lookups queued, which slowed every offer
// made after it in this process; the test after the churn checks that it no longer does.
describe('connect churn', () => {
  it('connect then close at once, 200 times in bursts of 20 (closing at every stage): one channel per camera at most, sessions and channels go back to 0, no ffmpeg is started', async () => {
    let peakChannels = 0;
    let peakFfmpeg = 0;
    const sampler = setInterval(() => {
      peakChannels = Math.max(peakChannels, status().length);
      peakFfmpeg = Math.max(peakFfmpeg, ffmpegChildren().length);
    }, 15);
    try {
      for (let burst = 0; burst < 10; burst += 1) {
        await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const r = await open();
            r.ws.send(connect(`station-${normal[i % 4]}-${i % 2 ? 'front' : 'side'}`));
            const wait = (burst * 7 + i * 3) % 60;
            if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
            if (i % 3 === 0) r.ws.close(1000);
            else r.ws.terminate();
            await r.closed;
          }),
        );
      }
    } finally {
      clearInterval(sampler);
    }
    // The 4 stations' 8 cameras, each one channel however many viewers come and go (the sampler saw them).
    expect(peakChannels).toBeGreaterThan(0);
    expect(peakChannels).toBeLessThanOrEqual(8);
    expect(peakFfmpeg).toBe(0);
    await assertClean();
  }, 60_000);

  /*
   * Found by this probe and fixed (every viewer makes the server query Google's STUN server; churn then starves new offers).
   * The server's RTCPeerConnection (server/live/signaling.ts:331-342) sets no `iceServers`, so werift's
   * default applies: `stun:stun.l.google.com:19302` (node_modules/werift/lib/webrtc/src/peerConnection.js:1090).
   * docs/live-feed.md says no STUN/TURN is used (host candidates + RTC_ICE_HOSTS only), yet each connect
   * makes a DNS lookup and STUN requests to a third party per local interface, with retransmissions that
   * go on after the session is gone. The lookups run on libuv's 4-thread pool: after the 200-connect churn
   * above, ~150 getaddrinfo requests were still queued (process.getActiveResourcesInfo()), and a new
   * connect's setLocalDescription waits behind them, so it is closed 4408 'offer could not be made in time'
   * (seen on this machine, where the lookup itself fails in ~20 ms). An attacker churning connects thus
   * denies video to everyone, and on a host without outbound DNS/UDP every offer waits on STUN timeouts.
   * Reproduction: run the churn test, then connect once: 4408 after gatherMs + connectMs.
   * Fixed with ICE lite (server/live/signaling.ts): `iceServers: []` alone is not enough, werift
   * falls back to the public server when none is configured; a lite agent gathers no server
   * reflexive candidates at all. RTC_ICE_HOSTS stays the way to offer a public address.
   */
  it("the server's peer connections use no STUN server (docs: none), so a connect churn cannot starve later offers", async () => {
    const r = await open();
    try {
      r.ws.send(connect(`station-${normal[9]}-front`));
      expect(await outcome(r)).toBe('offer');
      const pc = (sessions()[0] as { pc?: { config?: { iceServers?: unknown[] } } }).pc;
      expect(pc?.config?.iceServers ?? []).toEqual([]);
    } finally {
      r.ws.terminate();
      await r.closed;
      await assertClean();
    }
  });
});
