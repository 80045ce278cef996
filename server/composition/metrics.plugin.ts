import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from '../metrics/server-metrics';
import { STATION_VIEW_KINDS, stationGauges } from '../metrics/station-gauges';
import { meterPushes } from '../metrics/push-metrics';
import type { ServerParts } from './server-parts';

/** The address Prometheus scrapes on the service's port (with METRICS_TOKEN). */
export const METRICS_PATH = '/metrics';

/**
 * The instance's metrics (docs/operations.md "Metrics"): every answer counted and timed by its
 * route's template; /metrics on the service port for a bearer of METRICS_TOKEN (404 for anyone
 * else, and for everyone when no token is set: it does not exist); a listener of its own on
 * METRICS_HOST:METRICS_PORT (an internal address) with no token. Registered on the root instance
 * so that the timing hook sees every route, the API's and the pages'.
 */
export function installMetrics(
  app: FastifyInstance,
  parts: ServerParts,
  metrics: ServerMetrics,
): { close(): Promise<void>; port(): number | null } {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = request.method;
    metrics.httpRequests.inc({ method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method, route }, reply.elapsedTime / 1000);
  });
  const tokenHash = parts.config.metrics.tokenHash;
  app.get(METRICS_PATH, async (request, reply) => {
    const given = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const ok =
      tokenHash !== null &&
      given !== undefined &&
      timingSafeEqual(createHash('sha256').update(given).digest(), tokenHash);
    // Nothing tells a prober that metrics exist here.
    if (!ok) return reply.code(404).header('cache-control', 'no-store').send({ statusCode: 404, error_code: 404 });
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.text());
  });
  stationGauges(metrics, () => parts.services, STATION_VIEW_KINDS);
  const probes = meterPushes(parts.io, metrics, parts.roomHost.distributed);
  metrics.gauge(
    'onkure_store_pool_connections',
    "Connections of the store's pool by state (total, idle, waiting).",
    ['state'],
    () => {
      const pool = (parts.store() as { pool?: { totalCount: number; idleCount: number; waitingCount: number } } | null)
        ?.pool;
      return pool
        ? [
            { labels: { state: 'total' }, value: pool.totalCount },
            { labels: { state: 'idle' }, value: pool.idleCount },
            { labels: { state: 'waiting' }, value: pool.waitingCount },
          ]
        : [];
    },
  );
  metrics.gauge('onkure_store_ready', '1 once the store is open, migrated and seeded.', [], () => [
    { labels: {}, value: parts.store() && !parts.storeFailed() ? 1 : 0 },
  ]);
  // The money reconciliation's latest run, from the leader only (it runs them; one series for the service).
  const reconciled = () => (parts.roomHost.hosting ? (parts.services?.reconciliation.latest() ?? null) : null);
  metrics.gauge(
    'onkure_reconciliation_mismatches',
    'Mismatches the latest money reconciliation found.',
    ['day'],
    () => {
      const latest = reconciled();
      return latest ? [{ labels: { day: latest.day }, value: latest.mismatches }] : [];
    },
  );
  metrics.gauge(
    'onkure_reconciliation_last_run_timestamp_seconds',
    'When the latest money reconciliation ran.',
    [],
    () => {
      const latest = reconciled();
      return latest ? [{ labels: {}, value: latest.ranAt.getTime() / 1000 }] : [];
    },
  );
  metrics.gauge('onkure_leader', '1 while this instance leads (runs the rooms and the sweeps).', [], () => [
    { labels: {}, value: parts.roomHost.hosting ? 1 : 0 },
  ]);

  const { port, host } = parts.config.metrics;
  let listener: Server | null = null;
  if (port !== null) {
    listener = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== METRICS_PATH) {
        response.writeHead(404).end();
        return;
      }
      metrics.text().then(
        (text) =>
          response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics could not be read');
          response.writeHead(500).end();
        },
      );
    });
    listener.on('error', (error) => app.log.error({ err: error }, `the metrics listener on ${host}:${port} failed`));
    listener.listen(port, host);
  }
  return {
    /** Where the metrics listener listens (tests ask for port 0), or null without one. */
    port() {
      const address = listener?.address();
      return address && typeof address === 'object' ? address.port : null;
    },
    async close() {
      probes.stop();
      if (listener) await new Promise<void>((resolve) => listener!.close(() => resolve()));
    },
  };
}
