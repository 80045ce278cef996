import type { FastifyPluginAsync } from 'fastify';
import type { ServerParts } from './server-parts';

/**
 * /healthz: 503 until the store is open, migrated and seeded, 200 after. /healthz/host: 200 only
 * on the leader (the load balancer's feed backend checks it, docs/deployment.md). /healthz/stations
 * and /healthz/rooms: the rooms running on this instance (operators, tests).
 */
export const healthPlugin: FastifyPluginAsync<{ parts: ServerParts }> = async (app, { parts }) => {
  const starting = () => !parts.store() || parts.storeFailed();
  app.get('/healthz/host', async (_request, reply) => {
    if (starting()) return reply.code(503).send({ status: 'starting' });
    if (!parts.roomHost.hosting) return reply.code(503).send({ status: 'standby' });
    return { status: 'host' };
  });
  app.get('/healthz/stations', async (_request, reply) => {
    if (!parts.services || starting()) return reply.code(503).send({ status: 'starting' });
    return { stations: parts.services.rooms.running('station') };
  });
  app.get('/healthz/rooms', async (_request, reply) => {
    if (!parts.services || starting()) return reply.code(503).send({ status: 'starting' });
    return { station: parts.services.rooms.running('station'), kuji: parts.services.rooms.running('kuji') };
  });
  app.get('/healthz', async (_request, reply) => {
    if (parts.storeFailed()) return reply.code(503).send({ status: 'failed' });
    if (!parts.store()) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });
};
