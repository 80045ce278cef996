import WebSocket from 'ws';
import { AGENT_MAX_FRAME_BYTES, AGENT_TIMINGS } from '../src/contract/agent.schema';

/**
 * The one socket the agent's connection talks through: a WebSocket client here, a scripted double in
 * the tests. Text frames only; a binary frame arrives as `null` (the protocol has none: a bad frame).
 */
export interface AgentSocket {
  send(text: string): void;
  /**
   * Ends the socket. The caller does not wait for the close handshake (a silently dead network never
   * answers it); the socket is torn down shortly after if the peer does not answer.
   */
  close(code: number, reason: string): void;
}

export interface AgentSocketHandlers {
  open(): void;
  message(text: string | null): void;
  /** Why the socket failed (a refused connection, a handshake timeout); `close` follows. */
  error(message: string): void;
  close(code: number, reason: string): void;
}

export type OpenAgentSocket = (url: string, handlers: AgentSocketHandlers) => AgentSocket;

/** How long a closing socket may wait for the peer's close frame before it is torn down. */
const CLOSE_GRACE_MS = 1_000;

/** Opens a `ws` WebSocket client to the server's agent path. */
export const openWsSocket: OpenAgentSocket = (url, handlers) => {
  const ws = new WebSocket(url, {
    maxPayload: AGENT_MAX_FRAME_BYTES,
    handshakeTimeout: AGENT_TIMINGS.helloMs,
    perMessageDeflate: false,
  });
  ws.on('open', () => handlers.open());
  ws.on('message', (data, isBinary) => handlers.message(isBinary ? null : data.toString()));
  ws.on('error', (error) => handlers.error(error.message));
  ws.on('close', (code, reason) => handlers.close(code, reason.toString()));
  return {
    send(text) {
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
    },
    close(code, reason) {
      if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.CLOSED) {
        ws.terminate();
        return;
      }
      ws.close(code, reason);
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    },
  };
};
