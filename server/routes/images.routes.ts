import { z } from 'zod/mini';
import { PICTURE_CONTENT_TYPES, PICTURE_FORMATS, PICTURE_WIDTHS, type PictureWidth } from '../../src/domain';
import { Refusal } from '../play/refusal';
import { SERVER_MESSAGES } from '../messages';
import type { ApiDeps } from './deps';

/**
 * A picture's size and format (`?w=&fm=`, src/domain/catalogue/picture-variants.rule.ts): both or
 * neither; a width outside the served set or an unknown format is refused, not drawn.
 */
const variantQuery = z
  .object({
    w: z.optional(z.enum(PICTURE_WIDTHS.map(String) as [string, ...string[]])),
    fm: z.optional(z.enum(PICTURE_FORMATS)),
  })
  .check(
    z.refine((q) => (q.w === undefined) === (q.fm === undefined), {
      message: SERVER_MESSAGES.imageVariantIncomplete,
    }),
  );

/** Generated prize and banner pictures, stored in the embedded store, as stored or drawn at a size. */
export async function imageRoutes({ route, services: s }: ApiDeps): Promise<void> {
  route.openGet('/images/:file', variantQuery, async (query, { request, reply }) => {
    const match = /^([a-z0-9-]{1,80})\.svg$/.exec((request.params as { file: string }).file);
    if (!match) throw new Refusal(404, 404, SERVER_MESSAGES.imageNotFound);
    const key = match[1]!;
    reply.header('Cache-Control', 'public, max-age=86400');
    if (query.w !== undefined && query.fm !== undefined) {
      const bytes = await s.imageVariants.variant(key, Number(query.w) as PictureWidth, query.fm);
      if (!bytes) throw new Refusal(404, 404, SERVER_MESSAGES.imageNotFound);
      return reply.header('Content-Type', PICTURE_CONTENT_TYPES[query.fm]).send(bytes);
    }
    const image = await s.catalogue.image(key);
    if (!image) throw new Refusal(404, 404, SERVER_MESSAGES.imageNotFound);
    return reply
      .header('Content-Type', image.content_type)
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(Buffer.from(image.body));
  });
}
