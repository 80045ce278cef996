import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { firstValueFrom, filter } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS, type PlayClipViewer, type SharedClip } from '../../src/application';
import { createAppContainer } from '../../src/main/container';
import { createPageRenderer } from '../../src/main/server-render';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import {
  clipResponseSchema,
  historyResponseSchema,
  publicClipResponseSchema,
  reserveResponseSchema,
  type PlayClip,
} from '../../src/contract';
import { OPERATOR_AUTH_HEADER, operatorPlayLogAnswerSchema } from '../../src/contract/operator.schema';
import { locateFfmpeg } from '../../media/vp8-encoder';
import { CLIP_TAIL_MS } from '../../server/clips/play-clips';
import { playerCaller, playToResult, untilTurn, type PlayerCall } from '../support/moving-play';
import { playableStation } from '../support/stations';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/**
 * A video of every play (issue 44, docs/clips.md) [R11-5] against the real server: a station whose
 * two cameras publish ffmpeg's 640×360 30 fps test pattern over WHIP, a real play on it through its
 * agent, on the system clock (the video runs in real time), and its clip: ready soon after the
 * result, WebM VP8 that decodes, seen by its player and the operators, by anyone only once shared.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-clip-tests-0123';
let t: TestServer;
let station = 0;
let cameras: TestCameras;
let alice: TestUser;
let bob: TestUser;
const folders: string[] = [];

/** The built page's shape, for the server's page renders (the clip page). */
const PAGE = `<!doctype html><html lang="ja"><head><meta name="onkure-feed" content="" /><title>景品一覧</title>
<script type="application/json" id="onkure-build">{"VITE_ONKURE_TARGET":"web"}</script>
<script type="module" crossorigin src="/assets/index.js"></script></head><body><div id="root"></div></body></html>`;

beforeAll(async () => {
  const staticDir = mkdtempSync(join(tmpdir(), 'onkure-clip-pages-'));
  folders.push(staticDir);
  writeFileSync(join(staticDir, 'index.html'), PAGE);
  t = await startTestServer({
    inMemory: true,
    listen: true,
    env: { ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN, STATIC_DIR: staticDir, PUBLIC_URL: 'https://onkure.example.jp' },
    renderPages: createPageRenderer,
  });
  station = (await playableStation(t)).station_id;
  cameras = await TestCameras.issue(t, [station]);
  alice = await createTestUser(t, {}, { freeTc: 10_000 });
  bob = await createTestUser(t, {}, { freeTc: 10_000 });
}, 60_000);
afterAll(async () => {
  await cameras?.stopAll();
  await t?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const caller = (u: TestUser): PlayerCall => playerCaller(t.apiBase, u);

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${t.origin}${path}`, { headers, method });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** What ffmpeg makes of a WebM file: its codec, decoded frames and duration. */
async function decode(webm: Buffer): Promise<{ container: string; codec: string; frames: number; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'onkure-clip-'));
  folders.push(dir);
  const file = join(dir, 'clip.webm');
  writeFileSync(file, webm);
  const { stderr } = await promisify(execFile)(locateFfmpeg()!, ['-hide_banner', '-i', file, '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  const duration = /Duration: (\d+):(\d+):([\d.]+)/.exec(stderr);
  return {
    container: /Input #0, ([\w,]+?), from/.exec(stderr)?.[1] ?? '',
    codec: /Video: (\w+)/.exec(stderr)?.[1] ?? '',
    frames: Number([...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1] ?? 0),
    seconds: duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : 0,
  };
}

describe('[R11-5] a video of every play', { timeout: 120_000 }, () => {
  let clip: PlayClip;
  let playMs = 0;
  let readyAfterResultMs = 0;

  it('[R11-5] a play on a station whose cameras publish is recorded from its start to its result plus 3 s: ready within 10 s of the result, both cameras WebM VP8 that decodes', async () => {
    await cameras.publish(station, 'front', { size: '640x360', kbps: 800 });
    await cameras.publish(station, 'side', { size: '640x360', kbps: 800 });
    const feed = t.server.services().rtcFeed;
    await expect
      .poll(() => ['front', 'side'].every((c) => feed.existing(station, c as 'front')?.hasVideo), { timeout: 15_000 })
      .toBe(true);
    const a = caller(alice);
    expect(reserveResponseSchema.parse(await a('v2/play/reserve', { station_id: station })).error_code).toBe(200);
    await untilTurn(a, station);
    // While it starts, the console sees both cameras recorded.
    const { playId, confirmedAt, resultAt } = await playToResult(a, station, () =>
      expect
        .poll(() => feed.cameraStats().filter((s) => s.station_id === station && s.recording).length, {
          timeout: 10_000,
        })
        .toBe(2),
    );
    const confirmed = { play_id: playId };
    playMs = resultAt - confirmedAt;

    await expect
      .poll(async () => clipResponseSchema.parse(await a('v2/clip/get', { play_id: confirmed.play_id })).clip.status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('ready');
    readyAfterResultMs = Date.now() - resultAt;
    expect(readyAfterResultMs).toBeLessThanOrEqual(10_000);
    clip = clipResponseSchema.parse(await a('v2/clip/get', { play_id: confirmed.play_id })).clip;
    expect(clip).toMatchObject({
      play_id: confirmed.play_id,
      station_id: station,
      status: 'ready',
      cameras: ['front', 'side'],
      shared: 0,
      kept: 0,
      share_path: null,
    });
    expect(clip.clip_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Date.parse(clip.expires_at!) - Date.parse(clip.created_at)).toBe(30 * 24 * 3600_000);
    // From the first keyframe after the start (the publishers make one a second, and one is asked
    // for) to the result plus 3 s. On a loaded machine that keyframe came 1.6 s after the confirm
    // (CI, 2026-11-29): the bound allows 2.5 s.
    expect(clip.duration_ms).toBeGreaterThan(playMs + CLIP_TAIL_MS - 2_500);
    expect(clip.duration_ms).toBeLessThan(playMs + CLIP_TAIL_MS + 1_000);

    const seconds: number[] = [];
    for (const camera of ['front', 'side'] as const) {
      const file = await get(clip.urls[camera]!);
      expect([file.status, file.headers.get('content-type'), file.headers.get('cache-control')]).toEqual([
        200,
        'video/webm',
        'private, no-store',
      ]);
      const decoded = await decode(file.body);
      expect(decoded).toMatchObject({ container: 'matroska,webm', codec: 'vp8' });
      expect(decoded.frames).toBeGreaterThan(((playMs + CLIP_TAIL_MS) / 1000 - 2) * 25);
      expect(decoded.seconds * 1000).toBeGreaterThan(playMs + CLIP_TAIL_MS - 2_500);
      expect(decoded.seconds * 1000).toBeLessThan(playMs + CLIP_TAIL_MS + 1_000);
      seconds.push(decoded.seconds);
    }
    // The clip's length is its longer camera's.
    expect(Math.abs(Math.max(...seconds) * 1000 - clip.duration_ms)).toBeLessThan(150);
    // The recorders are gone, the console says so.
    expect(t.server.services().clips.running()).toEqual([]);
    expect(feed.cameraStats().filter((s) => s.station_id === station && s.recording)).toEqual([]);
    expect(
      feed
        .cameraStats()
        .filter((s) => s.station_id === station)
        .map((s) => s.recording_error),
    ).toEqual([null, null]);
  });

  it('[R11-5] recording costs well under 2 % of a core per playing station (ffmpeg remuxing, measured from /proc)', () => {
    const costs = t.server.services().clips.recentCosts();
    expect(costs.length).toBeGreaterThanOrEqual(2);
    const last = costs.slice(-2);
    const cpuMs = last.reduce((sum, c) => sum + (c.cpuMs ?? 0), 0);
    const wallMs = Math.max(...last.map((c) => c.wallMs));
    const share = cpuMs / wallMs;
    console.log(
      `clip recording cost: ${cpuMs} ms CPU for ${(wallMs / 1000).toFixed(1)} s of two 640x360 30 fps cameras ` +
        `= ${(share * 100).toFixed(2)} % of a core per station (${((share * 60_000) / 1000).toFixed(2)} s CPU a minute); ` +
        `${last.map((c) => `${c.camera} ${c.frames} frames ${Math.round(c.bytes / 1024)} KB`).join(', ')}; ` +
        `play ${playMs} ms, ready ${readyAfterResultMs} ms after the result`,
    );
    if (costs.some((c) => c.cpuMs === null)) return; // not Linux
    expect(share).toBeLessThan(0.02);
  });

  it('[R11-5] an unshared clip is seen only by its player and the operators: another player and a guest get 404, as for a clip that does not exist', async () => {
    const b = caller(bob);
    const theirs = await b('v2/clip/get', { play_id: clip.play_id });
    expect([theirs.status, theirs.error_code]).toEqual([404, 404]);
    for (const body of [
      { clip_id: clip.clip_id, shared: 1 },
      { clip_id: clip.clip_id, kept: 1 },
    ]) {
      const path = 'shared' in body ? 'v2/clip/share' : 'v2/clip/keep';
      expect((await b(path, body)).status).toBe(404);
    }
    const bare = `/api/clips/${clip.clip_id}/front.webm`;
    expect((await get(bare)).status).toBe(404);
    expect((await get(`/api/clips/${clip.clip_id}`)).status).toBe(404);
    // Another key, an expired one, one for another clip's address: refused alike.
    const url = new URL(clip.urls.front!, t.origin);
    const e = url.searchParams.get('e')!;
    const k = url.searchParams.get('k')!;
    for (const query of [
      `e=${e}&k=${k.slice(0, -1)}${k.endsWith('A') ? 'B' : 'A'}`,
      `e=${Number(e) + 600}&k=${k}`,
      `e=${Math.floor(Date.now() / 1000) - 1}&k=${k}`,
      `e=abc&k=${k}`,
      `k=${k}`,
    ])
      expect((await get(`${bare}?${query}`)).status).toBe(404);
    // The operators see it: with their session on the file, and beside the play log.
    const op = { [OPERATOR_AUTH_HEADER]: `Bearer ${OPERATOR_TOKEN}` };
    expect((await get(bare, op)).status).toBe(200);
    const log = operatorPlayLogAnswerSchema.parse(
      await (
        await fetch(`${t.apiBase}operator/play_log`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...op },
          body: JSON.stringify({ station_id: station, limit: 5 }),
        })
      ).json(),
    );
    expect(log.list.find((p) => p.play_id === clip.play_id)?.clip).toMatchObject({
      clip_id: clip.clip_id,
      status: 'ready',
    });
    const opClip = (await (
      await fetch(`${t.apiBase}operator/play_clip`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...op },
        body: JSON.stringify({ play_id: clip.play_id }),
      })
    ).json()) as { clip: PlayClip & { user_id: number } };
    expect(opClip.clip).toMatchObject({ clip_id: clip.clip_id, user_id: alice.user_id });
    expect((await get(opClip.clip.urls.side!)).status).toBe(200);
    // The player's history links it.
    const history = historyResponseSchema.parse(await caller(alice)('v2/play/history')).history.list;
    expect(history.find((p) => p.play_id === clip.play_id)?.clip).toEqual({
      clip_id: clip.clip_id,
      status: 'ready',
      shared: 0,
      kept: 0,
      expires_at: clip.expires_at,
    });
  });

  it('[R11-5] shared, anyone may watch it; its public view names the station, the prize, the date and the result and nothing about the player; unshared, it is 404 again', async () => {
    const a = caller(alice);
    const shared = clipResponseSchema.parse(await a('v2/clip/share', { clip_id: clip.clip_id, shared: 1 })).clip;
    expect(shared).toMatchObject({ shared: 1, share_path: `/clip/${clip.clip_id}` });
    const view = await get(`/api/clips/${clip.clip_id}`);
    expect(view.status).toBe(200);
    const json = JSON.parse(view.body.toString()) as Record<string, unknown>;
    const publicClip = publicClipResponseSchema.parse(json).clip;
    expect(Object.keys(json.clip as object).sort()).toEqual(
      [
        'cameras',
        'clip_id',
        'duration_ms',
        'img_url',
        'page_url',
        'played_at',
        'prize_name',
        'result',
        'station_id',
        'station_name',
        'urls',
      ].sort(),
    );
    expect(publicClip).toMatchObject({ clip_id: clip.clip_id, station_id: station, cameras: ['front', 'side'] });
    expect(['win', 'miss']).toContain(publicClip.result);
    expect(publicClip.station_name.length).toBeGreaterThan(0);
    expect(publicClip.prize_name.length).toBeGreaterThan(0);
    // The page's published address (PUBLIC_URL) and the station's prize picture, for link previews.
    expect(publicClip.page_url).toMatch(new RegExp(`^https?://[^/]+/clip/${clip.clip_id}$`));
    expect(publicClip.img_url).toMatch(/^\/api\/images\/[\w-]+\.svg$/);
    expect(view.body.toString()).not.toMatch(/user|nickname|email|k=/);
    const file = await get(publicClip.urls.front!);
    expect(file.status).toBe(200);
    expect(file.body.length).toBeGreaterThan(1000);

    clipResponseSchema.parse(await a('v2/clip/share', { clip_id: clip.clip_id, shared: 0 }));
    expect((await get(`/api/clips/${clip.clip_id}`)).status).toBe(404);
    expect((await get(publicClip.urls.front!)).status).toBe(404);
  });

  it('[R11-5] byte ranges: 206 with the part asked for, the last bytes, 416 with the size past the end, the whole file for a range that does not parse; HEAD tells the size', async () => {
    const url = clip.urls.front!;
    const whole = await get(url);
    const size = whole.body.length;
    const part = await get(url, { range: 'bytes=0-99' });
    expect([part.status, part.headers.get('content-range'), part.body.length]).toEqual([
      206,
      `bytes 0-99/${size}`,
      100,
    ]);
    expect(part.body.equals(whole.body.subarray(0, 100))).toBe(true);
    const tail = await get(url, { range: 'bytes=-10' });
    expect([tail.status, tail.body.equals(whole.body.subarray(size - 10))]).toEqual([206, true]);
    const open = await get(url, { range: `bytes=${size - 5}-` });
    expect([open.status, open.headers.get('content-range'), open.body.length]).toEqual([
      206,
      `bytes ${size - 5}-${size - 1}/${size}`,
      5,
    ]);
    const clamped = await get(url, { range: `bytes=${size - 5}-${size + 1000}` });
    expect([clamped.status, clamped.body.length]).toEqual([206, 5]);
    for (const past of [
      `bytes=${size}-`,
      `bytes=${size + 1000}-${size + 2000}`,
      'bytes=-0',
      'bytes=99999999999999999999-',
    ])
      expect(await get(url, { range: past }).then((r) => [r.status, r.headers.get('content-range')])).toEqual([
        416,
        `bytes */${size}`,
      ]);
    for (const odd of ['bytes=5-1', 'items=0-1', 'bytes=0-1,5-9', 'bytes=abc', 'x'.repeat(200)])
      expect(await get(url, { range: odd }).then((r) => [r.status, r.body.length])).toEqual([200, size]);
    const head = await get(url, {}, 'HEAD');
    expect([head.status, head.headers.get('content-length'), head.body.length]).toEqual([200, String(size), 0]);
  });

  it('[R11-5] keeping: no expiry while kept; let go, 30 days after the play again', async () => {
    const a = caller(alice);
    const kept = clipResponseSchema.parse(await a('v2/clip/keep', { clip_id: clip.clip_id, kept: 1 })).clip;
    expect([kept.kept, kept.expires_at]).toEqual([1, null]);
    const unkept = clipResponseSchema.parse(await a('v2/clip/keep', { clip_id: clip.clip_id, kept: 0 })).clip;
    expect([unkept.kept, unkept.expires_at]).toEqual([0, clip.expires_at]);
  });

  it("[R11-5] the app's own use-cases over the real server: the player opens the clip, shares it, and anyone (signed out) opens its page", async () => {
    const client = (who: TestUser | null) => {
      const stored = new Map<string, string>(
        who ? [['onkure.session', JSON.stringify({ user_id: who.user_id, access_token: who.access_token })]] : [],
      );
      return createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, timeoutMs: 10_000 }, [], {
        storage: {
          getItem: (k) => stored.get(k) ?? null,
          setItem: (k, v) => void stored.set(k, v),
          removeItem: (k) => void stored.delete(k),
        },
        cookies: () => '',
        navigator: { reload: () => undefined, goTo: () => undefined },
        fetch: (input, init) => fetch(input, init),
      });
    };
    const viewer = client(alice).get<PlayClipViewer>(TOKENS.PlayClipViewer);
    viewer.open(clip.play_id);
    const opened = await firstValueFrom(viewer.state$.pipe(filter((s) => s.kind !== 'loading')));
    expect(opened).toMatchObject({ kind: 'clip', clip: { clip_id: clip.clip_id, status: 'ready', shared: 0 } });
    // Bob asks for Alice's play: there is none for him.
    const theirs = client(bob).get<PlayClipViewer>(TOKENS.PlayClipViewer);
    theirs.open(clip.play_id);
    expect(await firstValueFrom(theirs.state$.pipe(filter((s) => s.kind !== 'loading')))).toEqual({ kind: 'none' });
    // Not shared yet: a guest's page finds nothing.
    const guest = () => client(null).get<SharedClip>(TOKENS.SharedClip);
    expect((await guest().load(clip.clip_id)).state).toEqual({ kind: 'notFound' });
    viewer.share(true);
    const shared = await firstValueFrom(viewer.state$.pipe(filter((s) => s.kind === 'clip' && s.clip.shared === 1)));
    expect(shared).toMatchObject({
      kind: 'clip',
      clip: { share_path: `/clip/${clip.clip_id}` },
      busy: null,
      error: null,
    });
    const page = (await guest().load(clip.clip_id)).state;
    expect(page).toMatchObject({
      kind: 'clip',
      clip: {
        clip_id: clip.clip_id,
        station_id: station,
        cameras: ['front', 'side'],
        page_url: `https://onkure.example.jp/clip/${clip.clip_id}`,
      },
    });
    viewer.dispose();
    theirs.dispose();
  });

  it('[R11-5] the shared clip page is rendered by the server for a signed-out visitor with its title and link preview (station, prize, picture, video), kept by no cache, and nothing of the player; unshared, the same address is a 404 page at once', async () => {
    const a = caller(alice);
    clipResponseSchema.parse(await a('v2/clip/share', { clip_id: clip.clip_id, shared: 1 }));
    const view = publicClipResponseSchema.parse(
      JSON.parse((await get(`/api/clips/${clip.clip_id}`)).body.toString()),
    ).clip;
    const page = await get(`/clip/${clip.clip_id}`, { accept: 'text/html' });
    const html = page.body.toString();
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const head = html.slice(0, html.indexOf('</head>'));
    const meta = (key: string) =>
      new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`)
        .exec(head)?.[1]
        ?.replace(/&amp;/g, '&');
    expect(head).toContain(`<title>「${view.prize_name}」`);
    expect(meta('og:title')).toContain(view.prize_name);
    expect(meta('og:description')).toContain(view.station_name);
    expect(meta('og:url')).toBe(`https://onkure.example.jp/clip/${clip.clip_id}`);
    expect(meta('og:image')).toMatch(/^https:\/\/onkure\.example\.jp\/api\/images\/[\w-]+\.svg\?w=1280&fm=jpg$/);
    expect(meta('og:video')).toBe(`https://onkure.example.jp/api/clips/${clip.clip_id}/front.webm`);
    const body = html.slice(html.indexOf('<div id="root">'));
    expect(body).toContain('data-testid="clip-page"');
    expect(body).toContain(`/game/${station}`);
    expect(html).not.toMatch(new RegExp(`${alice.access_token}|"user_id"|k=`));
    // The picture the link preview names is there.
    expect((await get(new URL(meta('og:image')!).pathname + new URL(meta('og:image')!).search)).status).toBe(200);

    clipResponseSchema.parse(await a('v2/clip/share', { clip_id: clip.clip_id, shared: 0 }));
    const gone = await get(`/clip/${clip.clip_id}`, { accept: 'text/html' });
    expect(gone.status).toBe(404);
    expect(gone.body.toString()).toContain('data-testid="clip-not-found"');
    expect(gone.body.toString()).not.toContain('og:video');
    const guessed = await get(`/clip/${randomBytes(16).toString('base64url')}`, { accept: 'text/html' });
    expect(guessed.status).toBe(404);
    expect((await get('/clip/%3Cscript%3E', { accept: 'text/html' })).status).toBe(404);
  });

  it('[R11-5] guessed and garbage ids are 404 (or 400 for a body that does not parse), never a 5xx', async () => {
    const guessed = randomBytes(16).toString('base64url');
    const a = caller(alice);
    for (const path of [
      `/api/clips/${guessed}`,
      `/api/clips/${guessed}/front.webm`,
      `/api/clips/${clip.clip_id}/back.webm`,
      `/api/clips/${clip.clip_id}/front.mp4`,
      `/api/clips/${clip.clip_id}/..%2F..%2Fetc%2Fpasswd`,
      `/api/clips/..%2F..%2Fetc/front.webm`,
      `/api/clips/${'A'.repeat(500)}`,
      `/api/clips/%E3%81%82/front.webm`,
      `/api/clips/${clip.clip_id.slice(0, 21)}%00/front.webm`,
      `/api/clips/${clip.clip_id}/front.webm?e=1&e=2`,
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
    for (const body of [
      { clip_id: guessed, shared: 1 },
      { clip_id: 'nope', shared: 1 },
      { clip_id: clip.clip_id, shared: 2 },
      { clip_id: null, shared: 1 },
    ]) {
      const answer = await a('v2/clip/share', body);
      expect([404, 400], JSON.stringify(body)).toContain(answer.status);
    }
    for (const play_id of [2_147_483_647, 0, -1, 'x'])
      expect([404, 400]).toContain((await a('v2/clip/get', { play_id })).status);
  });
});
