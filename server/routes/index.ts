import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account.routes';
import { authRoutes } from './auth.routes';
import { contentsRoutes } from './contents.routes';
import type { ApiDeps } from './deps';
import { imageRoutes } from './images.routes';
import { kujiRoutes } from './kuji.routes';
import { playRoutes } from './play.routes';
import { purchaseRoutes } from './purchase.routes';
import { storeRoutes } from './store.routes';
import { userRoutes } from './user.routes';
import { virtualCraneRoutes } from './virtualcrane.routes';

/** Registers every API route module under the API prefix. Each module adds its own calls. */
export async function registerApiRoutes(api: FastifyInstance, deps: ApiDeps): Promise<void> {
  await contentsRoutes(api, deps);
  await imageRoutes(api, deps);
  await playRoutes(api, deps);
  await kujiRoutes(api, deps);
  await virtualCraneRoutes(api, deps);
  await storeRoutes(api, deps);
  await userRoutes(api, deps);
  await accountRoutes(api, deps);
  await authRoutes(api, deps);
  await purchaseRoutes(api, deps);
}
