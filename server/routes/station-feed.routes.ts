import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { z } from 'zod/mini';
import {
  PLAY_ERROR,
  FRAME_PLAY_HEADER,
  FRAME_TICK_HEADER,
  PLAY_LOOP_ENDPOINTS as P,
  stationInfoRequestSchema,
} from '../../src/contract';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import { FEED_HOP_HEADER } from '../live/feed-forward';
import { HOLD_MS } from '../live/ll-hls';
import { atStation, expectReply } from '../http/room-answers';
import { MemoryLimitCounts } from '../limits/memory-limit-counts';
import { WindowLimiter, type LimitRule } from '../limits/window-limiter';
import type { ApiDeps } from './deps';

/** A media token for a gated station's cameras lives this long (the play screen asks again on reload). */
const MEDIA_TOKEN_TTL_MS = 30 * 60_000;

const stillQuery = z.object({
  /** The cache-busting time [R7-9, R3-2]; any value, never used to pick a frame. */
  t: z.optional(z.string().check(z.maxLength(20)).check(z.regex(/^\d*$/))),
  /** A media token (VIP and exclusive stations). */
  k: z.optional(
    z
      .string()
      .check(z.maxLength(64))
      .check(z.regex(/^[\w-]*$/)),
  ),
});

/** A still as the jpg feed gets it: never cached, inert, with the machine's tick and play it shows. */
function sendStill(reply: FastifyReply, still: { jpeg: Buffer; tick: number; playId: number | null }) {
  return reply
    .header('Content-Type', 'image/jpeg')
    .header('Cache-Control', 'no-store')
    .header('Content-Security-Policy', "default-src 'none'")
    .header(FRAME_TICK_HEADER, String(still.tick))
    .header(FRAME_PLAY_HEADER, still.playId === null ? '' : String(still.playId))
    .send(still.jpeg);
}

/**
 * Camera stills a client address may fetch in 10 s on one instance (docs/security.md "Camera
 * stills"): a play page at its fastest (two cameras, each asked again 90 ms after it arrived) asks
 * about 22 a second and the operator console's floor (40 stills every 2 s while on screen) 20, so 60
 * a second leaves room for both and another page; a script hammering the route is stopped.
 */
export const STILLS_PER_CLIENT: LimitRule = { name: 'stills:client', max: 600, windowMs: 10_000 };

/** The largest still a forwarded answer may carry (a camera picture is tens of KB). */
const MAX_FORWARDED_STILL_BYTES = 2 * 1024 * 1024;
/** The largest HLS file a forwarded answer may carry (a 2 s segment at 1.2 Mbps is about 300 KB). */
const MAX_FORWARDED_HLS_BYTES = 4 * 1024 * 1024;

/**
 * Asks the instance running a station for one of its feed's files (several instances,
 * docs/deployment.md "The live feed") and answers with its status, the named headers and its
 * bytes. An owner that does not answer in time, or answers an error or too much, is forgotten and
 * the caller gets 503 (an HLS client asks again).
 */
async function forwardToOwner(
  s: ApiDeps['services'],
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    readonly to: URL;
    readonly path: string;
    readonly query: Readonly<Record<string, string | undefined>>;
    readonly stationId: number;
    readonly timeoutMs: number;
    readonly maxBytes: number;
    readonly headers: readonly string[];
    /** Statuses passed on as they are (an HLS 404 for a part gone from the window). */
    readonly passStatuses?: readonly number[];
  },
) {
  // The owner's address with the path and query this route checked (never the request's own URL).
  const address = new URL(options.path, options.to);
  for (const [name, value] of Object.entries(options.query))
    if (value !== undefined) address.searchParams.set(name, value);
  const answer = await fetch(address, {
    redirect: 'manual',
    headers: {
      'x-forwarded-for': request.ip,
      [FEED_HOP_HEADER]: '1',
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    },
    signal: AbortSignal.timeout(options.timeoutMs),
  }).catch(() => null);
  const length = Number(answer?.headers.get('content-length') ?? NaN);
  const passed = answer !== null && (options.passStatuses ?? []).includes(answer.status);
  if (!answer || (answer.status >= 300 && !passed) || !(length <= options.maxBytes)) {
    await answer?.body?.cancel().catch(() => undefined);
    s.feedOwners.forget(options.stationId);
    throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
  }
  for (const name of options.headers) {
    const value = answer.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  return reply.code(answer.status).send(Buffer.from(await answer.arrayBuffer()));
}

const hlsQuery = z.object({
  /** Blocking playlist reload (LL-HLS): the media sequence number and part asked for. */
  _HLS_msn: z.optional(z.string().check(z.regex(/^\d{1,9}$/))),
  _HLS_part: z.optional(z.string().check(z.regex(/^\d{1,3}$/))),
  /** Delta updates are not offered (no CAN-SKIP-UNTIL): the full playlist is answered. */
  _HLS_skip: z.optional(z.enum(['YES', 'v2'])),
  k: stillQuery.shape.k,
});

/** A spectator HLS file's name: the playlist, or the init, a part or a segment of one run (epoch). */
const HLS_FILE = /^(?:(index)\.m3u8|([0-9a-f]{8})-(?:(init)\.mp4|(\d{1,9})(?:\.(\d{1,3}))?\.m4s))$/;

/** Cache lifetimes of the spectators' HLS (docs/spectators.md "Through any HTTP cache"). */
const HLS_CACHE = {
  /** The playlist as it stands: a cache may answer it for a second. */
  playlist: 'public, max-age=1',
  /** A blocking reload's answer holds the part it asked for (or later) whenever it is given. */
  blockingPlaylist: 'public, max-age=6',
  /** An init, part or segment of one run never changes. */
  media: 'public, max-age=3600, immutable',
  /** A gated station's stream (a media token in its addresses) is never shared. */
  gated: 'private, no-store',
} as const;

/** The live feed: station info (where the feeds are) and the cameras' pictures (docs/play.md). */

export async function stationFeedRoutes({ config, route, services: s }: ApiDeps): Promise<void> {
  // Counted in this instance's memory: a store write per still would cost more than the still.
  const stillRate = new WindowLimiter(new MemoryLimitCounts(), s.clock);

  // Station info [R3-2]. A VIP or exclusive station answers only a user who may view it (569
  // otherwise, as visit does), with a media token in its picture addresses.
  route.open(`/${P.stationInfo}`, stationInfoRequestSchema, async (body, user) => {
    const now = s.clock.now();
    const [station] = await s.catalogue.stations(null, now, [body.station_id]);
    if (!station) throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    let token: string | null = null;
    if (station.type !== 'normal') {
      if (!user) throw new Refusal(200, PLAY_ERROR.vipOnly.code, PLAY_ERROR.vipOnly.info);
      await s.vipGate.check(s.store, user.user_id, { station_id: station.station_id, type: station.type }, 'view', now);
      token = randomBytes(24).toString('base64url');
      await s.users.recordMediaToken(user.user_id, token, station.station_id, MEDIA_TOKEN_TTL_MS);
    }
    return { station_info: await s.cameras.stationInfo(station.station_id, token) };
  });

  // A camera's latest picture, made from its WHIP video; the header names the machine's tick.
  route.openGet('/stations/:station_id/camera/:file', stillQuery, async (query, { request, reply }) => {
    // Counted first, at the first hop only: it counted the request already, and a forwarded hop
    // may carry the forwarding instance's address rather than the client's.
    if (request.headers[FEED_HOP_HEADER] === undefined) {
      const hit = await stillRate.hit(STILLS_PER_CLIENT, request.ip);
      if (!hit.allowed) {
        reply.header('retry-after', String(Math.ceil(hit.retryAfterMs / 1000)));
        throw new Refusal(429, 429, SERVER_MESSAGES.cameraStillsTooMany);
      }
    }
    const params = request.params as { station_id: string; file: string };
    const stationId = /^\d{1,9}$/.test(params.station_id) ? Number(params.station_id) : 0;
    const camera = params.file === 'front.jpg' ? 'front' : params.file === 'side.jpg' ? 'side' : null;
    if (!stationId || !camera) throw new Refusal(404, 404, SERVER_MESSAGES.imageNotFound);
    const access = await s.cameras.mayView(stationId, query.k);
    if (access === 'unknown') throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    if (access === 'forbidden') throw new Refusal(403, 403, SERVER_MESSAGES.cameraForbidden);
    // Drawn by the instance running the station (several instances): forwarded there.
    const route = await s.feedOwners.route(stationId, request.headers[FEED_HOP_HEADER] !== undefined);
    if (route.kind === 'gone') throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
    if (route.kind === 'forward')
      return forwardToOwner(s, request, reply, {
        to: route.to,
        path: `${config.apiPrefix}/stations/${stationId}/camera/${camera}.jpg`,
        query: { k: query.k },
        stationId,
        timeoutMs: 2_000,
        maxBytes: MAX_FORWARDED_STILL_BYTES,
        headers: ['content-type', 'cache-control', 'content-security-policy', FRAME_TICK_HEADER, FRAME_PLAY_HEADER],
      });
    // An agent that publishes its cameras publishes this one while its stills are asked for.
    s.cameraDemand.touch(stationId, camera);
    // The still is made from the camera's video (the last one while it is dark); a camera that
    // has not published yet has none (the page keeps its poster and asks again).
    const still = await s.stills.still(stationId, camera);
    if (!still) throw new Refusal(503, 503, SERVER_MESSAGES.cameraNoPicture);
    return sendStill(reply, { jpeg: still.jpeg, ...s.cameras.machineNow(stationId) });
  });

  // The spectators' LL-HLS of a camera: made once per camera by the station's
  // instance from its video, held requests (blocking reload, preload hint) answered as soon as the
  // part exists, every answer cacheable so that any HTTP cache or CDN in front takes the load.
  route.openGet('/stations/:station_id/hls/:camera/:file', hlsQuery, async (query, { request, reply }) => {
    const params = request.params as { station_id: string; camera: string; file: string };
    const stationId = /^\d{1,9}$/.test(params.station_id) ? Number(params.station_id) : 0;
    const camera = params.camera === 'front' || params.camera === 'side' ? params.camera : null;
    const file = HLS_FILE.exec(params.file);
    if (!stationId || !camera || !file) throw new Refusal(404, 404, SERVER_MESSAGES.imageNotFound);
    const access = await s.cameras.mayView(stationId, query.k);
    if (access === 'unknown') throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    if (access === 'forbidden') throw new Refusal(403, 403, SERVER_MESSAGES.cameraForbidden);
    const route = await s.feedOwners.route(stationId, request.headers[FEED_HOP_HEADER] !== undefined);
    if (route.kind === 'gone') throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
    if (route.kind === 'forward')
      return forwardToOwner(s, request, reply, {
        to: route.to,
        path: `${config.apiPrefix}/stations/${stationId}/hls/${camera}/${params.file}`,
        query: { _HLS_msn: query._HLS_msn, _HLS_part: query._HLS_part, k: query.k },
        stationId,
        timeoutMs: HOLD_MS + 2_000,
        maxBytes: MAX_FORWARDED_HLS_BYTES,
        headers: ['content-type', 'cache-control'],
        passStatuses: [400, 404],
      });
    s.cameraDemand.touch(stationId, camera);
    const stream = s.hls.stream(stationId, camera);
    if (!stream) throw new Refusal(503, 503, SERVER_MESSAGES.cameraNoPicture);
    const gated = query.k !== undefined;
    const cache = (lifetime: string) => reply.header('Cache-Control', gated ? HLS_CACHE.gated : lifetime);
    const [, index, epoch, init, msn, part] = file;
    if (index) {
      const blocking = query._HLS_msn !== undefined;
      const address = {
        msn: Number(query._HLS_msn ?? 0),
        part: query._HLS_part === undefined ? null : Number(query._HLS_part),
      };
      if (blocking && stream.started && stream.tooFarAhead(address))
        throw new Refusal(400, 400, SERVER_MESSAGES.hlsTooFarAhead);
      const ready = await stream.waitUntil(() => stream.started && (!blocking || stream.has(address)));
      if (!ready) throw new Refusal(503, 503, SERVER_MESSAGES.cameraNoPicture);
      cache(blocking ? HLS_CACHE.blockingPlaylist : HLS_CACHE.playlist);
      return reply
        .header('Content-Type', 'application/vnd.apple.mpegurl')
        .send(stream.playlist(gated ? `?k=${query.k}` : ''));
    }
    if (epoch !== stream.epoch) throw new Refusal(404, 404, SERVER_MESSAGES.imageNotFound);
    if (init) {
      const bytes = (await stream.waitUntil(() => stream.initSegment() !== null)) ? stream.initSegment() : null;
      if (!bytes) throw new Refusal(503, 503, SERVER_MESSAGES.cameraNoPicture);
      cache(HLS_CACHE.media);
      return reply.header('Content-Type', 'video/mp4').send(bytes);
    }
    const address = { msn: Number(msn), part: part === undefined ? null : Number(part) };
    // The preload hint's part (or the segment being made) is held until it exists; others are there or gone.
    let bytes = stream.media(address);
    if (!bytes && stream.isUpcoming(address)) {
      await stream.waitUntil(() => stream.media(address) !== null);
      bytes = stream.media(address);
    }
    if (!bytes) throw new Refusal(404, 404, SERVER_MESSAGES.imageNotFound);
    cache(HLS_CACHE.media);
    return reply.header('Content-Type', 'video/mp4').send(bytes);
  });

  // Development only (ONKURE_DEV_CALLS=1, never in production; elsewhere 404 like any unknown
  // call): what the rtc feed runs, and a signaling stop as a failing media server would do it.
  if (!config.devCalls) return;
  route.open('/dev/live/status', z.strictObject({}), async () => ({
    connections: s.signaling.connections,
    cameras: s.rtcFeed.status(),
  }));
  // A reproducible play for end-to-end tests: the station's next play takes this seed; the field's
  // prizes are answered so the test can aim at one.
  route.open(
    '/dev/play/rig',
    z.strictObject({
      station_id: z.int().check(z.gte(1)).check(z.lte(999_999_999)),
      seed: z
        .int()
        .check(z.gte(0))
        .check(z.lte(2 ** 31 - 1)),
    }),
    async (body) => {
      const answer = await atStation(
        body.station_id,
        s.rooms.send('station', body.station_id, { type: 'rig', seed: body.seed }),
      );
      return { prizes: expectReply(answer, 'rigged').prizes };
    },
  );
  route.open(
    '/dev/live/drop',
    z.strictObject({ station_id: z.optional(z.int().check(z.gte(1)).check(z.lte(999_999_999))) }),
    async (body) => ({
      dropped: s.signaling.drop(body.station_id ?? null),
    }),
  );
}
