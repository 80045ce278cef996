/**
 * Station agents, measured (issue 42). The real server in a process of its own
 * (bench/agent-server.ts, on 127.0.0.1, its store in a temporary folder); this process is the
 * players (HTTP, as the app calls), the operator (the shared dev token) and the agents: the
 * reference agent's AgentConnection with the sim driver, one per station, each over its own
 * WebSocket. Everything is timed on this process's clock: a call leaves here, and the press reaches
 * a driver here.
 *
 *   npm run bench:agent [-- agents=200 players=24 plays=11 estops=120 seconds=30 idle=5 store=pglite|postgres
 *                          transport=socket|http]
 *
 * Smallest (npm test's smoke run): agents=2 players=1 plays=1 estops=1 seconds=1 idle=1 (agents: at least
 * players + 1, the e-stops' stations being those no player uses).
 *
 * store=postgres runs the server on a throwaway PostgreSQL cluster of Debian's package (the store
 * of a bigger deployment: its queries leave the event loop) instead of the embedded PGlite.
 *
 * 1. Heartbeats: `agents` agents, one station each (the catalogue's playable stations, copies of one
 *    added up to the count), connected and idle for `seconds`: the server's CPU time per agent per
 *    second (its process.cpuUsage over the window, less the same server's idle rate before any agent
 *    connected), the heartbeat round trips the server measured, the gaps between pings at the agents.
 * 2. Control → command: `players` players (arriving 300 ms apart, then playing side by side), each on
 *    its own station, `plays` plays in a run; from a control leaving until the press (or release)
 *    reached the agent's driver. transport=socket (the default) plays as the web app: the play's
 *    state pushed on the station channel, the buttons over the socket; transport=http polls the
 *    play over HTTP every 250 ms and sends the buttons as HTTP calls (docs/performance.md, runs A–D).
 * 3. E-stop: the operator's station_machine emergency_stop, one at a time over 20 idle stations
 *    (each resumed after): from the call leaving until the driver's release of the station had run.
 *
 * Per phase it prints the server's CPU and the longest event-loop delays of both processes: a
 * server loop late by more than ~500 ms makes every agent's 1 s watchdog fire. BENCH_INCIDENTS=file
 * writes the agents' incident lines there; BENCH_SERVER_PROFILE=dir runs the server with --cpu-prof.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { AGENT_PATH } from '../src/contract/agent.schema';
import { OPERATOR_ENDPOINTS as O } from '../src/contract/operator.schema';
import { startPostgresCluster, type PostgresCluster } from '../scripts/lib/postgres-cluster';
import { AgentFleet, type DriverMark } from './agent-fleet';
import { ControlLatencies, HttpPlayer, SocketPlayer } from './agent-players';
import type { SampleAnswer, ServerAsk, SetupAnswer, SetupRequest } from './agent-server';
import { benchFailed } from './support';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const n = (name: string, fallback: number) => Number(args[name] ?? fallback);
const AGENTS = n('agents', 200);
const PLAYERS = n('players', 24);
/** How the players play: `socket` as the web app (pushes, buttons over the socket), `http` polling the HTTP API. */
const TRANSPORT = args.transport ?? 'socket';
if (TRANSPORT !== 'socket' && TRANSPORT !== 'http') throw new Error(`transport=${TRANSPORT}: socket or http`);
const PLAYS = n('plays', 11);
/** Players arrive this far apart (not all in the same millisecond). */
const ARRIVAL_MS = 300;
const ESTOPS = n('estops', 120);
const SECONDS = n('seconds', 30);
/** The server idle before any agent connects (its CPU rate the per-agent cost is reckoned from). */
const IDLE_SECONDS = n('idle', 5);
const ESTOP_STATIONS = 20;
const TOKEN = 'bench-agent-operator-token-0123456789';
if (AGENTS <= PLAYERS)
  throw new Error(`agents=${AGENTS}: more than players=${PLAYERS} (the e-stops use stations no player does)`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (xs: readonly number[], p: number) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(1));
const cpuMs = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1000;

/** The server process and a request/answer channel to it. */
class ServerChild {
  private next = 1;
  private readonly answers = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly origin: Promise<string>;

  constructor(private readonly child: ChildProcess) {
    this.origin = new Promise((resolve, reject) => {
      this.answers.set(0, { resolve: (v) => resolve((v as { origin: string }).origin), reject });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened`)));
    });
    child.on('message', (m: { id: number; value?: unknown; error?: string }) => {
      const waiting = this.answers.get(m.id);
      this.answers.delete(m.id);
      if (m.error !== undefined) waiting?.reject(new Error(m.error));
      else waiting?.resolve(m.value);
    });
  }

  private ask<T>(request: ServerAsk): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.answers.set(id, { resolve: (v) => resolve(v as T), reject });
      this.child.send({ ...request, id });
    });
  }

  setup = (setup: SetupRequest) => this.ask<SetupAnswer>({ type: 'setup', setup });
  sample = () => this.ask<SampleAnswer>({ type: 'sample' });

  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      this.child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      this.child.kill('SIGTERM');
    });
  }
}

/** The operator's e-stops: each waits for the next release at its station. */
class EStops {
  readonly latencies: number[] = [];
  private waiting = new Map<number, { at: number; done: () => void }>();

  released(mark: DriverMark): void {
    const waiting = this.waiting.get(mark.station);
    if (!waiting) return;
    this.waiting.delete(mark.station);
    this.latencies.push(mark.at - waiting.at);
    waiting.done();
  }

  async stop(origin: string, station: number): Promise<void> {
    const reached = new Promise<void>((done) => this.waiting.set(station, { at: performance.now(), done }));
    await operator(origin, { station_id: station, action: 'emergency_stop' });
    await Promise.race([
      reached,
      sleep(5_000).then(() => Promise.reject(new Error(`e-stop at ${station}: no release within 5 s`))),
    ]);
    await operator(origin, { station_id: station, action: 'resume' });
  }
}

async function operator(origin: string, body: object): Promise<void> {
  const res = await fetch(`${origin}/api/${O.stationMachine}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-authorization': `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { error_code: number };
  if (answer.error_code !== 200) throw new Error(`station_machine ${JSON.stringify(body)}: ${JSON.stringify(answer)}`);
}

/**
 * Samples the server every 500 ms, per phase: its CPU time, its event loop's longest delay, the
 * heartbeat round trips it measured; and this process's event loop (the players' and agents' side).
 */
class Phases {
  readonly rows: Record<string, Record<string, string | number>> = {};
  readonly roundTrips: number[] = [];
  private readonly benchLoop = monitorEventLoopDelay({ resolution: 10 });

  constructor(private readonly server: ServerChild) {
    this.benchLoop.enable();
  }

  /** Runs `work` as a phase named `name`, sampling while it runs. */
  async run<T>(name: string, work: () => Promise<T>, keepRoundTrips = false): Promise<T> {
    const first = await this.server.sample();
    this.benchLoop.reset();
    const t0 = performance.now();
    let serverLag = 0;
    let last = first;
    let running = true;
    const sampling = (async () => {
      while (running) {
        await sleep(500);
        last = await this.server.sample();
        serverLag = Math.max(serverLag, last.loopDelayMaxMs);
        if (keepRoundTrips) for (const rt of last.roundTrips) if (rt !== null) this.roundTrips.push(rt);
      }
    })();
    try {
      return await work();
    } finally {
      running = false;
      await sampling;
      const seconds = (performance.now() - t0) / 1000;
      this.rows[name] = {
        seconds: Number(seconds.toFixed(1)),
        'server CPU (ms/s)': Number((cpuMs(first.cpu, last.cpu) / seconds).toFixed(1)),
        'server loop delay max (ms)': Number(serverLag.toFixed(0)),
        'bench loop delay max (ms)': Number((this.benchLoop.max / 1e6).toFixed(0)),
      };
    }
  }

  cpuRate(name: string): number {
    return Number(this.rows[name]?.['server CPU (ms/s)'] ?? NaN);
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'onkure-bench-agent-'));
  const store = args.store ?? 'pglite';
  if (store !== 'pglite' && store !== 'postgres') throw new Error(`store=${store}: pglite or postgres`);
  const postgres: PostgresCluster | null = store === 'postgres' ? await startPostgresCluster() : null;
  const databaseUrl = postgres ? await postgres.createDatabase('bench_agent') : null;
  const server = new ServerChild(
    fork(new URL('./agent-server.ts', import.meta.url).pathname, [], {
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.BENCH_SERVER_PROFILE
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`]
          : []),
      ],
      env: {
        ...process.env,
        BENCH_DATA_DIR: dataDir,
        BENCH_OPERATOR_TOKEN: TOKEN,
        ...(databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : {}),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const latencies = new ControlLatencies();
  const estops = new EStops();
  let fleet: AgentFleet | null = null;
  const started = performance.now();
  const stamp = () => `[${((performance.now() - started) / 1000).toFixed(0)} s]`;
  try {
    const origin = await server.origin;
    console.log(`${stamp()} server listening at ${origin} (store: ${store})`);
    const setup = await server.setup({ stations: AGENTS, players: PLAYERS, tcEach: 1_000_000 });
    console.log(
      `${stamp()} ${setup.stations.length} stations on driver agent (${setup.seeded} of the catalogue, ` +
        `${setup.added} copies of one), ${setup.players.length} players`,
    );
    const phases = new Phases(server);

    // 1. The server idle (every station waiting for its agent), then with every agent connected.
    await phases.run('idle, no agent', () => sleep(IDLE_SECONDS * 1000));
    const agents = new AgentFleet(`${origin.replace('http', 'ws')}${AGENT_PATH}`, {
      control: (mark) => latencies.reached(mark),
      released: (mark) => estops.released(mark),
    });
    fleet = agents;
    await phases.run(`${AGENTS} agents connecting`, async () => {
      await agents.start(setup.stations);
      await sleep(2_000); // Past the connect burst (the hellos, the first states).
    });
    agents.gaps.counting = true;
    await phases.run(`${AGENTS} agents, heartbeats only`, () => sleep(SECONDS * 1000), true);
    agents.gaps.counting = false;
    console.log(`${stamp()} heartbeats measured`);

    // 2. Players at once, each on its own station.
    const Player = TRANSPORT === 'socket' ? SocketPlayer : HttpPlayer;
    const players = setup.players.map((p, i) => new Player(origin, p, setup.stations[i]!.id, latencies));
    await Promise.all(players.map((p) => p.connect()));
    const failed: string[] = [];
    const runs = await phases.run(`${PLAYERS} players playing`, () =>
      Promise.all(players.map((p, i) => sleep(i * ARRIVAL_MS).then(() => p.run(PLAYS, failed)))),
    );
    for (const p of players) p.close();
    const played = runs.reduce((sum, n) => sum + n, 0);
    const refusedReserves = players.reduce((sum, p) => sum + p.refusedReserves, 0);
    console.log(
      `${stamp()} ${played} plays by ${PLAYERS} players, ${failed.length} runs cut short, ${refusedReserves} reserves refused when lining up again`,
    );
    for (const f of failed.slice(0, 5)) console.log(`   ${f}`);

    // 3. E-stops, one at a time, on stations no player uses.
    const idleStations = setup.stations.slice(PLAYERS, PLAYERS + ESTOP_STATIONS).map((s) => s.id);
    const estopFailures: string[] = [];
    await phases.run('e-stops', async () => {
      for (let i = 0; i < ESTOPS; i += 1) {
        await estops.stop(origin, idleStations[i % idleStations.length]!).catch((e: unknown) => {
          estopFailures.push(String(e));
        });
      }
    });
    console.log(`${stamp()} ${estops.latencies.length} e-stops, ${estopFailures.length} failed`);
    for (const f of estopFailures.slice(0, 5)) console.log(`   ${f}`);

    console.table({
      'control → press at the agent': row(latencies.press),
      'control → release at the agent': row(latencies.release),
      'e-stop → outputs released': row(estops.latencies),
      'heartbeat round trip (server, whole ms)': row(phases.roundTrips),
      'gap between pings at the agent': row(agents.gaps.gaps),
    });
    console.table(phases.rows);
    const idleRate = phases.cpuRate('idle, no agent');
    const busyRate = phases.cpuRate(`${AGENTS} agents, heartbeats only`);
    const perAgent = (busyRate - idleRate) / AGENTS;
    console.log(
      `server CPU per agent with heartbeats: ${perAgent.toFixed(3)} ms/s above idle ` +
        `(${((perAgent / 1000) * 100).toFixed(3)} % of a core; ${AGENTS} agents ${busyRate.toFixed(1)} ms/s, idle ${idleRate.toFixed(1)} ms/s)`,
    );
    const incidents = agents.incidents.filter((l) => !l.includes('agent stopping'));
    console.log(`agent incidents (watchdog, closes, refusals): ${incidents.length}`);
    for (const line of incidents.slice(0, 10)) console.log(`   ${line}`);
    if (process.env.BENCH_INCIDENTS) writeFileSync(process.env.BENCH_INCIDENTS, incidents.join('\n'));
    const load = loadavg().map((x) => x.toFixed(1));
    console.log(`machine: ${cpus().length} cores, load average at the end ${load.join(' ')}`);
    console.log(
      `goals: control → press p95 ${ms(pct(latencies.press, 0.95))} ms (≤ 20), ` +
        `e-stop p95 ${ms(pct(estops.latencies, 0.95))} ms (≤ 100)`,
    );
    console.log(`${stamp()} done`);
  } finally {
    await fleet?.stop();
    await server.stop();
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function row(xs: readonly number[]) {
  return {
    n: xs.length,
    p50: ms(pct(xs, 0.5)),
    p95: ms(pct(xs, 0.95)),
    p99: ms(pct(xs, 0.99)),
    max: ms(xs.length ? Math.max(...xs) : NaN),
  };
}

void main().then(() => process.exit(0), benchFailed);
