import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connectSocket } from 'socket.io-client';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnkureServer, type OnkureServer } from '../../server/app';
import { readServerConfig, ServerConfigError } from '../../server/config';
import { contentSecurityPolicy } from '../../server/http/security-headers';
import { startTestServer } from '../support/test-server';

const CSS = '.page{color:#3a2a3a}';
let server: OnkureServer;
let origin: string;
let staticDir: string;
beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'onkure-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><title>t</title><script type="module" src="/assets/x.js"></script><link rel="stylesheet" crossorigin href="/assets/x.css"><div id="root"></div>',
  );
  writeFileSync(join(staticDir, 'assets', 'x.css'), CSS);
  writeFileSync(join(staticDir, 'assets', 'x.js'), 'console.log(1);');
  server = createOnkureServer(
    readServerConfig({
      PORT: '0',
      DATA_DIR: ':memory:',
      STATIC_DIR: staticDir,
      LOG_LEVEL: 'silent',
      ALLOWED_ORIGINS: 'https://partner.example.jp',
      CSP_CONNECT_SRC: 'wss://media.example.jp',
    }),
    { logger: false },
  );
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
    for (const directive of [
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "connect-src 'self' ws: wss: wss://media.example.jp",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "media-src 'self' blob:",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('the stylesheet is inlined into the page and allowed by its hash alone: no inline style attribute is', async () => {
    const res = await fetch(`${origin}/`);
    const html = await res.text();
    expect(html).toContain(`<style>${CSS}</style>`);
    expect(html).not.toContain('x.css');
    const hash = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;
    const styleSrc = (res.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('style-src'));
    expect(styleSrc).toBe(`style-src 'self' ${hash}`);
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

/** The CSP directive `name`'s sources, from a Content-Security-Policy header. */
function directive(csp: string, name: string): string[] {
  return (
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([n]) => n === name)
      ?.slice(1) ?? []
  );
}

describe('the analytics tag in the CSP [R7-12]', () => {
  const TAG = 'https://tag.example.test';

  it("[R7-12] unset: script-src stays 'self' only and no tag origin appears anywhere", async () => {
    const csp = (await fetch(`${origin}/`)).headers.get('content-security-policy') ?? '';
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
    expect(csp).not.toContain('googletagmanager');
    expect(contentSecurityPolicy({ connectSrc: [], analyticsTagOrigin: null })['script-src']).toEqual(["'self'"]);
  });

  it('[R7-12] ANALYTICS_TAG_ORIGIN: the tag origin joins script-src and connect-src only; still no unsafe-inline or unsafe-eval', async () => {
    const tagged = await startTestServer({
      inMemory: true,
      env: { ANALYTICS_TAG_ORIGIN: TAG, CSP_CONNECT_SRC: 'https://hits.example.test' },
    });
    try {
      for (const [method, url] of [
        ['GET', '/healthz'],
        ['POST', '/api/no-such-call'],
      ] as const) {
        const csp = String((await tagged.server.app.inject({ method, url })).headers['content-security-policy'] ?? '');
        expect(directive(csp, 'script-src')).toEqual(["'self'", TAG]);
        expect(directive(csp, 'connect-src')).toEqual(["'self'", 'ws:', 'wss:', TAG, 'https://hits.example.test']);
        expect(directive(csp, 'default-src')).toEqual(["'self'"]);
        expect(directive(csp, 'img-src')).toEqual(["'self'", 'data:', 'blob:']);
        expect(csp).not.toMatch(/unsafe-(inline|eval)/);
      }
    } finally {
      await tagged.close();
    }
  });

  it('ANALYTICS_TAG_ORIGIN must be exactly one origin; https in production', () => {
    expect(readServerConfig({}).analyticsTagOrigin).toBeNull();
    expect(readServerConfig({ ANALYTICS_TAG_ORIGIN: '' }).analyticsTagOrigin).toBeNull();
    expect(readServerConfig({ ANALYTICS_TAG_ORIGIN: TAG }).analyticsTagOrigin).toBe(TAG);
    expect(readServerConfig({ ANALYTICS_TAG_ORIGIN: 'http://127.0.0.1:9999' }).analyticsTagOrigin).toBe(
      'http://127.0.0.1:9999',
    );
    for (const bad of [
      '*',
      "'unsafe-inline'",
      'https://*.example.test',
      `${TAG}/gtag/js`,
      `${TAG} https://other.example.test`,
      'tag.example.test',
      'javascript:alert(1)',
    ]) {
      expect(() => readServerConfig({ ANALYTICS_TAG_ORIGIN: bad }), bad).toThrow(ServerConfigError);
    }
    expect(() => readServerConfig({ ANALYTICS_TAG_ORIGIN: 'http://tag.example.test', NODE_ENV: 'production' })).toThrow(
      /ANALYTICS_TAG_ORIGIN/,
    );
    expect(readServerConfig({ ANALYTICS_TAG_ORIGIN: TAG, NODE_ENV: 'production' }).analyticsTagOrigin).toBe(TAG);
  });
});

/** Opens a socket.io WebSocket with the given Origin header; resolves 'connected' or 'refused'. */
function tryConnect(pageOrigin: string): Promise<'connected' | 'refused'> {
  return new Promise((resolve) => {
    const socket = connectSocket(origin, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { Origin: pageOrigin },
      timeout: 5000,
    });
    socket.on('connect', () => {
      socket.close();
      resolve('connected');
    });
    socket.on('connect_error', () => {
      socket.close();
      resolve('refused');
    });
  });
}

describe('socket.io checks the Origin (issue 7 §5.6)', () => {
  it('refuses a page from another origin', async () => {
    expect(await tryConnect('https://evil.example')).toBe('refused');
    expect(await tryConnect('null')).toBe('refused');
  });

  it("accepts the app's own origin and a configured extra origin", async () => {
    expect(await tryConnect(origin)).toBe('connected');
    expect(await tryConnect('https://partner.example.jp')).toBe('connected');
  });
});

describe('partner pages call the API as a guest across origins (ALLOWED_ORIGINS, the station widget)', () => {
  const preflight = (from: string, headers: string) =>
    fetch(`${origin}/api/contents/lobby`, {
      method: 'OPTIONS',
      headers: { origin: from, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
    });

  it("a configured partner origin's preflight is allowed for the client's own headers, with no credentials", async () => {
    const res = await preflight('https://partner.example.jp', 'content-type,x-requested-with');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://partner.example.jp');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, x-requested-with');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('its guest call is answered with the origin allowed and the still tick header readable', async () => {
    const res = await fetch(`${origin}/api/contents/lobby`, {
      method: 'POST',
      headers: { origin: 'https://partner.example.jp', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://partner.example.jp');
    expect(res.headers.get('access-control-expose-headers')).toBe('x-onkure-tick');
    expect(((await res.json()) as { error_code: number }).error_code).toBe(200);
  });

  it('an unlisted origin gets no Access-Control header, and no identity header crosses even from a partner', async () => {
    const evil = await preflight('https://evil.example', 'content-type');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const call = await fetch(`${origin}/api/contents/lobby`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
    // The browser sends the identity header only if the preflight's allowed headers list it.
    const identity = await preflight('https://partner.example.jp', 'content-type,x-access-token');
    expect(identity.headers.get('access-control-allow-headers')).toBe('content-type, x-requested-with');
    const authorization = await preflight('https://partner.example.jp', 'authorization');
    expect(authorization.headers.get('access-control-allow-headers')).not.toContain('authorization');
  });

  it('with no ALLOWED_ORIGINS no answer carries an Access-Control header', async () => {
    const t = await startTestServer({ listen: true, inMemory: true });
    try {
      const res = await fetch(`${t.apiBase}contents/lobby`, {
        method: 'POST',
        headers: { origin: 'https://partner.example.jp', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.close();
    }
  });
});
