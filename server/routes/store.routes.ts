import { newArrivalsQuerySchema } from '../../src/contract';
import type { ApiDeps } from './deps';

/** GET /store/new_arrivals: the public prize-store listing of new arrivals, no identity [R7-7]. */
export async function storeRoutes({ route, services: s }: ApiDeps): Promise<void> {
  route.openGet('/store/new_arrivals', newArrivalsQuerySchema, async (query, { reply }) => {
    reply.header('Cache-Control', 'public, max-age=60');
    return { list: await s.catalogue.newArrivals(s.clock.now(), query.limit) };
  });
}
