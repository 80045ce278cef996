import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { Server as SocketIOServer } from 'socket.io';

/** Heartbeats between instances: an instance silent for 10 s is taken as gone (docs/deployment.md). */
export const CLUSTER_HEARTBEAT = { intervalMs: 5_000, timeoutMs: 10_000 } as const;

/**
 * Pushes across instances (issue 25): socket.io's PostgreSQL adapter, over the same database as the
 * store. An emit to a channel (station, kuji box, user, top) is published with NOTIFY and every
 * instance delivers it to its own sockets; `fetchSockets` and `disconnectSockets` reach every
 * instance. Its pool is its own (one LISTEN connection held, NOTIFYs and the cleanup of large
 * payloads), so a busy store never delays a push.
 */
export function attachClusterAdapter(
  io: SocketIOServer,
  databaseUrl: string,
  log: (message: string, error?: unknown) => void,
): { close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, application_name: 'onkure-push' });
  // The adapter keeps one client checked out for LISTEN and listens for its 'end' only: a lost
  // connection would otherwise throw 'error' with no listener and end the process. It reconnects
  // on 'end' by itself.
  pool.on('connect', (client) => client.on('error', (error) => log('push connection lost', error)));
  pool.on('error', (error) => log('push pool connection lost', error));
  io.adapter(
    createAdapter(pool, {
      heartbeatInterval: CLUSTER_HEARTBEAT.intervalMs,
      heartbeatTimeout: CLUSTER_HEARTBEAT.timeoutMs,
      errorHandler: (error) => log('push between instances failed', error),
    }),
  );
  return {
    async close() {
      await pool.end().catch(() => undefined);
    },
  };
}
