import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnkureServer, type OnkureServer } from '../../server/app';
import { readServerConfig } from '../../server/config';

let server: OnkureServer;
let origin: string;
let staticDir: string;
beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'onkure-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title><script type="module" src="/assets/x.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'x.js'), 'console.log(1);');
  server = createOnkureServer(readServerConfig({
    PORT: '0', DATA_DIR: ':memory:', STATIC_DIR: staticDir, LOG_LEVEL: 'silent',
    ALLOWED_ORIGINS: 'https://partner.example.jp', CSP_CONNECT_SRC: 'wss://media.example.jp',
  }), { logger: false });
  await server.ready;
  origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('security headers (issue 7 §5.6)', () => {
  it('the app shell carries a CSP, nosniff, a Referrer-Policy and refuses framing', async () => {
    const res = await fetch(`${origin}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of ["script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", "connect-src 'self' ws: wss: wss://media.example.jp",
      "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'", "media-src 'none'"]) expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('API answers carry them too', async () => {
    const res = await fetch(`${origin}/api/no-such-call`, { method: 'POST' });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('built assets keep their immutable cache header; the app shell is no-cache', async () => {
    const asset = await fetch(`${origin}/assets/x.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/index.html', '/prizes/some/route']) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });
});

/** Opens a socket.io WebSocket with the given Origin header; resolves 'connected' or 'refused'. */
function tryConnect(pageOrigin: string): Promise<'connected' | 'refused'> {
  return new Promise((resolve) => {
    const socket = connectSocket(origin, { path: '/socket.io', transports: ['websocket'], reconnection: false, extraHeaders: { Origin: pageOrigin }, timeout: 5000 });
    socket.on('connect', () => { socket.close(); resolve('connected'); });
    socket.on('connect_error', () => { socket.close(); resolve('refused'); });
  });
}

describe('socket.io checks the Origin (issue 7 §5.6)', () => {
  it('refuses a page from another origin', async () => {
    expect(await tryConnect('https://evil.example')).toBe('refused');
    expect(await tryConnect('null')).toBe('refused');
  });

  it('accepts the app\'s own origin and a configured extra origin', async () => {
    expect(await tryConnect(origin)).toBe('connected');
    expect(await tryConnect('https://partner.example.jp')).toBe('connected');
  });
});
