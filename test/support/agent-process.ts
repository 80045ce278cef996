import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENT_PATH } from '../../src/contract/agent.schema';
import { StationKeys } from '../../server/agent/station-keys';
import { systemClock } from '../../server/clock';
import type { Store } from '../../server/store/store';
import type { MachineLink } from '../../src/domain';
import { ManualServerClock } from './manual-server-clock';
import { PlayDriver } from './play-driver';
import { playableStation } from './stations';
import { startTestServer, type TestServer } from './test-server';
import { createTestUser, type TestUser } from './users';

/*
 * The reference agent as its own process against the real server (docs/agent-protocol.md): the
 * server listening, one station moved to driver `agent`, a key issued for it, a machine file, and
 * agent processes spawned with `node --import tsx agent/main.ts --config …`. Time is real here (two
 * processes), so every wait is on a condition the server answers, polled with a bound — never a
 * fixed sleep.
 */

/** One agent process: its output (stderr, where it logs) and its end. */
export interface AgentProcess {
  readonly child: ChildProcess;
  /** Resolves when the process has exited (at once if it already has). */
  readonly exited: Promise<void>;
  /** What it logged so far. */
  output(): string;
  /** SIGKILL (no handler runs: the kernel closes its sockets) and waits for the exit. */
  kill(): Promise<void>;
}

export interface SpawnAgentOptions {
  readonly configPath: string;
  readonly key: string;
  /** Runs the agent inside this network namespace (`ip netns exec`, root only). */
  readonly netns?: string;
}

/** Spawns the reference agent; `ip netns exec` execs node in place, so the pid is the agent's. */
export function spawnAgent(options: SpawnAgentOptions): AgentProcess {
  const node = [process.execPath, '--import', 'tsx', 'agent/main.ts', '--config', options.configPath];
  const [command, ...args] = options.netns ? ['ip', 'netns', 'exec', options.netns, ...node] : node;
  const child = spawn(command!, args, {
    env: { ...process.env, ONKURE_AGENT_KEY: options.key },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    child,
    exited,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * The reference agent as an operator runs it in front of several instances: a key for `stationIds`
 * issued on the instances' shared store (as the console issues one), a machine file dialing
 * `server` (the load balancer's /agent, or one instance's), and the process. Kill it in afterAll.
 */
export async function spawnStationsAgent(options: {
  readonly store: Store;
  readonly server: string;
  readonly folder: string;
  readonly stationIds: readonly number[];
  /** The sim driver paints and publishes the watched cameras over WHIP. */
  readonly cameras?: boolean;
}): Promise<AgentProcess> {
  const { key } = await new StationKeys(options.store, systemClock).issue({
    name: 'cluster cabinets',
    stationIds: options.stationIds,
    by: 'test',
  });
  const configPath = path.join(options.folder, 'machines.json');
  await writeFile(
    configPath,
    JSON.stringify({
      server: `${options.server.replace(/^http/, 'ws')}${AGENT_PATH}`,
      driver: 'sim',
      ...(options.cameras ? { cameras: 'whip' } : {}),
      stations: options.stationIds.map((station_id) => ({ station_id })),
    }),
  );
  return spawnAgent({ configPath, key });
}

/**
 * Waits until one of `origins` (the instance the agent dialed) has the agent of every station in
 * `stationIds` connected and reporting (its /healthz/agents).
 */
export async function agentReporting(
  origins: readonly string[],
  stationIds: readonly number[],
  agent: AgentProcess,
  timeoutMs = 30_000,
): Promise<void> {
  const query = `/healthz/agents?stations=${stationIds.join(',')}`;
  await waitFor(
    `the stations' agent connected and reporting (${agent.output().slice(-400)})`,
    () =>
      Promise.all(
        origins.map((o) =>
          fetch(`${o}${query}`).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      ),
    (statuses) => statuses.includes(200),
    timeoutMs,
    100,
  );
}

/**
 * Polls `probe` until `accept` takes its value, at most `timeoutMs`; the value and how long it took.
 * Throws naming `what` and the last value seen when the bound passes.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
  intervalMs = 25,
): Promise<{ value: T; elapsedMs: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    const elapsedMs = Date.now() - started;
    if (accept(value)) return { value, elapsedMs };
    if (elapsedMs > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** What the store says of one play's money: the distinct charges and refunds, and their sums. */
export interface PlayMoney {
  readonly result: string | null;
  readonly phase: string;
  readonly charges: number;
  readonly refunds: number;
  readonly charged: number;
  readonly refunded: number;
}

/**
 * The real server with one station on its agent and a key for it; agents spawned here are killed
 * in `stopAgents` (call it in afterEach) and the rest in `close` (afterAll).
 */
export class AgentRig {
  private readonly agents: AgentProcess[] = [];
  private files = 0;

  private constructor(
    readonly t: TestServer,
    readonly stationId: number,
    readonly price: number,
    readonly key: string,
    readonly folder: string,
  ) {}

  static async start(): Promise<AgentRig> {
    const t = await startTestServer({ listen: true, agent: false });
    try {
      const { station_id: stationId, play_price: price } = await playableStation(t);
      const services = t.server.services();
      const { key } = await services.stationKeys.issue({ name: 'test cabinet', stationIds: [stationId], by: 'test' });
      const folder = await mkdtemp(path.join(tmpdir(), 'onkure-agent-'));
      return new AgentRig(t, stationId, price, key, folder);
    } catch (error) {
      await t.close();
      throw error;
    }
  }

  /** The server's agent address on loopback. */
  get serverUrl(): string {
    return `${this.t.origin.replace('http', 'ws')}${AGENT_PATH}`;
  }

  /** Writes a machine file for this station dialing `server` (default: the server on loopback). */
  async machineFile(server = this.serverUrl): Promise<string> {
    const file = path.join(this.folder, `machines-${++this.files}.json`);
    await writeFile(file, JSON.stringify({ server, driver: 'sim', stations: [{ station_id: this.stationId }] }));
    return file;
  }

  /** Spawns an agent for the station (on loopback unless a machine file and a namespace are given). */
  async spawnAgent(options: { configPath?: string; netns?: string } = {}): Promise<AgentProcess> {
    const configPath = options.configPath ?? (await this.machineFile());
    const agent = spawnAgent({ configPath, key: this.key, ...(options.netns ? { netns: options.netns } : {}) });
    this.agents.push(agent);
    return agent;
  }

  async stopAgents(): Promise<void> {
    await Promise.all(this.agents.splice(0).map((agent) => agent.kill()));
  }

  async close(): Promise<void> {
    await this.stopAgents();
    await this.t.close();
    await rm(this.folder, { recursive: true, force: true });
  }

  // ---- what the server answers ----------------------------------------------------------------

  /** A user with `plays` plays' worth of free TC. */
  user(plays = 10): Promise<TestUser> {
    return createTestUser(this.t, {}, { freeTc: plays * this.price });
  }

  /**
   * A player's calls on the real API, as the app makes them (its clock is never moved: time is real
   * here). Not returned from an async function: a PlayDriver is a thenable, and await would run it.
   */
  playerOf(user: TestUser): PlayDriver {
    return new PlayDriver(this.t, new ManualServerClock(), user);
  }

  connected(): boolean {
    return this.t.server.services().agents.connected(this.stationId);
  }

  /** The station room's machine link (connected, last report, fault), or null when no room runs here. */
  machine(): MachineLink | null {
    return this.t.server.services().rooms.peek('station', this.stationId)?.machine ?? null;
  }

  /** The phase of the station's turn (idle, turnOffered, resetting, playing, away, result). */
  turnPhase(): string | null {
    return this.t.server.services().rooms.peek('station', this.stationId)?.turn.phase ?? null;
  }

  async reserveStatus(player: PlayDriver): Promise<string | null> {
    await player.poll();
    return player.record?.reserve_status ?? null;
  }

  async tcOf(user: TestUser): Promise<number> {
    const [row] = await this.t.server
      .store()
      .query<{ tc: number }>('SELECT tc_free + tc_toll AS tc FROM wallets WHERE user_id = $1', [user.user_id]);
    return row!.tc;
  }

  /** A play's result and its ledger rows (a charge split over free and paid TC is one charge). */
  async money(playId: number): Promise<PlayMoney> {
    const store = this.t.server.store();
    const [play] = await store.query<{ result: string | null; phase: string }>(
      'SELECT result, phase FROM plays WHERE play_id = $1',
      [playId],
    );
    const rows = await store.query<{ reason: string; keys: number; total: number }>(
      `SELECT reason, count(DISTINCT idempotency_key)::int AS keys, sum(delta)::int AS total
         FROM tc_ledger WHERE reference = $1 GROUP BY reason`,
      [`play:${playId}`],
    );
    const of = (reason: string) => rows.find((r) => r.reason === reason);
    return {
      result: play!.result,
      phase: play!.phase,
      charges: of('play')?.keys ?? 0,
      refunds: of('refund')?.keys ?? 0,
      charged: -(of('play')?.total ?? 0),
      refunded: of('refund')?.total ?? 0,
    };
  }

  /** Every play of a user, oldest first. */
  async playsOf(user: TestUser): Promise<number[]> {
    const rows = await this.t.server
      .store()
      .query<{ play_id: number }>('SELECT play_id FROM plays WHERE user_id = $1 ORDER BY play_id', [user.user_id]);
    return rows.map((r) => r.play_id);
  }
}
