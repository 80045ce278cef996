import { z } from 'zod/mini';
import { Refusal } from '../play/refusal';
import { SERVER_MESSAGES } from '../messages';
import type { ApiDeps } from './deps';

/** Generated prize and banner pictures, stored in the embedded store. */
export async function imageRoutes({ route, services: s }: ApiDeps): Promise<void> {
  route.openGet('/images/:file', z.object({}), async (_query, { request, reply }) => {
    const match = /^([a-z0-9-]{1,80})\.svg$/.exec((request.params as { file: string }).file);
    const image = match ? await s.catalogue.image(match[1]!) : null;
    if (!image) throw new Refusal(404, 404, SERVER_MESSAGES.imageNotFound);
    return reply
      .header('Content-Type', image.content_type)
      .header('Cache-Control', 'public, max-age=86400')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(Buffer.from(image.body));
  });
}

/** The public address of a stored image under the API prefix. */
export const imageUrl = (apiPrefix: string) => (key: string) => `${apiPrefix}/images/${key}.svg`;
