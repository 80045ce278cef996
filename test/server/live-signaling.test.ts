import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIGNALING_CLOSE } from '../../server/live/signaling';
import { ENCODER_NICE } from '../../media/vp8-encoder';
import type { CameraPainter } from '../../media/cameras/camera-painter';
import { post } from './user-helpers';
import { ManualServerClock } from '../support/manual-server-clock';
import { openSignaling as openRaw, recvonlyConnect, RtcViewer } from '../support/rtc-viewer';
import { startTestServer, type TestServer } from '../support/test-server';
import { stationOps } from '../support/station-ops';

/**
 * The rtc feed's Sora-compatible signaling peer over a real port, with werift viewers in Node
 * speaking what sora-js-sdk speaks (the browser itself: e2e/live-feed.spec.ts). The encoder is the
 * static ffmpeg of the optional npm package, so these run wherever `npm install` ran.
 */

let t: TestServer;
let signaling: string;
/**
 * The signaling deadlines and pings run on this clock, moved by the tests: a deadline falls when a
 * test says, never because a loaded machine was slow. The video itself runs in real time.
 */
const signalingClock = new ManualServerClock();
const TIMINGS = { connectMs: 400, answerMs: 1500, pingMs: 300 };
/** Open normal stations (no media token needed), a different one per test. */
let normal: number[] = [];
beforeAll(async () => {
  t = await startTestServer({
    listen: true,
    env: { RTC_MAX_CONNECTIONS_PER_CLIENT: '6', RTC_MAX_VIEWERS_PER_CAMERA: '2', RTC_MAX_ENCODERS: '3' },
    signalingTimings: TIMINGS,
    signalingClock,
  });
  signaling = `${t.origin.replace('http:', 'ws:')}/signaling`;
  normal = (
    await t.server
      .store()
      .query<{ station_id: number }>(
        "SELECT station_id FROM stations WHERE station_type = 'normal' AND station_status = 'open' ORDER BY station_id",
      )
  ).map((r) => r.station_id);
});
afterAll(async () => t?.close());

const status = () => t.server.services().rtcFeed.status();
const connections = () => t.server.services().signaling.connections;
/** The server's signaling sessions (internal: the ping test reads whether its pongs arrived). */
const sessions = () => [
  ...(t.server.services().signaling as unknown as { sessions: Set<{ unanswered: number }> }).sessions,
];

/** Every socket and viewer a test opens, closed after it, so that none outlives its test. */
const opened: { close(): void | Promise<void> }[] = [];
const openSignaling = async (...args: Parameters<typeof openRaw>) => {
  const socket = await openRaw(...args);
  opened.push({ close: () => socket.ws.terminate() });
  return socket;
};
const watch = async (
  url: string,
  channel: string,
  onPacket?: Parameters<typeof RtcViewer.connect>[2],
): Promise<RtcViewer> => {
  const viewer = await RtcViewer.connect(url, channel, onPacket);
  opened.push(viewer);
  return viewer;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
  // The next test starts with no session and no encoder left (an encoder stops when its last viewer leaves).
  await until(() => connections() === 0 && status().length === 0, 'no session or encoder left after the test');
});

/** Moves the signaling clock on by `ms`, once the server has a session to time (it counts them as they open). */
const advanceSignaling = (ms: number) => signalingClock.advance(ms);
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  await expect.poll(check, { timeout: ms, message: what }).toBe(true);
}
/** A process's nice value (field 19 of /proc/<pid>/stat). */
const niceOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};

describe('the signaling exchange sora-js-sdk needs for recvonly', () => {
  it('[R4.2-6] [R7-8] connect → offer (server offers sendonly VP8 with its candidates inside) and notify connection.created → answer → VP8 RTP with keyframes → ping/pong → disconnect closes 1000 and the encoder stops', async () => {
    const delays: string[] = [];
    const pictureIds: (number | null)[] = [];
    const viewer = await watch(signaling, `station-${normal[0]}-front`, (rtp) => {
      const delay = rtp.header.extensions.find((e) => e.id === 1);
      if (delays.length < 5 && delay) delays.push(delay.payload.toString('hex'));
      // Each frame's first packet (S bit): its picture id, when it is a 15-bit one (M bit).
      const p = rtp.payload;
      if ((p[0]! & 0x10) !== 0)
        pictureIds.push(
          (p[0]! & 0x80) !== 0 && (p[1]! & 0x80) !== 0 && (p[2]! & 0x80) !== 0 ? ((p[2]! & 0x7f) << 8) | p[3]! : null,
        );
    });
    const offer = viewer.offer!;
    expect(offer).toMatchObject({
      type: 'offer',
      channel_id: `station-${normal[0]}-front`,
      simulcast: false,
      spotlight: false,
    });
    expect(offer.connection_id).toEqual(expect.any(String));
    expect(offer).not.toHaveProperty('mid'); // a listed mid turns the SDK's recvonly transceiver into sendrecv
    const sdp = String(offer.sdp);
    expect(sdp).toMatch(/^m=video \d+ UDP\/TLS\/RTP\/SAVPF 96\r$/m);
    expect(sdp).toContain('a=rtpmap:96 VP8/90000');
    expect(sdp).toContain('a=sendonly');
    expect(sdp).not.toMatch(/^m=audio/m);
    expect(sdp).toMatch(/^a=candidate:.* 127\.0\.0\.1 \d+ typ host/m); // candidates in the SDP: the SDK ignores trickled ones
    const msid = /^a=msid:(\S+) /m.exec(sdp)?.[1];
    expect(msid).toBe(`station-${normal[0]}-front-video`); // neither 'default' nor the connection id, or the SDK drops the track
    expect(viewer.notify).toMatchObject({
      type: 'notify',
      event_type: 'connection.created',
      connection_id: offer.connection_id,
    });

    // Playout delay 0–0 on every packet: the browser shows each frame as soon as it is decoded.
    expect(sdp).toContain('a=extmap:1 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay');
    await until(() => viewer.keyframes >= 2 && viewer.packets > 30, 'VP8 packets with keyframes arrive');
    expect(delays).toEqual(['000000', '000000', '000000', '000000', '000000']);
    // 15-bit picture ids, counting up frame by frame: ffmpeg's 7-bit ones wrapped every 128 frames,
    // and Chromium then dropped every frame until the next keyframe (a freeze of up to 0.5 s).
    expect(pictureIds.length).toBeGreaterThan(2);
    const steps = pictureIds
      .slice(1)
      .map((id, i) => (id === null || pictureIds[i] === null ? null : (id - pictureIds[i]! + 32_768) % 32_768));
    expect(steps.every((step) => step !== null && step >= 1 && step < 16)).toBe(true);
    expect(status()).toEqual([
      expect.objectContaining({
        stationId: normal[0],
        camera: 'front',
        viewers: 1,
        live: true,
        encoderPid: expect.any(Number),
      }),
    ]);
    // The encoder runs below the server's priority (nice +10), so the server's loop gets a busy core first.
    expect(niceOf(status()[0]!.encoderPid!)).toBe(ENCODER_NICE);
    expect(niceOf(process.pid)).toBe(0);
    // The server pings; the viewer answers (RtcViewer pongs), so the connection stays.
    const session = sessions()[0]!;
    for (let ping = 1; ping <= 3; ping += 1) {
      advanceSignaling(TIMINGS.pingMs);
      await until(() => viewer.log.messages.filter((m) => m.type === 'ping').length === ping, `ping ${ping}`);
      await until(() => session.unanswered === 0, `pong ${ping} reached the server`);
    }
    expect(viewer.log.closed).toBeNull();
    expect(await viewer.disconnect()).toEqual({ code: SIGNALING_CLOSE.normal, reason: 'disconnect' });
    await until(() => status().length === 0, 'the last viewer leaving stops the encoder');
  });

  it('fans one encoder out to every viewer of a camera: two viewers, one ffmpeg, both receive; a third is over the per-camera limit', async () => {
    const a = await watch(signaling, `station-${normal[1]}-side`);
    const b = await watch(signaling, `station-${normal[1]}-side`);
    await until(() => a.keyframes > 0 && b.keyframes > 0, 'both decode from a keyframe');
    const [camera] = status();
    expect(status()).toHaveLength(1);
    expect(camera).toMatchObject({ stationId: normal[1], camera: 'side', viewers: 2 });
    const third = await openSignaling(signaling);
    third.ws.send(JSON.stringify(recvonlyConnect(`station-${normal[1]}-side`)));
    expect(await third.closed).toEqual({ code: SIGNALING_CLOSE.limit, reason: 'this camera has too many viewers' });
    await a.disconnect();
    // One viewer left: the encoder runs on for it.
    const before = b.packets;
    await until(() => b.packets > before + 20, 'the remaining viewer keeps receiving');
    expect(status()).toEqual([expect.objectContaining({ viewers: 1, encoderPid: camera!.encoderPid })]);
    await b.disconnect();
    await until(() => status().length === 0, 'encoder stopped');
  });

  it('a joining viewer gets a keyframe promptly: keyframes come every 0.5 s of picture time, however few pictures an unchanged camera sends', async () => {
    const first = await watch(signaling, `station-${normal[2]}-front`);
    await until(() => first.keyframes > 2, 'the encoder runs');
    const late = await watch(signaling, `station-${normal[2]}-front`);
    await until(() => late.firstKeyframeAt !== null, 'the late viewer gets a keyframe');
    // Keyframe n is the first picture at or after n × 0.5 s of picture time, whoever joins. The
    // idle station's picture does not change: it goes again 10 times a second (not 30), where a
    // count of 15 frames per keyframe would have stretched the interval to 1.5 s. Picture time is
    // the RTP time (90 kHz): when the encoder took the picture, which a loaded machine delays by
    // any amount, so the gap between two keyframes has no bound. What holds whatever the delays:
    // every picture between two keyframes came less than 0.5 s after the first of them (none that
    // was due went out as a delta frame), and the second came more than 0.5 s after the picture
    // before the first (none came before it was due).
    const since = first.keyframeTimestamps.length;
    await until(() => first.keyframeTimestamps.length >= since + 4, 'four more keyframes');
    const frames = [...first.frameLog];
    const keyAt = frames.flatMap((frame, i) => (frame.keyframe ? [i] : [])).slice(since - 1, since + 4);
    expect(keyAt).toHaveLength(5);
    const ms = (from: number, to: number) => ((to - from + 2 ** 32) % 2 ** 32) / 90;
    for (const [n, at] of keyAt.slice(0, -1).entries()) {
      const next = keyAt[n + 1]!;
      const key = frames[at]!.timestamp;
      for (const frame of frames.slice(at + 1, next)) expect(ms(key, frame.timestamp)).toBeLessThan(500);
      expect(at).toBeGreaterThan(0);
      expect(ms(frames[at - 1]!.timestamp, frames[next]!.timestamp)).toBeGreaterThan(500);
    }
    await first.disconnect();
    await late.disconnect();
  });
});

describe('refusals: each closes the connection with a code and a reason the client can read', () => {
  const refused = async (messages: (string | Buffer)[], path = signaling) => {
    const { ws, closed } = await openSignaling(path);
    for (const message of messages) ws.send(message);
    return closed;
  };

  it('unknown channel ids, bad roles, codecs and audio, malformed and unknown messages', async () => {
    const connect = (channel: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify(recvonlyConnect(channel, extra));
    expect(await refused([connect('station-999999-front')])).toEqual({
      code: SIGNALING_CLOSE.unknownChannel,
      reason: 'unknown channel_id',
    });
    expect(await refused([connect('station-1-top')])).toEqual({
      code: SIGNALING_CLOSE.unknownChannel,
      reason: 'unknown channel_id',
    });
    expect(await refused([connect('sora')])).toEqual({
      code: SIGNALING_CLOSE.unknownChannel,
      reason: 'unknown channel_id',
    });
    expect(await refused([connect('station-01-front')])).toEqual({
      code: SIGNALING_CLOSE.unknownChannel,
      reason: 'unknown channel_id',
    });
    expect(await refused([connect('station-1-front', { role: 'sendonly' })])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'this endpoint only sends video: role must be recvonly',
    });
    expect(await refused([connect('station-1-front', { video: { codec_type: 'H264' } })])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'the feed is VP8 only',
    });
    expect(await refused([connect('station-1-front', { audio: true })])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'the feed has no audio: audio must be false',
    });
    expect(await refused([connect('station-1-front', { channel_id: 42 })])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'malformed connect message',
    });
    expect(await refused(['{"type":'])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'a signaling message is not JSON',
    });
    expect(await refused(['[1,2]'])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'a signaling message needs a string type',
    });
    expect(await refused([Buffer.from([0xff, 0x00, 0xc3])])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'signaling messages are JSON text',
    });
    expect(await refused(['{"type":"answer","sdp":"v=0"}'])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'expected connect, got answer',
    });
    expect(await refused([connect('station-1-front'), '{"type":"offer-me-more"}'])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'unknown message type "offer-me-more"',
    });
    expect(await refused([connect('station-1-front'), connect('station-1-front')])).toEqual({
      code: SIGNALING_CLOSE.badMessage,
      reason: 'connect was already sent',
    });
    // Nothing leaked: every refused socket left the counts at zero.
    await until(() => t.server.services().signaling.connections === 0 && status().length === 0, 'nothing left open');
  });

  it('a client that never connects, or never answers, is closed at the deadline; one that stops answering pings too', async () => {
    const silent = await openSignaling(signaling);
    await until(() => connections() === 1, 'the server holds the session');
    advanceSignaling(TIMINGS.connectMs - 1);
    expect(silent.log.closed).toBeNull();
    advanceSignaling(1);
    expect(await silent.closed).toEqual({ code: SIGNALING_CLOSE.timeout, reason: 'no connect message in time' });

    const unanswering = await openSignaling(signaling);
    unanswering.ws.send(JSON.stringify(recvonlyConnect(`station-${normal[3]}-front`)));
    await until(() => unanswering.log.messages.some((m) => m.type === 'offer'), 'the offer');
    advanceSignaling(TIMINGS.answerMs - 1);
    expect(unanswering.log.closed).toBeNull();
    advanceSignaling(1);
    expect(await unanswering.closed).toEqual({ code: SIGNALING_CLOSE.timeout, reason: 'no answer in time' });
    await until(() => status().length === 0, 'encoder stopped');

    const viewer = await watch(signaling, `station-${normal[3]}-front`);
    await until(() => viewer.packets > 0, 'the media connected');
    viewer.ws.removeAllListeners('message'); // stops answering pings
    // Two pings go unanswered; at the third the connection ends.
    advanceSignaling(TIMINGS.pingMs);
    advanceSignaling(TIMINGS.pingMs);
    expect(viewer.log.closed).toBeNull();
    advanceSignaling(TIMINGS.pingMs);
    expect(await viewer.closed).toEqual({ code: SIGNALING_CLOSE.timeout, reason: 'no pong' });
  });

  it("a VIP station's camera needs the media token station info gives (in webrtc_url); another station's token is refused", async () => {
    const vip = (
      await t.server
        .store()
        .query<{ station_id: number }>(
          "SELECT station_id FROM stations WHERE station_type <> 'normal' ORDER BY station_id LIMIT 1",
        )
    )[0]!.station_id;
    expect(await refused([JSON.stringify(recvonlyConnect(`station-${vip}-front`))])).toEqual({
      code: SIGNALING_CLOSE.forbidden,
      reason: 'this camera needs a media token',
    });
    const user = { user_id: Number((await post(t, 'auth/debug_login', { name: 'vip-viewer' })).json.user_id) };
    const token = 'media-token-for-another-station';
    await t.server.services().users.recordMediaToken(user.user_id, token, 1, 60_000);
    expect(await refused([JSON.stringify(recvonlyConnect(`station-${vip}-front`))], `${signaling}?k=${token}`)).toEqual(
      { code: SIGNALING_CLOSE.forbidden, reason: 'this camera needs a media token' },
    );
    await t.server.services().users.recordMediaToken(user.user_id, 'media-token-for-the-vip-station', vip, 60_000);
    const viewer = await watch(`${signaling}?k=media-token-for-the-vip-station`, `station-${vip}-front`);
    await until(() => viewer.packets > 0, 'the VIP camera plays with its token');
    await viewer.disconnect();
  });

  it('limits hold under a burst: of 12 sockets opened at once from one address only 6 stay (per client), and the fourth camera finds the encoders busy', async () => {
    const burst = await Promise.allSettled(Array.from({ length: 12 }, () => openSignaling(signaling)));
    const sockets = burst.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    // Six are refused at once; the other six stay open (their connect deadline is the test's to move).
    await until(() => sockets.filter((o) => o.log.closed !== null).length === 6, 'six refused');
    expect(sockets.map((o) => o.log.closed).filter((c) => c !== null)).toEqual(
      Array.from({ length: 6 }, () => ({
        code: SIGNALING_CLOSE.limit,
        reason: 'too many connections from this client',
      })),
    );
    expect(connections()).toBe(6);
    for (const o of sockets) o.ws.terminate();
    await until(() => connections() === 0, 'all closed');

    const viewers = [];
    for (const channel of [`station-${normal[4]}-front`, `station-${normal[4]}-side`, `station-${normal[5]}-front`])
      viewers.push(await watch(signaling, channel));
    const fourth = await openSignaling(signaling);
    fourth.ws.send(JSON.stringify(recvonlyConnect(`station-${normal[5]}-side`)));
    expect(await fourth.closed).toEqual({ code: SIGNALING_CLOSE.limit, reason: 'too many cameras are being watched' });
    for (const viewer of viewers) await viewer.disconnect();
    await until(() => status().length === 0, 'encoders stopped');
  });

  it('a page of another origin cannot open the signaling socket (403), and other upgrade paths are not answered by it', async () => {
    await expect(openSignaling(signaling, { Origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(openSignaling(`${t.origin.replace('http:', 'ws:')}/signalingx`)).rejects.toThrow();
  });

  it('[R4.2-10] a station going down takes the track off every connection (re-offer, inactive) and puts it back when it is up', async () => {
    const viewer = await watch(signaling, `station-${normal[6]}-front`);
    await until(() => viewer.packets > 10, 'playing');
    await stationOps(t.server).setStatus(normal[6]!, 'maintenance');
    const reOffers = () =>
      viewer.log.messages
        .filter((m) => m.type === 're-offer')
        .map((m) => /^a=(sendonly|inactive)\r$/m.exec(String(m.sdp))?.[1]);
    await until(() => reOffers().length === 1, 'a re-offer');
    expect(reOffers()).toEqual(['inactive']);
    // werift writes port 0 for an inactive section, which would make the browser drop the transport.
    expect(String(viewer.log.messages.find((m) => m.type === 're-offer')!.sdp)).toMatch(/^m=video 9 /m);
    await until(() => status()[0]?.live === false, 'the camera is dark');
    const dark = viewer.packets;
    await stationOps(t.server).setStatus(normal[6]!, 'open');
    await until(() => reOffers().length === 2, 'a second re-offer');
    expect(reOffers()).toEqual(['inactive', 'sendonly']);
    await until(() => viewer.packets > dark + 10, 'video again');
    await viewer.disconnect();
  });
});

describe('the camera worker', () => {
  it('draws the video pictures off the event loop; when it dies the server stays up, a new worker is started and the video goes on with new pictures', async () => {
    const painter = t.server.services().cameras.painter as CameraPainter;
    const station = normal[7]!;
    const viewer = await watch(signaling, `station-${station}-front`);
    await until(() => viewer.keyframes > 0 && viewer.packets > 10, 'playing');
    const first = painter.threadId;
    expect(first).not.toBeNull();
    const crashes = painter.crashes;
    painter.crash();
    await until(() => painter.crashes === crashes + 1, 'the worker died');
    expect((await fetch(`${t.origin}/healthz`)).status).toBe(200);
    // New pictures need the new worker: the station going down dims the picture (the camera goes
    // dark), coming back up draws it again, and the same connection plays on.
    await stationOps(t.server).setStatus(station, 'maintenance');
    await until(() => status()[0]?.live === false, 'the dimmed picture was drawn: the camera is dark');
    await stationOps(t.server).setStatus(station, 'open');
    await until(() => status()[0]?.live === true, 'the camera is live again');
    const before = { packets: viewer.packets, keyframes: viewer.keyframes };
    await until(() => viewer.packets > before.packets + 20 && viewer.keyframes > before.keyframes, 'video again');
    expect(painter.threadId).not.toBeNull();
    expect(painter.threadId).not.toBe(first);
    expect(viewer.log.closed).toBeNull();
    const still = await fetch(`${t.origin}/api/stations/${station}/camera/side.jpg`);
    expect(still.status).toBe(200);
    await viewer.disconnect();
    await until(() => status().length === 0, 'encoder stopped');
  });
});

describe('without an encoder', () => {
  let bare: TestServer;
  let staticWithEncoder: TestServer;
  let jpgServer: TestServer;
  let staticDir: string;
  beforeAll(async () => {
    staticDir = mkdtempSync(join(tmpdir(), 'onkure-static-'));
    writeFileSync(
      join(staticDir, 'index.html'),
      '<!doctype html><html><head><meta name="onkure-feed" content="" /></head><body></body></html>',
    );
    [bare, staticWithEncoder, jpgServer] = await Promise.all([
      startTestServer({
        listen: true,
        env: { FFMPEG_PATH: join(staticDir, 'no-ffmpeg-here'), STATIC_DIR: staticDir },
      }),
      startTestServer({ env: { STATIC_DIR: staticDir } }),
      startTestServer({ env: { STATIC_DIR: staticDir, ONKURE_FEED: 'jpg' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([bare?.close(), staticWithEncoder?.close(), jpgServer?.close()]);
    rmSync(staticDir, { recursive: true, force: true });
  });

  it("serves jpg only: the page's default mode is jpg, and a connect is refused so the client falls back [R4.2-7]", async () => {
    expect(bare.server.services().rtcFeed.unavailableReason).toMatch(/does not run/);
    const page = await (await fetch(`${bare.origin}/game/1`)).text();
    expect(page).toContain('<meta name="onkure-feed" content="jpg"');
    const { ws, closed } = await openSignaling(`${bare.origin.replace('http:', 'ws:')}/signaling`);
    ws.send(JSON.stringify(recvonlyConnect('station-1-front')));
    expect(await closed).toEqual({
      code: SIGNALING_CLOSE.unavailable,
      reason: 'live video is not available on this server',
    });
  });

  it("with an encoder, the page's default mode follows ONKURE_FEED (rtc unless set to jpg)", async () => {
    {
      const meta = async (s: TestServer) =>
        /<meta name="onkure-feed" content="([a-z]*)"/.exec(
          (await s.server.app.inject({ method: 'GET', url: '/' })).body,
        )?.[1];
      expect(await meta(staticWithEncoder)).toBe('rtc');
      expect(await meta(jpgServer)).toBe('jpg');
      // The raw shell is not served as a file (it has no mode).
      expect((await staticWithEncoder.server.app.inject({ method: 'GET', url: '/index.html' })).body).toContain(
        'content="rtc"',
      );
    }
  });
});
