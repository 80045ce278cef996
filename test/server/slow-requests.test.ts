import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnkureServer, type OnkureServer } from '../../server/app';
import { readServerConfig } from '../../server/config';

const REQUEST_MS = 300;
let server: OnkureServer;
let port: number;
beforeAll(async () => {
  server = createOnkureServer(
    readServerConfig({ PORT: '0', DATA_DIR: ':memory:', STATIC_DIR: '', LOG_LEVEL: 'silent' }),
    {
      logger: false,
      timeouts: { requestMs: REQUEST_MS, headersMs: REQUEST_MS },
    },
  );
  await server.ready;
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
}, 60_000);
afterAll(async () => server?.close());

/** Sends `text` on a raw socket and then nothing; resolves with what came back and when the socket closed. */
function sendAndStall(text: string): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
  });
}

describe('slow requests are cut off (issue 7 §5.9)', () => {
  it('a body that never finishes gets 408 and the socket closes within the configured request timeout', async () => {
    const { answer, closedAfterMs } = await sendAndStall(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":"a@',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 50);
    expect(closedAfterMs).toBeLessThan(1000);
  });

  it('headers that never finish are cut off too', async () => {
    const { answer, closedAfterMs } = await sendAndStall('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeLessThan(1000);
  });
});
