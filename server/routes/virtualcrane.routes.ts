import { virtualCraneListRequestSchema } from '../../src/contract';
import type { ApiDeps } from './deps';

/** POST /virtualcrane/list: signed-in users only, since guests cannot see the virtual crane [R6-1]. */
export async function virtualCraneRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const { contents } = s;
  route.authed('/virtualcrane/list', virtualCraneListRequestSchema, async () => {
    const { list, newCount } = await contents.virtualCranes(s.clock.now());
    return { list, Badge: newCount };
  });
}
