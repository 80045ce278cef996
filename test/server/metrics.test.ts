import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerConfig } from '../../server/config';
import { ManualServerClock } from '../support/manual-server-clock';
import { buyTc } from '../support/payments';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { connectSocket } from '../support/socket-client';
import type { Socket } from 'socket.io-client';
import { SIGNATURE_HEADER } from '../../server/payment/signature';

/**
 * Issue 46, metrics: /metrics in Prometheus' text format for a bearer of METRICS_TOKEN only, and
 * on an internal listener of its own (METRICS_PORT); what a play, a purchase and the pages do shows
 * in its series, every series labelled with the instance (docs/operations.md "Metrics").
 */
const TOKEN = 'metrics-token-for-tests-0123456789';
const clock = new ManualServerClock(new Date('2026-11-30T12:00:00+09:00'));
let t: TestServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestServer({
    listen: true,
    inMemory: true,
    clock,
    env: { METRICS_TOKEN: TOKEN, METRICS_PORT: '0', INSTANCE_ID: 'test-a' },
  });
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The exposition text's samples (name, labels, value); comments skipped. */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of a series' samples whose labels include `labels`. */
const total = (all: readonly Sample[], name: string, labels: Record<string, string> = {}): number =>
  all
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

async function scrape(): Promise<Sample[]> {
  const res = await t.server.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(res.body);
}

describe('metrics (issue 46)', () => {
  it('/metrics is not public: without METRICS_TOKEN it does not exist; with it, only its bearer reads it', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-wrong' }, { authorization: TOKEN }]) {
      const res = await t.server.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toMatch(/onkure_|process_/);
    }
    // A server with no token has no /metrics at all, whatever is sent.
    const plain = await startTestServer();
    try {
      const res = await plain.server.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
    expect(() => readServerConfig({ METRICS_TOKEN: 'short' }, '/tmp')).toThrow(/METRICS_TOKEN/);
    expect(() => readServerConfig({ METRICS_PORT: 'x' }, '/tmp')).toThrow(/METRICS_PORT/);
  });

  it('the internal listener (METRICS_PORT) serves the same series with no token, and nothing else', async () => {
    const port = t.server.metricsPort();
    expect(port).toBeGreaterThan(0);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    const all = samples(await res.text());
    expect(all.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
  });

  it('a play, a purchase and the API calls show in the series, each labelled with the instance', async () => {
    const station = await playableStation(t);
    const stationId = String(station.station_id);
    const before = await scrape();
    // A watching player's socket, and a play that misses.
    const alice = await createTestUser(t, { birth: '1990-04-01' }, { freeTc: 1_000 });
    await connectSocket(t.origin, alice, sockets);
    const driver = new PlayDriver(t, clock, alice);
    await driver
      .reserve(station.station_id)
      .waitTurn()
      .confirm()
      .waitPlaying()
      .holdRight(100)
      .holdBack(100)
      .waitResult();
    expect(driver.play).toMatchObject({ result: 'miss' });
    // While Bob waits behind her turn, the line counts him.
    const bob = await createTestUser(t, {}, { freeTc: 1_000 });
    await new PlayDriver(t, clock, bob).reserve(station.station_id);
    // A purchase paid through the provider: its settlement opens, the callback completes it.
    const settled = await buyTc(t, alice, 2);
    expect(settled.status).toBe('completed');

    const after = await scrape();
    const grew = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, labels) - total(before, name, labels);
    expect(after.every((s) => s.labels.instance_id === 'test-a')).toBe(true);
    // HTTP by route template and status, with latency.
    expect(grew('onkure_http_requests_total', { route: '/api/v2/play/reserve', status: '200', method: 'POST' })).toBe(
      2,
    );
    expect(grew('onkure_http_request_duration_seconds_count', { route: '/api/v2/play/reserve' })).toBe(2);
    // The station: a play charged in free TC, its miss, the line behind the turn.
    expect(grew('onkure_station_plays_total', { station_id: stationId })).toBe(1);
    expect(grew('onkure_station_results_total', { station_id: stationId, result: 'miss' })).toBe(1);
    expect(grew('onkure_tc_charged_total', { kind: 'play', currency: 'free' })).toBe(station.play_price);
    expect(total(after, 'onkure_station_line_length', { station_id: stationId })).toBeGreaterThanOrEqual(1);
    expect(total(after, 'onkure_station_agent_connected', { station_id: stationId })).toBe(1);
    // Real time: the socket, and the play's pushes.
    expect(total(after, 'onkure_socket_connections')).toBeGreaterThanOrEqual(1);
    expect(grew('onkure_pushes_total', { event: 'play_state' })).toBeGreaterThan(0);
    expect(grew('onkure_push_latency_seconds_count', { hop: 'local' })).toBeGreaterThan(0);
    // Money: the settlement opened and completed, the provider's callback applied.
    expect(grew('onkure_settlements_total', { status: 'pending' })).toBe(1);
    expect(grew('onkure_settlements_total', { status: 'completed' })).toBe(1);
    expect(grew('onkure_provider_callbacks_total', { outcome: 'applied' })).toBe(1);
    // The store's statements, and the process.
    expect(grew('onkure_store_query_duration_seconds_count', { kind: 'query', outcome: 'ok' })).toBeGreaterThan(0);
    expect(grew('onkure_store_query_duration_seconds_count', { kind: 'transaction', outcome: 'ok' })).toBeGreaterThan(
      0,
    );
    expect(total(after, 'onkure_store_ready')).toBe(1);
    expect(total(after, 'onkure_leader')).toBe(1);
    expect(after.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('a callback with a bad signature is counted as such and changes nothing', async () => {
    const before = await scrape();
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/api/purchase/provider_callback',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: 't=1,v1=00' },
      payload: { merchant_reference: 'x', payment_id: 'y', amount: 1, outcome: 'paid' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const after = await scrape();
    expect(
      total(after, 'onkure_provider_callbacks_total', { outcome: 'bad_signature' }) -
        total(before, 'onkure_provider_callbacks_total', { outcome: 'bad_signature' }),
    ).toBe(1);
    expect(total(after, 'onkure_settlements_total')).toBe(total(before, 'onkure_settlements_total'));
  });
});
