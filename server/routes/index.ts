import type { FastifyInstance } from 'fastify';
import { contentsRoutes } from './contents.routes';
import type { ApiDeps } from './deps';
import { imageRoutes } from './images.routes';

/** Registers every API route module under the API prefix. Each module adds its own calls. */
export async function registerApiRoutes(api: FastifyInstance, deps: ApiDeps): Promise<void> {
  await contentsRoutes(api, deps);
  await imageRoutes(api, deps);
}
