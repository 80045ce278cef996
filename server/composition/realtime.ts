import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Server as SocketIOServer } from 'socket.io';
import type { ServerConfig } from '../config';
import { originAllowed } from '../http/security-headers';
import { AGENT_PATH } from '../../src/contract/agent.schema';
import { refuseUpgrade, requestUrl } from '../http/upgrade-request';
import { attachClusterAdapter } from '../realtime/cluster-adapter';
import { serviceLog } from '../logging/log-context';

/**
 * The real-time socket on the server's port: socket.io at /socket.io for the app's own origins
 * only (issue 7 §5.6); with several instances on PostgreSQL, pushes reach every instance's sockets
 * through its adapter. Any other upgrade (but the live feed's signaling) is refused at once.
 */
export function createRealtime(app: FastifyInstance, config: ServerConfig) {
  const io = new SocketIOServer(app.server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: false },
    // The live feed's signaling shares the port: other upgrade paths are not socket.io's to close.
    destroyUpgrade: false,
    allowRequest: (request, callback) => callback(null, originAllowed(request, config)),
  });
  const clusterAdapter = config.databaseUrl ? attachClusterAdapter(io, config.databaseUrl, serviceLog(app.log)) : null;
  // An upgrade nobody serves (neither socket.io, the live feed's signaling nor the agents') gets a 404 at once.
  // An address that does not parse gets a 400 (a raw request line can hold anything).
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    const path = requestUrl(request)?.pathname;
    if (path === undefined) return refuseUpgrade(socket, '400 Bad Request');
    if (path.startsWith('/socket.io/') || path === config.webrtcSignalingUrl || path === AGENT_PATH) return undefined;
    return refuseUpgrade(socket, '404 Not Found');
  });
  return {
    io,
    async close() {
      io.close();
      await clusterAdapter?.close();
    },
  };
}
