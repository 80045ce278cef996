import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from "./deps";
import { replyError } from '../http/reply';

/** Generated prize and banner pictures, stored in the embedded store. */
export async function imageRoutes(app: FastifyInstance, deps: Pick<ApiDeps, "catalogue">): Promise<void> {
  app.get<{ Params: { file: string } }>('/images/:file', async (request, reply) => {
    const match = /^([a-z0-9-]{1,80})\.svg$/.exec(request.params.file);
    const image = match ? await deps.catalogue.image(match[1]!) : null;
    if (!image) return replyError(reply, 404, '画像が見つかりません。');
    return reply
      .header('Content-Type', image.content_type)
      .header('Cache-Control', 'public, max-age=86400')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(Buffer.from(image.body));
  });
}

/** The public address of a stored image under the API prefix. */
export const imageUrl = (apiPrefix: string) => (key: string) => `${apiPrefix}/images/${key}.svg`;
