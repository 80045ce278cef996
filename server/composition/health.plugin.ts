import type { FastifyPluginAsync } from 'fastify';
import type { ServerParts } from './server-parts';

/**
 * /healthz: 503 until the store is open, migrated and seeded, 200 after. /healthz/host: 200 only
 * on the leader (the load balancer's feed backend checks it, docs/deployment.md). /healthz/stations
 * and /healthz/rooms: the rooms running on this instance (operators, tests). /healthz/agents: 200
 * once there are stations on their agents and every one has its agent connected to this instance
 * and reporting, 503 with the list until then (the single-instance demo and the e2e run wait on it; with several
 * instances an agent is connected to one of them only).
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
  app.get('/healthz/agents', async (_request, reply) => {
    const services = parts.services;
    if (!services || starting()) return reply.code(503).send({ status: 'starting' });
    const rows = await services.store.query<{ station_id: number }>(
      "SELECT station_id FROM stations WHERE machine_driver = 'agent' ORDER BY station_id",
    );
    const stations = rows.map(({ station_id }) => ({
      station_id,
      connected: services.agents.connected(station_id),
      reporting: services.agents.lastState(station_id) !== null,
    }));
    // No station on an agent yet (the demo's stations are moved to theirs just after the server listens): nothing is driven.
    const ready = stations.length > 0 && stations.every((s) => s.connected && s.reporting);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'waiting', stations });
  });
  app.get('/healthz', async (_request, reply) => {
    if (parts.storeFailed()) return reply.code(503).send({ status: 'failed' });
    if (!parts.store()) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });
};
