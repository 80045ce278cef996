import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { z } from 'zod/mini';
import {
  CLIP_ENDPOINTS as C,
  clipGetRequestSchema,
  clipKeepRequestSchema,
  clipShareRequestSchema,
  operatorPlayClipSchema,
} from '../../src/contract';
import { operatorRoleAllows } from '../../src/domain';
import { byteRange } from '../http/byte-range';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import type { ApiDeps } from './deps';

const fileQuery = z.object({
  /** The expiry and key of an address given to the clip's player or an operator. */
  e: z.optional(z.string().check(z.maxLength(64))),
  k: z.optional(z.string().check(z.maxLength(64))),
});

/**
 * A video of every play (docs/clips.md) [R11-5]: the player's clip of a play, sharing and keeping
 * it; a shared clip's public view; the files, with byte ranges; an operator's view of any play's
 * clip. Every clip the caller may not see is 404, as one that does not exist: an unshared clip's
 * existence is not told.
 */
export async function clipRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const { clips } = s;

  route.authed(`/${C.get}`, clipGetRequestSchema, async (user, body) => ({
    clip: await clips.ofPlay(user.user_id, body.play_id),
  }));
  route.authed(`/${C.share}`, clipShareRequestSchema, async (user, body) => ({
    clip: await clips.share(user.user_id, body.clip_id, body.shared === 1),
  }));
  route.authed(`/${C.keep}`, clipKeepRequestSchema, async (user, body) => ({
    clip: await clips.keep(user.user_id, body.clip_id, body.kept === 1),
  }));

  // A shared clip's page reads this (no sign-in): the station and prize, when, the result.
  route.openGet(`/${C.view}/:clip_id`, z.object({}), async (_query, { request, reply }) => {
    const { clip_id: clipId } = request.params as { clip_id: string };
    const clip = await clips.publicView(clipId);
    void reply.header('Cache-Control', 'no-store');
    return { clip };
  });

  // The files: shared, or an address given to the player or an operator, or an operator's session.
  route.openGet(`/${C.view}/:clip_id/:file`, fileQuery, async (query, { request, reply }) => {
    const { clip_id: clipId, file: name } = request.params as { clip_id: string; file: string };
    const camera = /^(front|side)\.webm$/.exec(name)?.[1] ?? '';
    const file = await clips.file(clipId, camera, {
      e: query.e,
      k: query.k,
      // An operator whose role may read the play log (the right 'floor'), as for operator/play_clip.
      operator: async () => {
        const operator = await route.operatorOf(request);
        return operator !== null && operatorRoleAllows(operator.role, 'floor');
      },
    });
    // Opened before answering: a file removed meanwhile (retention) is a 404, never a failed stream.
    const handle = file ? await open(file.path, 'r').catch(() => null) : null;
    if (!handle) throw new Refusal(404, 404, SERVER_MESSAGES.clipNotFound);
    const size = (await handle.stat()).size;
    const range = byteRange(typeof request.headers.range === 'string' ? request.headers.range : undefined, size);
    void reply
      .header('Accept-Ranges', 'bytes')
      .header('Cache-Control', 'private, no-store')
      .header('Content-Security-Policy', "default-src 'none'");
    if (range.kind === 'unsatisfiable' || size === 0 || request.method === 'HEAD') await handle.close();
    if (range.kind === 'unsatisfiable')
      return reply
        .code(416)
        .header('Content-Range', `bytes */${size}`)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send({ error_code: 416, error_info: SERVER_MESSAGES.clipRangeUnsatisfiable });
    const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, size - 1];
    void reply.header('Content-Type', 'video/webm').header('Content-Length', String(Math.max(0, end - start + 1)));
    if (range.kind === 'part') void reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`);
    // An empty stream: Fastify's HEAD keeps the Content-Length set above (a string would reset it).
    if (request.method === 'HEAD' || size === 0) return reply.send(Readable.from([]));
    return reply.send(handle.createReadStream({ start, end }));
  });

  // Operators see any play's clip beside its play log and settings.
  route.operator(`/${C.operatorClip}`, { right: 'floor', read: true }, operatorPlayClipSchema, async (body) => ({
    clip: await clips.ofPlayForOperator(body.play_id),
  }));
}
