import type { FastifyReply } from 'fastify';
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
import { atStation, expectReply } from '../http/room-answers';
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

/** The live feed: station info (where the feeds are) and the cameras' pictures (docs/play.md). */
/** The largest still a forwarded answer may carry (a camera picture is tens of KB). */
const MAX_FORWARDED_STILL_BYTES = 2 * 1024 * 1024;

export async function stationFeedRoutes({ config, route, services: s }: ApiDeps): Promise<void> {
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
    if (route.kind === 'forward') {
      // The owner's address with the path and token this route checked (never the request's own URL).
      const address = new URL(`${config.apiPrefix}/stations/${stationId}/camera/${camera}.jpg`, route.to);
      if (query.k !== undefined) address.searchParams.set('k', query.k);
      const answer = await fetch(address, {
        redirect: 'manual',
        headers: {
          'x-forwarded-for': request.ip,
          [FEED_HOP_HEADER]: '1',
          ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        },
        signal: AbortSignal.timeout(2_000),
      }).catch(() => null);
      const length = Number(answer?.headers.get('content-length') ?? NaN);
      if (!answer || answer.status >= 300 || !(length <= MAX_FORWARDED_STILL_BYTES)) {
        await answer?.body?.cancel().catch(() => undefined);
        s.feedOwners.forget(stationId);
        throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
      }
      for (const name of [
        'content-type',
        'cache-control',
        'content-security-policy',
        FRAME_TICK_HEADER,
        FRAME_PLAY_HEADER,
      ]) {
        const value = answer.headers.get(name);
        if (value !== null) reply.header(name, value);
      }
      return reply.send(Buffer.from(await answer.arrayBuffer()));
    }
    // An agent that publishes its cameras publishes this one while its stills are asked for.
    s.cameraDemand.touch(stationId, camera);
    // The still is made from the camera's video (the last one while it is dark); a camera that
    // has not published yet has none (the page keeps its poster and asks again).
    const still = await s.stills.still(stationId, camera);
    if (!still) throw new Refusal(503, 503, SERVER_MESSAGES.cameraNoPicture);
    return sendStill(reply, { jpeg: still.jpeg, ...s.cameras.machineNow(stationId) });
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
