import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIGNALING_CLOSE } from '../../server/live/signaling';
import { post } from './user-helpers';
import { ManualServerClock } from '../support/manual-server-clock';
import { openSignaling as openRaw, recvonlyConnect, RtcViewer } from '../support/rtc-viewer';
import { startTestServer, type TestServer } from '../support/test-server';
import { stationOps } from '../support/station-ops';
import { gatedStation } from '../support/stations';
import { TestCameras } from '../support/test-cameras';

/**
 * The rtc feed's Sora-compatible signaling peer over a real port, with werift viewers in Node
 * speaking what sora-js-sdk speaks (the browser itself: e2e/live-feed.spec.ts). The video is a test
 * pattern published over WHIP (TestCameras: the static ffmpeg of the optional npm package encodes
 * it), as a station's agent or camera publishes it; the server forwards it and encodes nothing.
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
let vip = 0;
let cameras: TestCameras;
beforeAll(async () => {
  t = await startTestServer({
    listen: true,
    env: { RTC_MAX_CONNECTIONS_PER_CLIENT: '6', RTC_MAX_VIEWERS_PER_CAMERA: '2' },
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
  vip = await gatedStation(t);
  cameras = await TestCameras.issue(t, [...normal, vip]);
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
  await cameras.stopAll();
  // The next test starts with no session and no camera channel left (one goes with its last viewer and its publisher).
  await until(() => connections() === 0 && status().length === 0, 'no session or channel left after the test');
});

/** Moves the signaling clock on by `ms`, once the server has a session to time (it counts them as they open). */
const advanceSignaling = (ms: number) => signalingClock.advance(ms);
/** The direction of each re-offer a viewer got, in order (its track taken off: inactive; back: sendonly). */
const reOfferDirections = (viewer: RtcViewer) =>
  viewer.log.messages
    .filter((m) => m.type === 're-offer')
    .map((m) => /^a=(sendonly|inactive)\r$/m.exec(String(m.sdp))?.[1]);
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  await expect.poll(check, { timeout: ms, message: what }).toBe(true);
}

describe('the signaling exchange sora-js-sdk needs for recvonly', () => {
  it('[R4.2-6] [R7-8] connect → offer (server offers sendonly VP8 with its candidates inside) and notify connection.created → answer → the published VP8 with keyframes → ping/pong → disconnect closes 1000 and the viewer leaves the camera', async () => {
    await cameras.publish(normal[0]!, 'front');
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
    // 15-bit picture ids, counting up frame by frame, whatever the publisher sends: 7-bit ones wrap
    // every 128 frames, and Chromium then dropped every frame until the next keyframe.
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
        source: 'whip',
      }),
    ]);
    // The server pings; the viewer answers (RtcViewer pongs), so the connection stays.
    const session = sessions()[0]!;
    for (let ping = 1; ping <= 3; ping += 1) {
      advanceSignaling(TIMINGS.pingMs);
      await until(() => viewer.log.messages.filter((m) => m.type === 'ping').length === ping, `ping ${ping}`);
      await until(() => session.unanswered === 0, `pong ${ping} reached the server`);
    }
    expect(viewer.log.closed).toBeNull();
    expect(await viewer.disconnect()).toEqual({ code: SIGNALING_CLOSE.normal, reason: 'disconnect' });
    await until(() => status()[0]?.viewers === 0, 'the viewer left the camera');
  });

  it('fans one publisher out to every viewer of a camera: two viewers, one channel, both receive; a third is over the per-camera limit', async () => {
    await cameras.publish(normal[1]!, 'side');
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
    // One viewer left: the other plays on.
    const before = b.packets;
    await until(() => b.packets > before + 20, 'the remaining viewer keeps receiving');
    expect(status()).toEqual([expect.objectContaining({ viewers: 1, packets: expect.any(Number) })]);
    expect(status()[0]!.packets).toBeGreaterThan(camera!.packets);
    await b.disconnect();
    await until(() => status()[0]?.viewers === 0, 'both left');
  });

  it('a joining viewer starts at a keyframe, and its join asks the publisher for one (PLI) rather than wait for its next', async () => {
    const publisher = await cameras.publish(normal[2]!, 'front');
    const first = await watch(signaling, `station-${normal[2]}-front`);
    await until(() => first.keyframes > 0 && first.packets > 20, 'the first viewer plays');
    const asked = publisher.keyframeRequests;
    const late = await watch(signaling, `station-${normal[2]}-front`);
    await until(() => late.firstKeyframeAt !== null, 'the late viewer gets a keyframe');
    expect(publisher.keyframeRequests).toBeGreaterThan(asked);
    // The late viewer's first frame is a keyframe: it is sent nothing it could not decode.
    expect(late.frameLog[0]?.keyframe).toBe(true);
    await first.disconnect();
    await late.disconnect();
  });

  it('a camera nobody publishes is watched all the same: offered, its track taken off (dark: the page shows its poster or stills) until a publisher sends, then the video comes on the same connection', async () => {
    const viewer = await watch(signaling, `station-${normal[8]}-side`);
    const directions = () => reOfferDirections(viewer);
    await until(() => directions().length === 1, 'the track taken off');
    expect(directions()).toEqual(['inactive']);
    expect(status()).toEqual([
      expect.objectContaining({ stationId: normal[8], camera: 'side', live: false, source: null }),
    ]);
    expect(viewer.packets).toBe(0);
    await cameras.publish(normal[8]!, 'side');
    await until(() => directions().length === 2, 'the track back');
    expect(directions()).toEqual(['inactive', 'sendonly']);
    await until(() => viewer.keyframes > 0 && viewer.packets > 10, 'video on the same connection');
    expect(viewer.log.closed).toBeNull();
    await viewer.disconnect();
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
    await until(() => status().length === 0, 'the unanswered session left the camera');

    await cameras.publish(normal[3]!, 'front');
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
    await cameras.publish(vip, 'front');
    const viewer = await watch(`${signaling}?k=media-token-for-the-vip-station`, `station-${vip}-front`);
    await until(() => viewer.packets > 0, 'the VIP camera plays with its token');
    await viewer.disconnect();
  });

  it('the per-client limit holds under a burst: of 12 sockets opened at once from one address only 6 stay', async () => {
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
  });

  it('a page of another origin cannot open the signaling socket (403), and other upgrade paths are not answered by it', async () => {
    await expect(openSignaling(signaling, { Origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(openSignaling(`${t.origin.replace('http:', 'ws:')}/signalingx`)).rejects.toThrow();
  });

  it('[R4.2-10] a station going down takes the track off every connection (re-offer, inactive) and puts it back when it is up', async () => {
    await cameras.publish(normal[6]!, 'front');
    const viewer = await watch(signaling, `station-${normal[6]}-front`);
    await until(() => viewer.packets > 10, 'playing');
    await stationOps(t.server).setStatus(normal[6]!, 'maintenance');
    const reOffers = () => reOfferDirections(viewer);
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

describe('without ffmpeg', () => {
  let bare: TestServer;
  let staticServer: TestServer;
  let jpgServer: TestServer;
  let staticDir: string;
  beforeAll(async () => {
    staticDir = mkdtempSync(join(tmpdir(), 'onkure-static-'));
    writeFileSync(
      join(staticDir, 'index.html'),
      '<!doctype html><html><head><meta name="onkure-feed" content="" /></head><body></body></html>',
    );
    [bare, staticServer, jpgServer] = await Promise.all([
      startTestServer({
        listen: true,
        env: { FFMPEG_PATH: join(staticDir, 'no-ffmpeg-here'), STATIC_DIR: staticDir },
      }),
      startTestServer({ env: { STATIC_DIR: staticDir } }),
      startTestServer({ env: { STATIC_DIR: staticDir, ONKURE_FEED: 'jpg' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([bare?.close(), staticServer?.close(), jpgServer?.close()]);
    rmSync(staticDir, { recursive: true, force: true });
  });

  it("VP8 cameras still play in rtc (forwarded as they come, nothing to encode) and the page's default stays rtc; stills, which need ffmpeg to decode, are answered 503 in Japanese", async () => {
    expect(bare.server.services().rtcFeed.ffmpegProblem).toMatch(/does not run/);
    const page = await (await fetch(`${bare.origin}/game/1`)).text();
    expect(page).toContain('<meta name="onkure-feed" content="rtc"');
    const station = normal[0]!;
    const bareCameras = await TestCameras.issue(bare, [station]);
    try {
      await bareCameras.publish(station, 'front');
      const viewer = await watch(`${bare.origin.replace('http:', 'ws:')}/signaling`, `station-${station}-front`);
      await until(() => viewer.keyframes > 0 && viewer.packets > 10, 'video without ffmpeg on the server');
      const still = await fetch(`${bare.origin}/api/stations/${station}/camera/front.jpg`);
      expect([still.status, await still.json()]).toEqual([
        503,
        { error_code: 503, error_info: 'カメラの映像を準備しています。しばらくお待ちください。' },
      ]);
      await viewer.disconnect();
    } finally {
      await bareCameras.stopAll();
    }
  });

  it("the page's default mode follows ONKURE_FEED (rtc unless set to jpg)", async () => {
    {
      const meta = async (s: TestServer) =>
        /<meta name="onkure-feed" content="([a-z]*)"/.exec(
          (await s.server.app.inject({ method: 'GET', url: '/' })).body,
        )?.[1];
      expect(await meta(staticServer)).toBe('rtc');
      expect(await meta(jpgServer)).toBe('jpg');
      // The raw shell is not served as a file (it has no mode).
      expect((await staticServer.server.app.inject({ method: 'GET', url: '/index.html' })).body).toContain(
        'content="rtc"',
      );
    }
  });
});
