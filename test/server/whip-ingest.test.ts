import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WhipRefused, WhipSession } from '../../media/whip-client';
import { RtcViewer } from '../support/rtc-viewer';
import { startTestServer, type TestServer } from '../support/test-server';
import { stationOps } from '../support/station-ops';
import { TestPatternPublisher } from '../support/whip-test-publisher';

/**
 * Cameras publishing over WHIP (RFC 9725; docs/live-feed.md "Cameras from WHIP"), over a real port:
 * a publisher (werift, fed ffmpeg's test pattern) → the server's WHIP endpoint → the camera's
 * channel → werift viewers on the Sora-compatible signaling. Bad input is refused with a Japanese
 * error_info and leaves nothing running [R11-4].
 */

let t: TestServer;
let signaling: string;
let stations: number[] = [];
let key = '';
let otherKey = '';
beforeAll(async () => {
  t = await startTestServer({ listen: true, env: { RTC_MAX_VIEWERS_PER_CAMERA: '4' } });
  signaling = `${t.origin.replace('http:', 'ws:')}/signaling`;
  stations = (
    await t.server
      .store()
      .query<{ station_id: number }>(
        "SELECT station_id FROM stations WHERE station_type = 'normal' AND station_status = 'open' ORDER BY station_id LIMIT 9",
      )
  ).map((r) => r.station_id);
  const keys = t.server.services().stationKeys;
  key = (await keys.issue({ name: 'cameras', stationIds: stations.slice(0, 8), by: 'test' })).key;
  otherKey = (await keys.issue({ name: 'other', stationIds: [stations[8]!], by: 'test' })).key;
});
afterAll(async () => t?.close());

const ingest = () => t.server.services().ingest;
const feed = () => t.server.services().rtcFeed;
const endpoint = (station: number, camera = 'front') => `${t.origin}/whip/${station}/${camera}`;
const stats = (station: number, camera = 'front') =>
  feed()
    .cameraStats()
    .find((s) => s.station_id === station && s.camera === camera);

const opened: { close(): unknown; stop?: never }[] = [];
const publishers: TestPatternPublisher[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
  await Promise.all(publishers.splice(0).map((p) => p.stop()));
  await until(() => ingest().count === 0 && feed().status().length === 0, 'no publisher nor channel left');
});
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  await expect.poll(check, { timeout: ms, message: what }).toBe(true);
}
/** A JPEG's size, from its start-of-frame segment. */
function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  for (let at = 2; at + 9 < jpeg.length;) {
    if (jpeg[at] !== 0xff) return null;
    const marker = jpeg[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return null;
}
const watch = async (station: number, camera = 'front') => {
  const viewer = await RtcViewer.connect(signaling, `station-${station}-${camera}`);
  opened.push(viewer);
  return viewer;
};
const publish = async (station: number, options: Parameters<typeof TestPatternPublisher.start>[2] = {}) => {
  const publisher = await TestPatternPublisher.start(endpoint(station), key, options);
  publishers.push(publisher);
  return publisher;
};
/** Whether the viewer's track is on (its last re-offer, if any, sends). */
const trackOn = (viewer: RtcViewer) => {
  const reOffers = viewer.log.messages.filter((m) => m.type === 're-offer');
  const last = reOffers.at(-1);
  return last === undefined || /a=sendonly/.test(String(last.sdp));
};

describe('[R11-4] a camera publishes over WHIP and its video reaches every viewer as it came', () => {
  it('VP8 from the publisher is forwarded to two viewers from a keyframe on: no encoder runs on the server, a joining viewer asks the publisher for a keyframe (PLI)', async () => {
    const station = stations[0]!;
    const publisher = await publish(station);
    expect(publisher.session.resource.pathname).toMatch(new RegExp(`^/whip/${station}/front/[\\w-]{22}$`));
    await until(() => publisher.packets > 20, 'the publisher sends');
    const asked = publisher.keyframeRequests;
    const a = await watch(station);
    await until(() => a.keyframes >= 1 && a.frames > 10, 'the first viewer gets frames from a keyframe on', 5_000);
    expect(publisher.keyframeRequests).toBeGreaterThan(asked);
    const b = await watch(station);
    await until(() => b.keyframes >= 1 && b.frames > 10, 'the second viewer too', 5_000);
    // The first frame each viewer got is a keyframe (nothing undecodable before it).
    expect(a.frameLog[0]?.keyframe).toBe(true);
    expect(b.frameLog[0]?.keyframe).toBe(true);
    expect(feed().status()).toEqual([
      expect.objectContaining({
        stationId: station,
        camera: 'front',
        viewers: 2,
        source: 'whip',
      }),
    ]);
    await until(() => (stats(station)?.fps ?? 0) >= 15, 'the console sees its frame rate');
    expect(stats(station)).toMatchObject({ publishing: true, codec: 'VP8', source: 'whip', viewers: 2, live: true });
    expect(stats(station)!.kbps).toBeGreaterThan(50);
    expect(Date.parse(stats(station)!.last_keyframe_at!)).toBeGreaterThan(Date.now() - 15_000);
  });

  it('a publisher that stops sending darkens the camera (the track goes off) and its return brings the video back; DELETE ends the session', async () => {
    const station = stations[1]!;
    const publisher = await publish(station);
    const viewer = await watch(station);
    await until(() => viewer.keyframes >= 1, 'video arrives');
    publisher.pause(); // a network cut, as the server sees it: nothing arrives
    await until(() => !trackOn(viewer), 'the track goes off after a second of silence', 5_000);
    expect(stats(station)).toMatchObject({ publishing: false, live: false, source: 'whip' });
    const before = viewer.keyframes;
    publisher.resume();
    await until(() => trackOn(viewer) && viewer.keyframes > before, 'back on, from a keyframe', 5_000);
    const answer = await fetch(publisher.session.resource, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(answer.status).toBe(200);
    await until(() => !trackOn(viewer), 'dark once its publisher left');
    expect(ingest().count).toBe(0);
    expect(stats(station)).toMatchObject({ publishing: false, source: null });
  });

  it('[R4.2-10] a station going down darkens its published camera (the track goes off) whatever the publisher sends; up again, the video returns', async () => {
    const station = stations[1]!;
    const publisher = await publish(station);
    const viewer = await watch(station);
    await until(() => viewer.keyframes >= 1, 'video arrives');
    const ops = stationOps(t.server);
    await ops.setStatus(station, 'maintenance');
    try {
      await until(() => !trackOn(viewer), 'the track goes off while the station is down', 5_000);
      expect(stats(station)).toMatchObject({ publishing: true, live: false });
      const packets = viewer.packets;
      const sent = publisher.packets;
      await until(() => publisher.packets > sent + 60, 'the publisher goes on sending');
      // Nothing of it reached the viewer (a packet in flight at the switch at most).
      expect(viewer.packets - packets).toBeLessThanOrEqual(5);
    } finally {
      await ops.setStatus(station, 'open');
    }
    const keyframes = viewer.keyframes;
    await until(() => trackOn(viewer) && viewer.keyframes > keyframes, 'back on, from a keyframe', 5_000);
  });

  it('a second publisher for the same camera replaces the first (documented): the first session is gone, the viewers stay and see the new one', async () => {
    const station = stations[2]!;
    const first = await publish(station);
    const viewer = await watch(station);
    await until(() => viewer.keyframes >= 1, 'video from the first');
    const second = await publish(station);
    expect(second.session.resource.href).not.toBe(first.session.resource.href);
    const firstId = first.session.resource.pathname.split('/').pop()!;
    expect(ingest().session(station, 'front', firstId)).toBeNull();
    const stale = await fetch(first.session.resource, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(stale.status).toBe(404);
    expect(await stale.json()).toEqual({ error_code: 404, error_info: '配信セッションが見つかりません。' });
    const frames = viewer.frames;
    await until(() => viewer.frames > frames + 20, 'the viewer plays on, now from the second publisher');
    expect(ingest().count).toBe(1);
  });

  it("a stand-in (the sim agent's painted camera, ?standin=1) never replaces a real camera (409 in Japanese) and is not asked for while one publishes; a real camera replaces a stand-in", async () => {
    const station = stations[3]!;
    const demand = () => t.server.services().cameraDemand.wanted(station);
    const standInEndpoint = `${endpoint(station)}?standin=1`;
    const standIn = await TestPatternPublisher.start(standInEndpoint, key);
    publishers.push(standIn);
    const viewer = await watch(station);
    await until(() => viewer.keyframes >= 1, 'video from the stand-in');
    expect(demand()).toEqual(['front']); // its agent keeps publishing it
    // A real camera comes: it replaces the stand-in, and the lease leaves the camera out.
    const real = await publish(station);
    expect(ingest().session(station, 'front', standIn.session.resource.pathname.split('/').pop()!)).toBeNull();
    expect(demand()).toEqual([]);
    const frames = viewer.frames;
    await until(() => viewer.frames > frames + 20, 'the viewer plays on, from the real camera');
    // The stand-in coming back (its agent retrying) is refused while the real camera publishes.
    const again = await fetch(standInEndpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/sdp' },
      body: readFileSync(new URL('../fixtures/chromium-whip-offer.sdp', import.meta.url), 'utf8').replace(
        /\r?\n/g,
        '\r\n',
      ),
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error_code: 409,
      error_info: 'このカメラは実機のカメラが配信中です。シミュレーターの映像では置き換えられません。',
    });
    expect(ingest().count).toBe(1);
    // The real camera leaves: the camera is wanted of the agent again.
    await real.stop();
    expect(demand()).toEqual(['front']);
  });

  it('H.264 (OBS’s default) is transcoded to VP8 once for the camera, however many watch', async () => {
    const station = stations[3]!;
    await publish(station, { codec: 'H264' });
    const a = await watch(station);
    const b = await watch(station);
    await until(() => a.keyframes >= 1 && b.keyframes >= 1 && a.frames > 10 && b.frames > 10, 'both get VP8', 10_000);
    expect(stats(station)).toMatchObject({ codec: 'H264', source: 'whip', viewers: 2 });
    // One transcoder: exactly one ffmpeg child of the server reads H.264.
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/);
    const transcoders = children.filter((pid) => {
      try {
        // The server's transcoder reads H.264 stamped with its arrival (the test's own publisher writes it).
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('use_wallclock_as_timestamps');
      } catch {
        return false;
      }
    });
    expect(transcoders).toHaveLength(1);
  });

  it('jpg mode’s stills are made from the video: decoded once for the camera while asked for, upright, moving; the last one stays while the camera is dark', async () => {
    const station = stations[7]!;
    const publisher = await publish(station);
    const still = () => fetch(`${t.origin}/api/stations/${station}/camera/front.jpg?t=${Date.now()}`);
    const [a, b] = await Promise.all([still(), still()]);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('image/jpeg');
    const first = Buffer.from(await a.arrayBuffer());
    await b.arrayBuffer();
    // The test pattern is 320×240 as sent; the still is the picture turned a quarter clockwise, as the
    // play screen turns the sideways-mounted camera's video [R9-10].
    expect(jpegSize(first)).toEqual({ width: 240, height: 320 });
    expect(t.server.services().stills.running()).toEqual([
      expect.objectContaining({ stationId: station, camera: 'front' }),
    ]);
    let later = first;
    await until(async () => {
      later = Buffer.from(await (await still()).arrayBuffer());
      return !later.equals(first);
    }, 'a later still shows a later picture');
    publisher.pause();
    await until(() => !feed().channel(station, 'front').isLive, 'the camera is dark');
    const dark1 = Buffer.from(await (await still()).arrayBuffer());
    const dark2 = Buffer.from(await (await still()).arrayBuffer());
    expect(dark2.equals(dark1)).toBe(true);
    expect(jpegSize(dark1)).toEqual({ width: 240, height: 320 });
    publisher.resume();
    await until(async () => !Buffer.from(await (await still()).arrayBuffer()).equals(dark1), 'moving again');
    // Nobody asks: the decoder stops (5 s after the last ask).
    await until(() => t.server.services().stills.running().length === 0, 'the decoder stops', 10_000);
  });

  it('trickle ICE by PATCH (RFC 8840): 204; a stale ETag is 412, an ICE restart 501, a wrong type 415', async () => {
    const station = stations[4]!;
    const publisher = await publish(station);
    const patch = (body: string, headers: Record<string, string>) =>
      fetch(publisher.session.resource, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/trickle-ice-sdpfrag', ...headers },
        body,
      });
    const fragment =
      'a=ice-ufrag:abcd\r\na=ice-pwd:0123456789abcdef012345\r\nm=video 9 UDP/TLS/RTP/SAVPF 0\r\na=mid:0\r\na=candidate:1 1 udp 2113937151 127.0.0.1 50000 typ host\r\na=candidate:2 1 udp 2113937151 abc.local 50001 typ host\r\na=end-of-candidates\r\n';
    expect((await patch(fragment, { 'if-match': publisher.session.etag! })).status).toBe(204);
    expect((await patch(fragment, {})).status).toBe(204);
    const stale = await patch(fragment, { 'if-match': '"not-it"' });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toEqual({ error_code: 412, error_info: '配信セッションの ETag が一致しません。' });
    expect((await patch(fragment, { 'if-match': '*' })).status).toBe(501);
    expect((await patch('{}', { 'content-type': 'application/json' })).status).toBe(415);
    const flood = 'a=candidate:1 1 udp 2113937151 127.0.0.1 50000 typ host\r\n'.repeat(60);
    const tooMany = await patch(flood, {});
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toEqual({ error_code: 400, error_info: 'ICE の候補が多すぎます。' });
  });
});

describe('[R11-4] only the station’s key publishes; bad offers are refused with a clear answer and leave nothing running', () => {
  // A real Chromium offer (video and audio, sendonly), in SDP's CRLF lines whatever git did to the file.
  const offer = readFileSync(new URL('../fixtures/chromium-whip-offer.sdp', import.meta.url), 'utf8').replace(
    /\r?\n/g,
    '\r\n',
  );
  const post = (url: string, body: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${key}`, ...headers },
      body,
    });
  const refusal = async (answer: Response) => ({ status: answer.status, body: (await answer.json()) as unknown });

  it('no key, a malformed key, an unknown key, another station’s key', async () => {
    const url = endpoint(stations[5]!);
    expect(await refusal(await post(url, offer, { authorization: '' }))).toEqual({
      status: 401,
      body: { error_code: 401, error_info: 'ステーションの接続キーを Authorization: Bearer で指定してください。' },
    });
    const bad = await post(url, offer, { authorization: 'Bearer onk_sk_aaaaaaaaaaaa_' + 'x'.repeat(43) });
    expect(bad.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await refusal(bad)).toEqual({
      status: 401,
      body: { error_code: 401, error_info: '接続キーが正しくないか、失効しています。' },
    });
    expect((await post(url, offer, { authorization: 'Basic dXNlcjpwYXNz' })).status).toBe(401);
    expect(await refusal(await post(url, offer, { authorization: `Bearer ${otherKey}` }))).toEqual({
      status: 403,
      body: { error_code: 403, error_info: 'この接続キーではこのステーションのカメラを配信できません。' },
    });
    expect(ingest().count).toBe(0);
  });

  it('a malformed, oversized, video-less, receive-only or codec-less offer; an unknown camera or station; the wrong type', async () => {
    const url = endpoint(stations[5]!);
    const cases: [string, Response, number, string][] = [
      ['not SDP', await post(url, 'hello'), 400, 'SDP のオファーを読み取れませんでした。'],
      ['oversized', await post(url, offer + `a=x-pad:${'x'.repeat(20_000)}\r\n`), 413, 'リクエストが大きすぎます。'],
      [
        'audio only',
        await post(url, offer.replace(/\r\nm=video[\s\S]*$/, '\r\n')),
        400,
        'オファーに送信する映像がありません。',
      ],
      [
        'receive-only video',
        await post(url, offer.replace(/a=sendonly/g, 'a=recvonly')),
        400,
        'オファーに送信する映像がありません。',
      ],
      [
        'no VP8 or H.264',
        await post(url, offer.replace(/ (VP8|H264)\/90000/g, ' AV1X/90000')),
        400,
        '映像のコーデックは VP8 または H.264（packetization-mode=1）にしてください。',
      ],
      [
        'parsed, but unusable (no ICE credentials, no fingerprint)',
        await post(url, offer.replace(/^a=(ice-ufrag|ice-pwd|fingerprint).*\r\n/gm, '')),
        400,
        'SDP のオファーを読み取れませんでした。',
      ],
      [
        'unknown camera',
        await post(`${t.origin}/whip/${stations[5]}/top`, offer),
        404,
        'カメラは front または side を指定してください。',
      ],
      [
        'wrong type',
        await post(url, JSON.stringify({ sdp: offer }), { 'content-type': 'application/json' }),
        415,
        'SDP のオファーを Content-Type: application/sdp で送ってください。',
      ],
    ];
    for (const [what, answer, status, info] of cases)
      expect({ what, ...(await refusal(answer)) }).toEqual({
        what,
        status,
        body: { error_code: status, error_info: info },
      });
    expect((await post(`${t.origin}/whip/0/front`, offer)).status).toBe(404);
    expect((await post(`${t.origin}/whip/99999999999/front`, offer)).status).toBe(404);
    expect(ingest().count).toBe(0);
    expect(feed().status()).toEqual([]);
  });

  it('a DELETE or PATCH of another session’s resource, or with another station’s key, is refused and ends nothing', async () => {
    const station = stations[6]!;
    const publisher = await publish(station);
    const resource = publisher.session.resource;
    const guessed = new URL(resource.href.replace(/[\w-]{22}$/, 'A'.repeat(22)));
    expect((await fetch(guessed, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
    expect((await fetch(resource, { method: 'DELETE', headers: { authorization: `Bearer ${otherKey}` } })).status).toBe(
      403,
    );
    expect((await fetch(resource, { method: 'DELETE' })).status).toBe(401);
    const side = new URL(resource.href.replace('/front/', '/side/'));
    expect((await fetch(side, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
    expect(ingest().session(station, 'front', resource.pathname.split('/').pop()!)).not.toBeNull();
  });

  it('the werift client reports a refusal with its status and Japanese reason', async () => {
    const refused = await WhipSession.publish({
      endpoint: endpoint(stations[8]!),
      token: key,
      iceHosts: ['127.0.0.1'],
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WhipRefused);
    expect(refused).toMatchObject({ status: 403, info: 'この接続キーではこのステーションのカメラを配信できません。' });
  });
});
