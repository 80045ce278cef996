import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4319);

/**
 * End-to-end tests: the built app served by the reference server, driven in Debian's Chromium. The
 * kuji holder's first window is 12 s here (the server's KUJI_FIRST_RESERVED_SECONDS; the client shows
 * the server's reserve_remaintime), so a lapse can be watched without a long wait.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'mobile',
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
    },
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    // The server on a data folder of its own, removed when it ends (scripts/e2e-server.mjs).
    command: 'node scripts/e2e-server.mjs',
    // Ready once every station's agent (the demo's sim agent process) is connected and reporting.
    url: `http://127.0.0.1:${port}/healthz/agents`,
    reuseExistingServer: false,
    timeout: 60_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ONKURE_DEV_CALLS: '1',
      KUJI_FIRST_RESERVED_SECONDS: '12',
      ONKURE_FEED: 'jpg',
      ONKURE_OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN ?? 'e2e-operator-token-0123456789',
      // The partner page of e2e/station-widget.spec.ts (the widget from the packed package) is
      // served from the next port: another origin, allowed to call the service as a guest.
      ALLOWED_ORIGINS: `http://127.0.0.1:${port + 1}`,
    },
  },
});
