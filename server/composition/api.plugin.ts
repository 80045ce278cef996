import type { FastifyPluginAsync } from 'fastify';
import { RouteBuilder } from '../http/route';
import { replyError } from '../http/reply';
import { DEFAULT_RATE_LIMITS, registerRateLimits } from '../http/rate-limit';
import { StoreLimitCounts } from '../limits/store-limit-counts';
import { WindowLimiter } from '../limits/window-limiter';
import { registerApiRoutes } from '../routes/index';
import { createServices } from '../services';
import type { Store } from '../store/store';
import type { ServerMetrics } from '../metrics/server-metrics';
import { startRooms } from './leader';
import { providerCallbackUrl, startProviderCallbacks } from './provider.plugin';
import type { ServerParts } from './server-parts';
import { serviceLog } from '../logging/log-context';

/**
 * The service API under API_PREFIX: answered 503 until the store is open and the rooms resumed;
 * the per-client limits; every service built once (createServices) and the rooms started; the
 * routes; the live feed's signaling on the same port.
 */
export const apiPlugin: FastifyPluginAsync<{ parts: ServerParts }> = async (api, { parts }) => {
  const { app, config, options, clock, io, roomHost } = parts;
  const callbackUrl = providerCallbackUrl(config);
  api.addHook('onRequest', async (request, reply) => {
    if (!parts.store()) return replyError(reply, 503);
    await parts.recovered?.catch(() => undefined);
    // The provider's callback is authenticated by its signature, not by the app's header.
    if (config.authorization && request.headers.authorization !== config.authorization && request.url !== callbackUrl)
      return replyError(reply, 403);
    return undefined;
  });
  // The store opens in the background; the onRequest hook above guarantees it is open here.
  // Every statement and transaction timed for the metrics.
  const db: Store = {
    query: (sql, params) => timed(parts.metrics, 'query', () => parts.store()!.query(sql, params)),
    exec: (sql) => parts.store()!.exec(sql),
    transaction: (work) => timed(parts.metrics, 'transaction', () => parts.store()!.transaction(work)),
    close: async () => undefined,
  };
  // The per-client limits count in the store, so they hold for every instance on one database.
  const limiter = new WindowLimiter(new StoreLimitCounts(db), clock, serviceLog(app.log));
  const limits = options.rateLimits ?? DEFAULT_RATE_LIMITS;
  if (limits !== 'unlimited') await registerRateLimits(api, config.apiPrefix, limits, limiter);
  const services = createServices(db, clock, io, config, {
    log: serviceLog(app.log),
    limiter,
    roomHost,
    metrics: parts.metrics,
    ...(options.logger === false ? {} : { events: app.log }),
    instanceUrl: () => {
      if (config.instanceUrl) return config.instanceUrl;
      const address = app.server.address();
      return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : null;
    },
    ...(options.playSeeds ? { playSeeds: options.playSeeds } : {}),
    ...(options.agentBounds ? { agentBounds: options.agentBounds } : {}),
    ...(options.signalingTimings ? { signalingTimings: options.signalingTimings } : {}),
    ...(options.signalingClock ? { signalingClock: options.signalingClock } : {}),
    ...(options.playStore ? { playStore: options.playStore } : {}),
    ...(options.kujiStore ? { kujiStore: options.kujiStore } : {}),
  });
  parts.services = services;
  // A change that drops the kept top pages drops the rendered pages too.
  services.topPages.onInvalidate(() => parts.pages.clear());
  parts.recovered = startRooms(parts, services).then(() => startProviderCallbacks(app, config, services));
  parts.recovered.catch((error: unknown) => app.log.error({ err: error }, 'the rooms failed to resume'));
  const route = new RouteBuilder(
    api,
    services.identity,
    {
      accounts: services.operators,
      // The shared token is for development and tests only: production signs operators in.
      devTokenHash: config.devCalls ? config.operatorTokenHash : null,
    },
    (user) => services.serviceMessages.gate(user),
  );
  // Consoles join the live floor with the same sessions.
  services.realtime.setOperatorCheck((token) => route.operatorOfToken(token));
  await registerApiRoutes({ config, services, route });
  parts.routes = route.declared;
  // The rtc live feed's signaling, when the stations' webrtc_url is a path on this server.
  if (config.webrtcSignalingUrl.startsWith('/')) services.signaling.attach(app.server, () => parts.store() !== null);
  // The station agents dial /agent on the same port (docs/agent-protocol.md).
  services.agents.attach(app.server, () => parts.store() !== null);
  api.setNotFoundHandler((_request, reply) => replyError(reply, 404));
};

/** Runs one store call and observes how long it took and whether it threw. */
async function timed<T>(metrics: ServerMetrics, kind: 'query' | 'transaction', call: () => Promise<T>): Promise<T> {
  const end = metrics.storeDuration.startTimer({ kind });
  try {
    const result = await call();
    end({ outcome: 'ok' });
    return result;
  } catch (error) {
    end({ outcome: 'error' });
    throw error;
  }
}
