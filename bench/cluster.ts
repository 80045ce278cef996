/**
 * Several instances, measured (issue 25): a throwaway PostgreSQL cluster, two instance processes on
 * it (the stations spread over both), and this process as the load generator.
 *
 *   npm run bench:cluster [-- sockets=1000,5000 pushes=10 requests=3000 concurrency=32]
 *
 * Smallest (npm test's smoke run): sockets=2 pushes=2 requests=4 concurrency=2.
 *
 * 1. For each socket count: that many socket.io clients, half on each instance, all on the `top`
 *    channel. An operator sets the status of a station the first instance runs, calling the second
 *    (relayed to the first, whose room steps and pushes through the PostgreSQL adapter to both
 *    instances); the time from the call to
 *    each client's `update`: p50, p99, max, and how many never arrived. The generator's own CPU and
 *    event-loop use are printed beside it: above ~90 % the generator, not the servers, is the limit.
 * 2. The top page (POST contents/top_page_prize) at `concurrency`: all requests to one instance,
 *    then spread over both; requests per second and the ratio.
 */
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { startPostgresCluster } from '../scripts/lib/postgres-cluster';
import { freePort, ServerProcess } from '../test/support/server-process';
import { timeStatusPush } from '../test/support/status-push-timing';
import { benchFailed, setUp } from './support';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const socketCounts = (args.sockets ?? '1000,5000').split(',').map(Number);
const pushes = Number(args.pushes ?? 10);
const requests = Number(args.requests ?? 3000);
const concurrency = Number(args.concurrency ?? 32);
const TOKEN = 'bench-cluster-operator-token-0123456789';
const pct = (xs: number[], p: number) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const round = (x: number) => Math.round(x * 10) / 10;

async function connectAll(origins: string[], count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i += 200) {
    const batch = Array.from({ length: Math.min(200, count - i) }, (_, j) => {
      const socket = io(origins[(i + j) % origins.length]!, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        timeout: 20_000,
      });
      sockets.push(socket);
      return new Promise<void>((resolve, reject) => {
        socket.once('connect', () => socket.emit('join', 'top', () => resolve()));
        socket.once('connect_error', reject);
      });
    });
    await Promise.all(batch);
  }
  return sockets;
}

/** The operator's call whose push is timed: refused, nothing would be pushed, so the bench stops with it. */
async function operator(origin: string, path: string, body: object): Promise<void> {
  await setUp(
    fetch(`${origin}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-operator-authorization': `Bearer ${TOKEN}` },
      body: JSON.stringify(body),
    }),
    `${path} ${JSON.stringify(body)}`,
  );
}

async function pushRound(sockets: Socket[], standby: string, stationId: number) {
  const latencies: number[] = [];
  let missing = 0;
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const wall0 = performance.now();
  for (let k = 0; k < pushes; k += 1) {
    const status = k % 2 === 0 ? 'maintenance' : 'open';
    const arrived = await timeStatusPush(
      sockets,
      stationId,
      status,
      () => operator(standby, 'operator/station_status', { station_id: stationId, station_status: status }),
      15_000,
    );
    for (const t of arrived) {
      if (t === null) missing += 1;
      else latencies.push(t);
    }
  }
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  return {
    'p50 ms': round(pct(latencies, 0.5)),
    'p99 ms': round(pct(latencies, 0.99)),
    'max ms': round(Math.max(...latencies)),
    'never arrived': missing,
    'generator CPU %': Math.round(((cpu.user + cpu.system) / 1000 / wallMs) * 100),
    'generator event loop %': Math.round(elu.utilization * 100),
  };
}

async function topPage(origins: string[]) {
  const body = JSON.stringify({ shop_id: 1, is_top_page: 1 });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < requests) {
        const i = next++;
        const res = await fetch(`${origins[(i + worker) % origins.length]}/api/contents/top_page_prize`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
          body,
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`top page: HTTP ${res.status}`);
      }
    }),
  );
  return requests / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const cluster = await startPostgresCluster();
  const url = await cluster.createDatabase('bench');
  const env = { DATABASE_URL: url, ONKURE_OPERATOR_TOKEN: TOKEN, ONKURE_FEED: 'jpg', LOG_LEVEL: 'error' };
  const host = new ServerProcess(await freePort(), ':memory:', env);
  const standby = new ServerProcess(await freePort(), ':memory:', env);
  try {
    await host.start();
    await standby.start();
    const origins = [host.origin, standby.origin];
    // The stations spread over both; the pushed station runs on the first, the calls go to the second.
    const running = async (origin: string) =>
      ((await (await fetch(`${origin}/healthz/stations`)).json()) as { stations?: number[] }).stations ?? [];
    for (let i = 0; i < 100 && (await running(standby.origin)).length === 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const stationId = Number(args.station ?? (await running(host.origin))[0]);
    console.log(
      `machine: ${process.platform}, node ${process.versions.node}; generator, both instances and PostgreSQL share it.`,
    );
    for (const count of socketCounts) {
      const t0 = performance.now();
      const sockets = await connectAll(origins, count);
      const connectS = (performance.now() - t0) / 1000;
      // The adapter's heartbeat has both instances know each other before the pushes are timed.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const result = await pushRound(sockets, standby.origin, stationId);
      console.log(
        `\n1. ${count} sockets (${count / 2} per instance, connected in ${round(connectS)} s), ${pushes} pushes each`,
      );
      console.table({ 'operator call → every screen': result });
      for (const socket of sockets) socket.close();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    await topPage([host.origin]); // warm both instances' caches
    await topPage([standby.origin]);
    const one = await topPage([host.origin]);
    const two = await topPage(origins);
    console.log(`\n2. top page, ${requests} requests at concurrency ${concurrency}`);
    console.table({
      'one instance': { 'requests/s': Math.round(one) },
      'two instances': { 'requests/s': Math.round(two) },
      ratio: { 'requests/s': round(two / one) },
    });
  } finally {
    await standby.kill('SIGTERM');
    await host.kill('SIGTERM');
    await cluster.stop();
  }
}

main().catch(benchFailed);
