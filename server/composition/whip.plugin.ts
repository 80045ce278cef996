import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { VerifiedStationKey } from '../agent/station-keys';
import { TokenBucket } from '../agent/token-bucket';
import { replyError } from '../http/reply';
import { FEED_HOP_HEADER } from '../live/feed-forward';
import { offerProblem, type OfferProblem } from '../live/whip-publisher';
import { SERVER_MESSAGES as M } from '../messages';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { ServerParts } from './server-parts';

/** Where cameras publish: POST /whip/{station_id}/{front|side}; the session is /whip/{station_id}/{camera}/{id}. */
export const WHIP_PATH = '/whip';
/** The largest offer or trickle fragment taken (a browser's offer with audio is about 6 KB). */
export const MAX_SDP_BYTES = 16 * 1024;
/**
 * Refused keys per client address: 10 at once, then one every 6 s. A token is taken before the key
 * is looked up (so a burst of guesses cannot pass together) and given back when the key is good:
 * a floor of cameras with the right key is never slowed down.
 */
const REFUSALS_BURST = 10;
const REFUSALS_PER_SECOND = 1 / 6;
/** The largest answer relayed from the instance that runs the station. */
const MAX_FORWARDED_BYTES = 64 * 1024;

const PROBLEM_INFO: Record<OfferProblem, string> = {
  'not-sdp': M.whipBadOffer,
  'no-video': M.whipNoVideo,
  'not-sending': M.whipNoVideo,
  'no-codec': M.whipNoCodec,
  'too-many-media': M.whipTooManyMedia,
};

interface CameraParams {
  station_id: string;
  camera: string;
  session?: string;
}

/**
 * The cameras' WHIP endpoint (RFC 9725; docs/live-feed.md "Cameras from WHIP"): a camera — OBS,
 * GStreamer, ffmpeg, the camera page on a phone, the sim agent — publishes its video with the
 * station's key as a Bearer token. Outside the API prefix (the API's own Authorization header
 * would clash with the Bearer key). Every refusal is `{ error_code, error_info }` in Japanese.
 * A station run by another instance has its WHIP calls forwarded there, as its feed is.
 */
export const whipPlugin: FastifyPluginAsync<{ parts: ServerParts }> = async (app, { parts }) => {
  app.addContentTypeParser(
    ['application/sdp', 'application/trickle-ice-sdpfrag'],
    { parseAs: 'string', bodyLimit: MAX_SDP_BYTES },
    (_request, body, done) => done(null, body),
  );
  /**
   * Per client address: its bucket, and the key checks under way (each settles once its token is
   * given back or kept). With no token left, a call waits for those checks before it is refused: a
   * good key among them gives its token back (a floor of cameras starting together behind one
   * address, their keys checked by a database a round trip away, was answered 429 otherwise).
   */
  const limits = new Map<string, { bucket: TokenBucket; checking: Set<Promise<void>> }>();
  /** Whether a revoked key's sessions are ended here (listened for once the services are built). */
  let endingRevoked = false;

  /** The station and camera a call names and the caller may publish, or null once refused. */
  async function authorize(
    request: FastifyRequest<{ Params: CameraParams }>,
    reply: FastifyReply,
  ): Promise<{ stationId: number; camera: CameraName; keyId: string } | null> {
    const services = parts.services;
    if (!services || !parts.store() || parts.storeFailed()) {
      replyError(reply, 503, M.whipStarting);
      return null;
    }
    if (!endingRevoked) {
      // A revoked key publishes no more: its sessions end at once (as the agents' connections close).
      endingRevoked = true;
      services.stationKeys.onRevoked(({ keyId }) => services.ingest.endKey(keyId));
    }
    const { station_id: station, camera } = request.params;
    if (!/^[1-9]\d{0,8}$/.test(station)) {
      replyError(reply, 404, M.stationNotFound);
      return null;
    }
    if (camera !== 'front' && camera !== 'side') {
      replyError(reply, 404, M.whipUnknownCamera);
      return null;
    }
    const bearer = /^Bearer ([\x21-\x7e]{1,200})$/.exec(request.headers.authorization ?? '');
    if (!bearer) {
      reply.header('WWW-Authenticate', 'Bearer');
      replyError(reply, 401, M.whipNoKey);
      return null;
    }
    let limit = limits.get(request.ip);
    if (!limit) {
      if (limits.size > 10_000) limits.clear();
      limit = {
        bucket: new TokenBucket(REFUSALS_PER_SECOND, REFUSALS_BURST, parts.clock.now().getTime()),
        checking: new Set(),
      };
      limits.set(request.ip, limit);
    }
    while (!limit.bucket.take(parts.clock.now().getTime())) {
      if (limit.checking.size === 0) {
        replyError(reply, 429);
        return null;
      }
      await Promise.race(limit.checking);
    }
    let checked: () => void = () => undefined;
    const check = new Promise<void>((resolve) => (checked = resolve));
    limit.checking.add(check);
    const stationId = Number(station);
    let key: VerifiedStationKey | null;
    try {
      key = await services.stationKeys.verify(bearer[1]);
      if (key?.stationIds.includes(stationId)) limit.bucket.refund();
    } finally {
      limit.checking.delete(check);
      checked();
    }
    if (!key) {
      reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      replyError(reply, 401, M.whipBadKey);
      return null;
    }
    if (!key.stationIds.includes(stationId)) {
      replyError(reply, 403, M.whipOtherStation);
      return null;
    }
    return { stationId, camera, keyId: key.keyId };
  }

  /**
   * Answers here (true) or relays the call to the instance that runs the station (its answer sent,
   * false). The forwarded call carries the hop header; an instance never forwards it again.
   */
  async function here(request: FastifyRequest, reply: FastifyReply, stationId: number): Promise<boolean> {
    const services = parts.services!;
    const route = await services.feedOwners.route(stationId, request.headers[FEED_HOP_HEADER] !== undefined);
    if (route.kind === 'here') return true;
    if (route.kind === 'gone') {
      replyError(reply, 503, M.whipOnAnotherInstance);
      return false;
    }
    const headers: Record<string, string> = {
      'x-forwarded-for': request.ip,
      [FEED_HOP_HEADER]: '1',
      authorization: request.headers.authorization ?? '',
    };
    for (const name of ['content-type', 'if-match'] as const) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(new URL(request.url, route.to), {
      method: request.method,
      headers,
      body: typeof request.body === 'string' ? request.body : null,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    const body = answer ? Buffer.from(await answer.arrayBuffer().catch(() => new ArrayBuffer(0))) : null;
    if (!answer || !body || body.length > MAX_FORWARDED_BYTES || answer.status >= 500) {
      services.feedOwners.forget(stationId);
      replyError(reply, 503, M.whipOnAnotherInstance);
      return false;
    }
    for (const name of ['content-type', 'location', 'etag', 'www-authenticate']) {
      const value = answer.headers.get(name);
      if (value !== null) reply.header(name, value);
    }
    reply.code(answer.status).send(body);
    return false;
  }

  const sdpBody = (request: FastifyRequest, type: string): string | null =>
    (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === type &&
    typeof request.body === 'string'
      ? request.body
      : null;

  app.post<{ Params: CameraParams }>(`${WHIP_PATH}/:station_id/:camera`, async (request, reply) => {
    const camera = await authorize(request, reply);
    if (!camera || !(await here(request, reply, camera.stationId))) return reply;
    const offer = sdpBody(request, 'application/sdp');
    if (offer === null) return replyError(reply, 415, M.whipNotSdp);
    const problem = offerProblem(offer);
    if (problem) return replyError(reply, 400, PROBLEM_INFO[problem]);
    const ingest = parts.services!.ingest;
    // `?standin=1`: the sim agent's painted camera, which never replaces a real one (docs/live-feed.md).
    const standIn = (request.query as { standin?: unknown } | undefined)?.standin === '1';
    const published = await ingest
      .publish(camera.stationId, camera.camera, offer, camera.keyId, standIn)
      .catch(() => null);
    if (published === null) return replyError(reply, 400, M.whipBadOffer);
    if (published === 'camera-present') return replyError(reply, 409, M.whipCameraPresent);
    if (published === 'no-transcoder') return replyError(reply, 400, M.whipNoTranscoder);
    return reply
      .code(201)
      .header('Content-Type', 'application/sdp')
      .header('Location', `${WHIP_PATH}/${camera.stationId}/${camera.camera}/${published.publisher.id}`)
      .header('ETag', published.publisher.etag)
      .send(published.answer);
  });

  app.patch<{ Params: CameraParams }>(`${WHIP_PATH}/:station_id/:camera/:session`, async (request, reply) => {
    const camera = await authorize(request, reply);
    if (!camera || !(await here(request, reply, camera.stationId))) return reply;
    const session = parts.services!.ingest.session(camera.stationId, camera.camera, request.params.session ?? '');
    if (!session) return replyError(reply, 404, M.whipSessionNotFound);
    const fragment = sdpBody(request, 'application/trickle-ice-sdpfrag');
    if (fragment === null) return replyError(reply, 415, M.whipNotSdp);
    const match = request.headers['if-match'];
    // An ICE restart (If-Match: *) is not supported: the publisher starts a new session instead.
    if (match === '*') return reply.code(501).send({ error_code: 501, error_info: M.whipIceRestart });
    if (match !== undefined && match !== session.etag)
      return reply.code(412).send({ error_code: 412, error_info: M.whipEtagMismatch });
    if (!(await session.addCandidates(fragment))) return replyError(reply, 400, M.whipTooManyCandidates);
    return reply.code(204).send();
  });

  app.delete<{ Params: CameraParams }>(`${WHIP_PATH}/:station_id/:camera/:session`, async (request, reply) => {
    const camera = await authorize(request, reply);
    if (!camera || !(await here(request, reply, camera.stationId))) return reply;
    const session = parts.services!.ingest.session(camera.stationId, camera.camera, request.params.session ?? '');
    if (!session) return replyError(reply, 404, M.whipSessionNotFound);
    session.end('the publisher ended it (DELETE)');
    return reply.code(200).send({ error_code: 200, error_info: '' });
  });
};
