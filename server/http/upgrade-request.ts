import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/*
 * Helpers for the server's own WebSocket upgrade handlers (the rtc signaling, the agent gateway,
 * the dispatch in composition/realtime.ts): they read the raw upgrade request before any framework
 * sees it, and refuse it with a bare HTTP status.
 */

/** The request's address, or null when it does not parse (a raw request line can hold anything). */
export function requestUrl(request: IncomingMessage): URL | null {
  try {
    return new URL(request.url ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

/** Answers an upgrade request with an HTTP status (and no body) and closes its socket. */
export function refuseUpgrade(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
