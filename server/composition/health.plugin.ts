import type { FastifyPluginAsync } from 'fastify';
import type { ServerParts } from './server-parts';

/**
 * /healthz: 503 until the store is open, migrated and seeded, 200 after. /healthz/host: 200 only
 * on the leader (the load balancer's feed backend checks it, docs/deployment.md). /healthz/stations
 * and /healthz/rooms: the rooms running on this instance (operators, tests). /healthz/agents: 200
 * once every station (or every one of `?stations=1,2`) has its agent connected to this instance and
 * reporting, 503 with the list until then (the single-instance demo, the e2e run and the tests wait
 * on it; with several instances an agent is connected to one of them only).
 */
/** The most stations /healthz/agents?stations= names at once. */
const MAX_ASKED = 1000;

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
  app.get<{ Querystring: { stations?: unknown } }>('/healthz/agents', async (request, reply) => {
    const services = parts.services;
    if (!services || starting()) return reply.code(503).send({ status: 'starting' });
    const given = request.query.stations;
    const asked = typeof given === 'string' ? given.split(',') : [];
    // Station ids, comma-separated, once: anything else is answered 400 rather than read as "all".
    if (
      given !== undefined &&
      (typeof given !== 'string' || asked.length > MAX_ASKED || !asked.every((id) => /^[1-9][0-9]{0,8}$/.test(id)))
    )
      return reply.code(400).send({ status: 'bad_request', reason: 'stations=1,2,… (station ids, comma-separated)' });
    const rows = await services.store.query<{ station_id: number }>(
      asked.length > 0
        ? 'SELECT station_id FROM stations WHERE station_id = ANY($1::int[]) ORDER BY station_id'
        : 'SELECT station_id FROM stations ORDER BY station_id',
      asked.length > 0 ? [asked.map(Number)] : [],
    );
    const stations = rows.map(({ station_id }) => ({
      station_id,
      connected: services.agents.connected(station_id),
      reporting: services.agents.lastState(station_id) !== null,
    }));
    const ready = stations.length > 0 && stations.every((s) => s.connected && s.reporting);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'waiting', stations });
  });
  app.get('/healthz', async (_request, reply) => {
    if (parts.storeFailed()) return reply.code(503).send({ status: 'failed' });
    if (!parts.store()) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });
};
