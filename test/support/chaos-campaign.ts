import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StationKeys } from '../../server/agent/station-keys';
import { systemClock } from '../../server/clock';
import { recordWonPrize } from '../../server/delivery/won-prizes';
import { SimulatedPaymentProvider } from '../../server/payment/provider/simulated-provider';
import { openPostgresStore, type PostgresStore } from '../../server/store/postgres-store';
import { Ledger } from '../../server/wallet/ledger';
import { Reconciliation, type ReconciliationReport } from '../../server/wallet/reconciliation';
import { jstIsoDate } from '../../src/domain';
import { AGENT_PATH } from '../../src/contract/agent.schema';
import { startPostgresCluster, type PostgresCluster } from '../../scripts/lib/postgres-cluster';
import { haproxyConfig, startHaproxy } from '../../scripts/lib/haproxy';
import { DELIVERY_ADDRESS, setUp, SetUpRefused } from '../../bench/support';
import { CARDS, cardFields } from './payments';
import { NetnsDelayProxy, NetnsPartition, partitionUnavailable } from './netns-partition';
import { freePort, ServerProcess } from './server-process';

/*
 * Chaos on the two-instance cluster (issue 46): a throwaway PostgreSQL, two instance processes on it
 * behind HAProxy, and loads running the whole time through the balancer — players reserving and
 * playing paid plays, purchases through the simulated provider's hosted page, delivery requests —
 * while faults are made one after the other:
 *
 *   postgres-restart  PostgreSQL stopped (immediate) and started again on the same data
 *   instance-kill     `kill -9` of the instance that leads (runs the rooms)
 *   pg-delay-loss     300 ms delay and 5 % loss between instance B and PostgreSQL
 *   partition         every packet in or out of instance B dropped for 10 s
 *
 * Instance B runs inside a network namespace (test/support/netns-partition.ts) and reaches
 * PostgreSQL over a veth pair through a TCP proxy on this machine's end (test/support/delay-proxy.ts),
 * all on this machine's own addresses. An instance that ends (docs/operations.md: one holding rooms
 * ends when its locks' connection fails) is started again by the campaign after 1 s, as a
 * supervisor would. Errors during a fault are expected: counted by call and kind, never fatal.
 *
 * After each fault the loads pause (no new play, purchase or delivery), every play under way ends,
 * the provider's callbacks are delivered, and the store is audited: no paid play lost (every
 * charged play ended with a result, or was refunded exactly once), no double charge (the sum under
 * each play's idempotency key is exactly its price), every balance the sum of its ledger rows, and
 * the day's money reconciliation (server/wallet/reconciliation.ts) empty. Recovery times are from
 * the fault's end (or the kill): the first API answer through the balancer, every player's room
 * answering again, each instance answering /healthz again.
 */

export const FAULTS = ['postgres-restart', 'instance-kill', 'pg-delay-loss', 'partition'] as const;
export type FaultName = (typeof FAULTS)[number];

export interface ChaosOptions {
  /** Players playing paid plays (one station per two players). */
  readonly players: number;
  /** Players buying TC through the provider's page, each a purchase every ~2.1 s (the limit is 30 a minute per client). */
  readonly buyers: number;
  /**
   * Free TC credited to each player at the start (through the ledger, reason debug_grant) over the
   * debug login's welcome 10,000: a long run (the soak) plays ≈ 800 TC a minute a player, so without
   * it the players run dry after ~12 minutes and every reserve is refused.
   */
  readonly playerTc: number;
  /** Delivery requests made during each fault (each by a player of its own, one prize, 8,000 TC). */
  readonly deliveries: number;
  /** Seconds of load before each fault. */
  readonly leadSeconds: number;
  /** How long PostgreSQL stays down. */
  readonly pgDownSeconds: number;
  /** How long the delay and loss last. */
  readonly impairSeconds: number;
  readonly partitionSeconds: number;
  readonly delayMs: number;
  readonly lossPercent: number;
  /** The longest wait for the plays to end and the callbacks to land before an audit. */
  readonly drainSeconds: number;
  /** The longest wait for a recovery; past it the fault's recovery is a violation (a hang). */
  readonly recoverSeconds: number;
  readonly faults: readonly FaultName[];
}

export const DEFAULT_CHAOS: ChaosOptions = {
  players: 8,
  buyers: 2,
  playerTc: 0,
  deliveries: 4,
  leadSeconds: 5,
  pgDownSeconds: 5,
  impairSeconds: 15,
  partitionSeconds: 10,
  delayMs: 300,
  lossPercent: 5,
  drainSeconds: 90,
  recoverSeconds: 120,
  faults: FAULTS,
};

/** The smallest size (npm test): `players=2 buyers=1 deliveries=1 lead=2 pgDown=1 impair=4`. */
export const SMALLEST_CHAOS: ChaosOptions = {
  ...DEFAULT_CHAOS,
  players: 2,
  buyers: 1,
  deliveries: 1,
  leadSeconds: 2,
  pgDownSeconds: 1,
  impairSeconds: 4,
};

/** key=value arguments (as the other benches take) over `base`. */
export function chaosOptionsFrom(args: readonly string[], base: ChaosOptions = DEFAULT_CHAOS): ChaosOptions {
  const given = Object.fromEntries(args.map((a) => a.split('=') as [string, string]));
  const n = (key: string, fallback: number) => {
    if (given[key] === undefined) return fallback;
    const value = Number(given[key]);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${key}=${given[key]}: not a number`);
    return value;
  };
  const known = [
    'players',
    'buyers',
    'deliveries',
    'lead',
    'pgDown',
    'impair',
    'partition',
    'delay',
    'loss',
    'drain',
    'recover',
    'faults',
    'size',
  ];
  for (const key of Object.keys(given))
    if (!known.includes(key)) throw new Error(`unknown argument ${key} (known: ${known.join(', ')})`);
  const from = given.size === 'smallest' ? SMALLEST_CHAOS : base;
  const faults = (given.faults?.split(',') ?? from.faults) as FaultName[];
  for (const f of faults) if (!FAULTS.includes(f)) throw new Error(`unknown fault ${f} (known: ${FAULTS.join(', ')})`);
  return {
    players: Math.max(1, n('players', from.players)),
    buyers: n('buyers', from.buyers),
    playerTc: from.playerTc,
    deliveries: n('deliveries', from.deliveries),
    leadSeconds: n('lead', from.leadSeconds),
    pgDownSeconds: n('pgDown', from.pgDownSeconds),
    impairSeconds: n('impair', from.impairSeconds),
    partitionSeconds: n('partition', from.partitionSeconds),
    delayMs: n('delay', from.delayMs),
    lossPercent: n('loss', from.lossPercent),
    drainSeconds: n('drain', from.drainSeconds),
    recoverSeconds: n('recover', from.recoverSeconds),
    faults,
  };
}

/** Requests of one fault's window: answered (HTTP 200, error_code 200) or failed, by call and kind. */
export class Tally {
  readonly ok = new Map<string, number>();
  readonly failed = new Map<string, number>();
  add(call: string, outcome: string): void {
    const into = outcome === 'ok' ? this.ok : this.failed;
    const key = outcome === 'ok' ? call : `${call} ${outcome}`;
    into.set(key, (into.get(key) ?? 0) + 1);
  }
  total(which: 'ok' | 'failed'): number {
    return [...this[which].values()].reduce((a, b) => a + b, 0);
  }
  describeOk(): string {
    return [...this.ok].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  }
  describeFailed(): string {
    return (
      [...this.failed]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ') || 'none'
    );
  }
}

/** What the store says after a fault (cumulative over the campaign). */
export interface ChaosAudit {
  readonly plays: number;
  readonly charges: number;
  readonly refunds: number;
  readonly results: number;
  readonly purchases: number;
  readonly deliveries: number;
  /** Charged plays that did not end with a result or a refund (ids). */
  readonly lostPlays: readonly number[];
  /** Plays whose charge is not exactly their price once (ids). */
  readonly doubleCharges: readonly number[];
  /** Refunded plays not given back exactly their price, or others given anything back (ids). */
  readonly badRefunds: readonly number[];
  /** Users whose balance is not the sum of their ledger rows (ids). */
  readonly ledgerMismatches: readonly number[];
  /** Players with more than one delivery request for one prize. */
  readonly doubleDeliveries: number;
  /** Callbacks the provider has not delivered yet. */
  readonly callbacksPending: number;
  readonly reconciliation: readonly ReconciliationReport[];
  readonly mismatches: number;
}

export interface Recovery {
  /** From the fault's end (or the kill) to the first API answer through the balancer. */
  readonly apiMs: number | null;
  /** … to every player's room answering again and every load station run by an instance. */
  readonly roomsMs: number | null;
  /** … to every played station's machine connected and reporting again (its agent, through the balancer). */
  readonly machinesMs: number | null;
  /** … to each instance answering /healthz (null: never within the bound). */
  readonly instancesMs: Readonly<Record<string, number | null>>;
}

export interface FaultReport {
  readonly fault: FaultName | 'baseline';
  /** Null: skipped, with why. */
  readonly skipped: string | null;
  /** How the fault was made (printed). */
  readonly how: string;
  readonly durationMs: number;
  readonly tally: Tally;
  /** Instances that ended and were started again by the supervisor during the window. */
  readonly restarts: number;
  readonly recovery: Recovery | null;
  /** This fault's share: plays, charges, refunds, completed purchases, deliveries made. */
  readonly delta: { plays: number; charges: number; refunds: number; purchases: number; deliveries: number };
  readonly audit: ChaosAudit | null;
  readonly violations: readonly string[];
}

/**
 * What a hook sees of the running cluster (test/support/soak-campaign.ts holds its baseline window
 * open for the soak's length, with sockets and samplers of its own beside the loads).
 */
export interface ClusterView {
  /** The balancer's origin: every player, socket and operator call goes through it. */
  readonly origin: string;
  readonly instances: readonly {
    readonly name: string;
    /** Its process id now (a restarted instance has a new one). */
    pid(): number | null;
    /** Everything it wrote to its log so far (LOG_LEVEL warn: warnings and errors). */
    log(): string;
    restarts(): number;
  }[];
  /** The stations the players play. */
  readonly playedStations: readonly number[];
  /** An open station nobody plays (its status may be flipped to time pushes). */
  readonly spareStation: number;
  /** A call with the operator token, through the balancer. */
  operator(path: string, body: object): Promise<{ status: number; json: Record<string, unknown> }>;
  /** The current window's answers, by call. */
  tally(): Tally;
  /** A fresh client address (X-Forwarded-For) for a socket or a caller of the hook's own. */
  nextIp(): string;
}

export interface CampaignHooks {
  /** Runs as the baseline window's load time instead of `leadSeconds`; the window ends when it resolves. */
  readonly baseline?: (view: ClusterView) => Promise<void>;
}

export interface ChaosReport {
  readonly options: ChaosOptions;
  readonly faults: readonly FaultReport[];
  readonly violations: readonly string[];
  readonly notes: readonly string[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Who {
  readonly user_id: number;
  readonly access_token: string;
  /** The client's address as the balancer forwards it (X-Forwarded-For): per-client limits. */
  readonly ip: string;
}

type Json = Record<string, unknown> & { error_code?: number };

/** An instance the campaign starts again when it ends, as a supervisor (systemd, Kubernetes) would. */
class Supervised {
  restarts = 0;
  /** Held down on purpose (not restarted). */
  held = false;
  private starting: Promise<void> | null = null;
  private closed = false;
  private loop: Promise<void> | null = null;
  lastError = '';

  constructor(
    readonly name: string,
    readonly proc: ServerProcess,
  ) {}

  watch(): void {
    this.loop = (async () => {
      while (!this.closed) {
        if (!this.held && !this.proc.running && !this.starting) {
          // RestartSec=1: a crash loop does not spin.
          await pause(1_000);
          if (this.closed || this.held || this.proc.running) continue;
          this.restarts += 1;
          this.starting = this.proc
            .start()
            .then(() => undefined)
            .catch((error: unknown) => {
              this.lastError = String(error).slice(0, 300);
            })
            .finally(() => {
              this.starting = null;
            });
        }
        await pause(200);
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.loop;
    await this.starting;
    await this.proc.kill('SIGKILL');
  }
}

const TOKEN = 'chaos-campaign-operator-token-0123456789';
const SECRET = 'chaos-campaign-provider-secret-'.repeat(2);

/**
 * Runs the campaign; `log` gets every line it prints (the set-up, each fault as it happens). Throws
 * SetUpRefused when a set-up call is refused; everything it started is stopped however it ends.
 */
export async function runChaosCampaign(
  options: ChaosOptions,
  log: (line: string) => void,
  hooks: CampaignHooks = {},
): Promise<ChaosReport> {
  const notes: string[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'onkure-chaos-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  let cluster: PostgresCluster | null = null;
  // A folder of its own under the temporary directory: as root the cluster runs as `postgres`,
  // which must reach it (the campaign's own folder is 0700 root's).
  const pgDir = mkdtempSync(join(tmpdir(), 'onkure-chaos-pg-'));
  cleanups.push(() => rmSync(pgDir, { recursive: true, force: true }));
  // On an abrupt end of the process (an uncaught error in a bench), what a `finally` cannot reach.
  // The quick steps first, each on its own (one failing must not leave the rest): a second signal
  // or a kill from outside may end this process before the slow one, PostgreSQL's stop.
  const onExit = () => {
    for (const step of [
      () => haproxyChild?.kill('SIGKILL'),
      () => agentKill?.(),
      () => proxyKill?.(),
      () => net?.destroy(),
      () => cluster?.stopNow(),
      // After PostgreSQL has stopped (stopNow waits for pg_ctl): its folder and ours.
      () => rmSync(pgDir, { recursive: true, force: true }),
      () => rmSync(dir, { recursive: true, force: true }),
    ])
      try {
        step();
      } catch {
        // the next step still runs
      }
  };
  let net: NetnsPartition | null = null;
  let proxyKill: (() => void) | null = null;
  let agentKill: (() => void) | null = null;
  let haproxyChild: { kill(signal: NodeJS.Signals): void } | null = null;
  process.once('exit', onExit);
  cleanups.push(() => void process.removeListener('exit', onExit));

  try {
    const unavailable = partitionUnavailable();
    if (unavailable) notes.push(`instance B runs on loopback, no network namespace: ${unavailable}`);
    else {
      net = NetnsPartition.create();
      cleanups.push(() => net?.destroy());
    }
    // PostgreSQL in a folder of ours that outlives a stop (the restart fault starts it again there),
    // listening on the veth's end too for instance B.
    const pgOptions = {
      dir: pgDir,
      ...(net ? { listen: [net.hostAddress], trustNetworks: [`${net.nsAddress}/32`] } : {}),
    };
    cluster = await startPostgresCluster(pgOptions);
    const pgPort = cluster.port;
    cleanups.push(async () => {
      await cluster?.stop();
    });
    const url = await cluster.createDatabase('chaos');
    const dbName = 'chaos';
    // B reaches PostgreSQL through a delay proxy inside its namespace (on its loopback), whose own
    // connections cross the veth: a partition cuts them, and PostgreSQL's keepalives see it.
    let proxy: NetnsDelayProxy | null = null;
    if (net) {
      proxy = await NetnsDelayProxy.start(net.netns, { host: net.hostAddress, port: pgPort });
      proxyKill = () => proxy?.killNow();
      cleanups.push(async () => proxy?.close());
    }
    const hostA = net?.hostAddress ?? '127.0.0.1';
    const hostB = net?.nsAddress ?? '127.0.0.1';
    const common = {
      ONKURE_OPERATOR_TOKEN: TOKEN,
      PAYMENT_PROVIDER_SECRET: SECRET,
      TRUST_PROXY: 'loopback 10.231.0.0/16',
      LOG_LEVEL: 'warn',
    };
    const portA = await freePort();
    const portB = await freePort();
    const a = new Supervised(
      'A',
      new ServerProcess(
        portA,
        ':memory:',
        { ...common, DATABASE_URL: url, HOST: hostA, INSTANCE_URL: `http://${hostA}:${portA}`, INSTANCE_ID: 'A' },
        undefined,
        { host: hostA },
      ),
    );
    const urlB = proxy ? `postgres://onkure@127.0.0.1:${proxy.port}/${dbName}` : url;
    const b = new Supervised(
      'B',
      new ServerProcess(
        portB,
        ':memory:',
        { ...common, DATABASE_URL: urlB, HOST: hostB, INSTANCE_URL: `http://${hostB}:${portB}`, INSTANCE_ID: 'B' },
        undefined,
        net ? { host: hostB, netns: net.netns } : { host: hostB },
      ),
    );
    const instances = [a, b];
    cleanups.push(async () => {
      for (const i of instances) await i.close();
    });
    await a.proc.start();
    await b.proc.start();
    for (const i of instances) i.watch();

    const lbPort = await freePort();
    const lb = await startHaproxy(
      join(dir, 'haproxy.cfg'),
      haproxyConfig({
        port: lbPort,
        upstreams: [
          { name: 'a', host: hostA, port: portA },
          { name: 'b', host: hostB, port: portB },
        ],
      }),
      lbPort,
    );
    haproxyChild = lb.process;
    cleanups.push(() => lb.stop());
    const origin = `http://127.0.0.1:${lbPort}`;
    log(
      `cluster: PostgreSQL on 127.0.0.1:${pgPort}; A on ${hostA}:${portA}; B on ${hostB}:${portB}${net ? ` (namespace ${net.netns}, PostgreSQL through a delay proxy on the namespace's 127.0.0.1:${proxy!.port}, then the veth to ${net.hostAddress}:${pgPort})` : ''}; HAProxy on 127.0.0.1:${lbPort}`,
    );

    /** A short-lived connection of the campaign's own (PostgreSQL restarts under it). */
    const withStore = async <T>(work: (s: PostgresStore) => Promise<T>): Promise<T> => {
      const store = await openPostgresStore(url, { poolSize: 2, applicationName: 'chaos-audit' });
      try {
        return await work(store);
      } finally {
        await store.close();
      }
    };

    // ---- The calls: every answer counted in the current window's tally.
    let tally = new Tally();
    let ips = 0;
    const nextIp = () => {
      ips += 1;
      return `10.77.${Math.floor(ips / 250)}.${(ips % 250) + 1}`;
    };
    const send = async (
      path: string,
      who: Who | null,
      body: object,
      extraHeaders: Record<string, string> = {},
      timeoutMs = 5_000,
    ): Promise<{ status: number; json: Json | null; outcome: string }> => {
      try {
        const res = await fetch(`${origin}/api/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': who?.ip ?? '10.77.255.1', ...extraHeaders },
          body: JSON.stringify(who ? { user_id: who.user_id, access_token: who.access_token, ...body } : body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.text();
        let json: Json | null = null;
        try {
          json = JSON.parse(text) as Json;
        } catch {
          // the balancer's own page
        }
        const code = json?.error_code;
        const outcome =
          res.status === 200 && (code === undefined || code === 200)
            ? 'ok'
            : json === null
              ? `http ${res.status} (not the service's)`
              : `${res.status}/${String(code)}`;
        return { status: res.status, json, outcome };
      } catch (error) {
        const name = (error as Error).name;
        return { status: 0, json: null, outcome: name === 'TimeoutError' ? 'timeout' : 'network' };
      }
    };
    const call = async (kind: string, path: string, who: Who | null, body: object = {}) => {
      const answer = await send(path, who, body);
      tally.add(kind, answer.outcome);
      return answer;
    };
    const login = async (name: string): Promise<Who> => {
      const ip = nextIp();
      const body = await setUp(
        send('auth/debug_login', null, { name }, { 'x-forwarded-for': ip }).then((a) => ({
          status: a.status,
          json: a.json ?? { error_code: 0, body: 'not JSON' },
        })),
        `debug login of ${name}`,
      );
      return { user_id: body.user_id as number, access_token: body.access_token as string, ip };
    };

    // ---- Set-up: stations open and stocked, players signed in.
    const spreadOver = async () => {
      const of = (i: Supervised): Promise<number[]> =>
        fetch(`${i.proc.origin}/healthz/stations`, { signal: AbortSignal.timeout(1_000) })
          .then(async (r) => (r.ok ? ((await r.json()) as { stations: number[] }).stations : []))
          .catch(() => []);
      return { a: await of(a), b: await of(b) };
    };
    // The stations spread over both instances before the load picks its own from each.
    for (let i = 0; (await spreadOver()).b.length === 0; i += 1) {
      if (i > 150) throw new Error('the stations did not spread over both instances in 30 s');
      await pause(200);
    }
    const normal = new Set(
      await withStore((s) =>
        s
          .query<{ station_id: number }>(
            `SELECT station_id FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND shop_id = 1 ORDER BY station_id`,
          )
          .then((rows) => rows.map((r) => r.station_id)),
      ),
    );
    const spread = await spreadOver();
    const stationCount = Math.max(1, Math.ceil(options.players / 2));
    const fromA = spread.a.filter((s) => normal.has(s));
    const fromB = spread.b.filter((s) => normal.has(s));
    const stations: number[] = [];
    for (let i = 0; stations.length < stationCount && (i < fromA.length || i < fromB.length); i += 1) {
      if (i < fromB.length && stations.length < stationCount) stations.push(fromB[i]!);
      if (i < fromA.length && stations.length < stationCount) stations.push(fromA[i]!);
    }
    if (stations.length < stationCount) throw new Error(`only ${stations.length} normal stations to play`);
    const operator = (path: string, body: object) =>
      send(`operator/${path}`, null, body, { 'x-operator-authorization': `Bearer ${TOKEN}` }).then((a) => ({
        status: a.status,
        json: a.json ?? { error_code: 0 },
      }));
    for (const station_id of stations) {
      await setUp(operator('station_status', { station_id, station_status: 'open' }), `opening station ${station_id}`);
      await setUp(operator('restock', { station_id, stock: 9_999 }), `restocking station ${station_id}`);
    }
    // The cabinets' agent (the reference agent, driver sim) dials the balancer, as a floor's agent
    // behind NAT dials the service's one address; a station offers its turn once its machine reports.
    const { key } = await withStore((s) =>
      new StationKeys(s, systemClock).issue({ name: 'chaos cabinets', stationIds: stations, by: 'chaos' }),
    );
    const machineFile = join(dir, 'machines.json');
    writeFileSync(
      machineFile,
      JSON.stringify({
        server: `${origin.replace(/^http/, 'ws')}${AGENT_PATH}`,
        driver: 'sim',
        stations: stations.map((station_id) => ({ station_id })),
      }),
    );
    const agent = spawn(process.execPath, ['--import', 'tsx', 'agent/main.ts', '--config', machineFile], {
      env: { ...process.env, ONKURE_AGENT_KEY: key },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let agentLog = '';
    agent.stderr!.on('data', (d: Buffer) => (agentLog = (agentLog + d.toString()).slice(-4_000)));
    agentKill = () => agent.kill('SIGKILL');
    cleanups.push(async () => {
      if (agent.exitCode !== null || agent.signalCode !== null) return;
      const exited = new Promise((resolve) => agent.once('exit', resolve));
      agent.kill('SIGKILL');
      await exited;
    });
    const machinesUp = async () => {
      for (const i of instances) {
        const r = await fetch(`${i.proc.origin}/healthz/agents?stations=${stations.join(',')}`, {
          signal: AbortSignal.timeout(1_000),
        }).catch(() => null);
        if (r?.status === 200) return true;
      }
      return false;
    };
    for (let i = 0; !(await machinesUp()); i += 1) {
      if (i > 150 || agent.exitCode !== null) throw new Error(`the stations' agent did not report: ${agentLog}`);
      await pause(200);
    }

    const players = await Promise.all(
      Array.from({ length: options.players }, async (_, i) => ({
        who: await login(`cp${i}`),
        station: stations[i % stations.length]!,
      })),
    );
    const buyers = await Promise.all(Array.from({ length: options.buyers }, (_, i) => login(`cb${i}`)));
    const probe = await login('cprobe');
    await withStore((s) =>
      s.query(`UPDATE users SET birth = '1990-01-01' WHERE user_id = ANY($1::int[])`, [
        [...buyers, ...players.map((p) => p.who)].map((w) => w.user_id),
      ]),
    );
    if (options.playerTc > 0)
      await withStore(async (s) => {
        const ledger = new Ledger(s, systemClock);
        for (const p of players)
          await ledger.credit(p.who.user_id, 'free', {
            amount: options.playerTc,
            reason: 'debug_grant',
            reference: 'chaos-load',
            idempotencyKey: 'chaos-load-grant',
          });
      });
    const loadUsers = new Set([...players.map((p) => p.who.user_id)]);
    log(
      `load: ${players.length} players on stations ${stations.join(', ')} (A runs ${spread.a.length}, B ${spread.b.length}); ${buyers.length} buyers; ${options.deliveries} deliveries per fault`,
    );

    // ---- The loads.
    let draining = false;
    let stopped = false;
    // However the campaign ends (a hook that throws too), the loads stop with it: they must not go on
    // calling a balancer's port that the next test may be given.
    cleanups.push(() => {
      stopped = true;
    });
    /** Per player: the moment of the first `current` answered after the mark (rooms' recovery). */
    const roomAnswered = new Map<number, number>();
    let roomMark = Number.POSITIVE_INFINITY;
    const inPlay = new Set<number>();
    const playerLoop = async (p: { who: Who; station: number }) => {
      const dropped = new Set<number>();
      while (!stopped) {
        const asked = Date.now();
        const cur = await call('current', 'v2/play/current', p.who);
        if (cur.outcome !== 'ok') {
          await pause(250);
          continue;
        }
        if (asked >= roomMark && !roomAnswered.has(p.who.user_id)) roomAnswered.set(p.who.user_id, Date.now());
        const play = cur.json!.play as { play_id: number; phase: string; grace_ms_left: number | null } | null;
        if (play && play.phase !== 'ended') {
          inPlay.add(p.who.user_id);
          if (play.phase === 'result') await call('finish', 'v2/play/finish', p.who, { play_id: play.play_id });
          else if (play.phase === 'playing' && !dropped.has(play.play_id)) {
            // Both buttons at once: the claw drops where it is.
            let all = true;
            for (const button of ['right', 'back'])
              for (const command of ['press', 'release']) {
                const c = await call('control', 'v2/play/control', p.who, { play_id: play.play_id, button, command });
                all &&= c.outcome === 'ok' || c.status === 409;
              }
            if (all) dropped.add(play.play_id);
          }
          await pause(150);
          continue;
        }
        inPlay.delete(p.who.user_id);
        if (draining) {
          await pause(200);
          continue;
        }
        const rec = await call('get_reserve', 'v2/play/get_reserve', p.who, { station_id: p.station });
        const status = (rec.json?.reserve_info as { reserve_status?: string | null } | undefined)?.reserve_status;
        if (rec.outcome !== 'ok') await pause(250);
        else if (status === 'playTransition') {
          const c = await call('confirm', 'v2/play/confirm', p.who, { station_id: p.station });
          if (c.outcome === 'ok') inPlay.add(p.who.user_id);
        } else if (status === 'reserve' || status === 'playWaiting') await pause(200);
        else await call('reserve', 'v2/play/reserve', p.who, { station_id: p.station });
        await pause(100);
      }
    };
    const buyerLoop = async (who: Who) => {
      while (!stopped) {
        const started = Date.now();
        if (!draining) {
          const opened = await call('purchase', 'purchase/tc', who, {
            purchase: { product_id: 2, pay_method: 'credit_card' },
          });
          const payUrl = (opened.json?.settlement as { payment_url?: string } | undefined)?.payment_url;
          // The card form, sent again (as a player reloads the page) when its answer did not come.
          for (let attempt = 0; payUrl && attempt < 3; attempt += 1) {
            const outcome = await fetch(`${origin}${payUrl}/card`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': who.ip },
              body: new URLSearchParams(cardFields(CARDS.ok)),
              redirect: 'manual',
              signal: AbortSignal.timeout(5_000),
            }).then(
              async (r) => {
                await r.arrayBuffer();
                return r.status === 303 ? 'ok' : `http ${r.status}`;
              },
              (e: Error) => (e.name === 'TimeoutError' ? 'timeout' : 'network'),
            );
            tally.add('card', outcome);
            if (outcome === 'ok' || outcome.startsWith('http 4')) break;
            await pause(300);
          }
        }
        // At most 30 purchases a minute per client (server/http/rate-limit.ts).
        await pause(Math.max(200, started + 2_100 - Date.now()));
      }
    };
    const deliverersPending = new Set<number>();
    /** Delivery requests given up unanswered in the current window. */
    let unanswered = 0;
    /** A player with one crane prize, an address, no free-delivery ticket and 10,000 TC: one request of 8,000 TC. */
    const prepareDeliverers = async (label: string) => {
      const list = await Promise.all(Array.from({ length: options.deliveries }, (_, i) => login(`cd${label}x${i}`)));
      const prepared: { who: Who; addressId: number; prize: number; requestId: string }[] = [];
      for (const who of list) {
        const answer = await setUp(
          send('account/address/register', who, { address: DELIVERY_ADDRESS }).then((x) => ({
            status: x.status,
            json: x.json ?? { error_code: 0 },
          })),
          `address/register of player ${who.user_id}`,
        );
        const prize = await withStore(async (s) => {
          await s.query(
            "INSERT INTO delivery_tickets (user_id, week_start, granted_at, used_at) VALUES ($1, date_trunc('week', now() + interval '9 hours') - interval '9 hours', now(), now())",
            [who.user_id],
          );
          return recordWonPrize(
            s,
            { userId: who.user_id, stationId: null, prizeKind: 'crane', productName: 'ねこまる クッション' },
            30,
            new Date(),
          );
        });
        prepared.push({
          who,
          addressId: (answer.address as { id: number }).id,
          prize,
          requestId: `chaos-${label}-${who.user_id}`,
        });
      }
      return prepared;
    };
    /** Each deliverer asks once, spread over `spreadMs`, and asks again (same request id) until answered. */
    const runDeliverers = (prepared: Awaited<ReturnType<typeof prepareDeliverers>>, spreadMs: number) =>
      prepared.map(async (d, i) => {
        deliverersPending.add(d.who.user_id);
        // Past this the request counts as never answered (a violation), so a dead service cannot hang the campaign.
        const giveUpAt = Date.now() + spreadMs + options.recoverSeconds * 1_000 + 60_000;
        await pause((spreadMs * i) / Math.max(1, prepared.length));
        for (;;) {
          if (stopped || Date.now() > giveUpAt) {
            tally.add('delivery', 'never answered');
            unanswered += 1;
            break;
          }
          const answer = await call('delivery', 'delivery/request', d.who, {
            delivery_request: { request_id: d.requestId, play_history_ids: [d.prize], address_id: d.addressId },
          });
          // Answered, or refused by the service itself (an answer of its own below 500): done either way.
          if (answer.outcome === 'ok' || (answer.json !== null && answer.status < 500)) break;
          await pause(300);
        }
        deliverersPending.delete(d.who.user_id);
      });

    // ---- Recovery.
    const healthy = (i: Supervised) =>
      fetch(`${i.proc.origin}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => r.status === 200,
        () => false,
      );
    const measureRecovery = async (since: number): Promise<Recovery> => {
      const bound = since + options.recoverSeconds * 1_000;
      roomAnswered.clear();
      roomMark = since;
      const api = (async () => {
        for (; Date.now() < bound; await pause(100)) {
          const x = await send('user/tc', probe, {}, {}, 2_000);
          if (x.outcome === 'ok') return Date.now() - since;
        }
        return null;
      })();
      const instance = (i: Supervised) =>
        (async () => {
          for (; Date.now() < bound; await pause(100)) if (await healthy(i)) return Date.now() - since;
          return null;
        })();
      const rooms = (async () => {
        for (; Date.now() < bound; await pause(100)) {
          const spreadNow = await spreadOver();
          const run = new Set([...spreadNow.a, ...spreadNow.b]);
          if (stations.every((s) => run.has(s)) && players.every((p) => roomAnswered.has(p.who.user_id)))
            return Math.max(...players.map((p) => roomAnswered.get(p.who.user_id)!)) - since;
        }
        return null;
      })();
      const machines = (async () => {
        for (; Date.now() < bound; await pause(100)) if (await machinesUp()) return Date.now() - since;
        return null;
      })();
      const [apiMs, roomsMs, machinesMs, msA, msB] = await Promise.all([
        api,
        rooms,
        machines,
        instance(a),
        instance(b),
      ]);
      roomMark = Number.POSITIVE_INFINITY;
      return { apiMs, roomsMs, machinesMs, instancesMs: { A: msA, B: msB } };
    };

    // ---- The audit, from the store.
    const startedDay = jstIsoDate(Date.now());
    let last = { plays: 0, charges: 0, refunds: 0, purchases: 0, deliveries: 0 };
    const audit = async (): Promise<ChaosAudit> =>
      withStore(async (s) => {
        const ids = [...loadUsers];
        const plays = await s.query<{ play_id: number; price: number; phase: string; result: string | null }>(
          'SELECT play_id, price, phase, result FROM plays WHERE user_id = ANY($1::int[]) ORDER BY play_id',
          [ids],
        );
        const rows = await s.query<{ key: string; reason: string; sum: number; n: number }>(
          `SELECT idempotency_key AS key, reason, sum(delta)::int AS sum, count(*)::int AS n FROM tc_ledger
            WHERE user_id = ANY($1::int[]) AND reason IN ('play', 'refund') GROUP BY idempotency_key, reason`,
          [ids],
        );
        const byKey = new Map(rows.map((r) => [r.key, r]));
        const lostPlays: number[] = [];
        const doubleCharges: number[] = [];
        const badRefunds: number[] = [];
        for (const p of plays) {
          if (p.phase !== 'ended' || p.result === null) lostPlays.push(p.play_id);
          if ((byKey.get(`play:${p.play_id}`)?.sum ?? 0) !== -p.price) doubleCharges.push(p.play_id);
          const refunded = byKey.get(`refund:play:${p.play_id}`)?.sum ?? 0;
          if (p.result === 'refunded' ? refunded !== p.price : refunded !== 0) badRefunds.push(p.play_id);
        }
        const ledger = await s.query<{ user_id: number }>(
          `SELECT w.user_id FROM wallets w
             LEFT JOIN (SELECT user_id, coalesce(sum(delta) FILTER (WHERE kind = 'free'), 0)::int AS free,
                               coalesce(sum(delta) FILTER (WHERE kind = 'toll'), 0)::int AS toll
                          FROM tc_ledger GROUP BY user_id) l ON l.user_id = w.user_id
             LEFT JOIN (SELECT user_id, coalesce(sum(delta), 0)::int AS ticket FROM ticket_ledger GROUP BY user_id) t ON t.user_id = w.user_id
            WHERE w.tc_free <> coalesce(l.free, 0) OR w.tc_toll <> coalesce(l.toll, 0) OR w.ticket <> coalesce(t.ticket, 0)`,
        );
        const [deliveries] = await s.query<{ requests: number; doubles: number }>(
          `SELECT count(DISTINCT d.delivery_id)::int AS requests,
                  (SELECT count(*)::int FROM (SELECT i.play_history_id FROM delivery_request_items i GROUP BY i.play_history_id HAVING count(*) > 1) x) AS doubles
             FROM delivery_requests d`,
        );
        const [purchases] = await s.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM product_settlements WHERE status = 'completed'",
        );
        const [pending] = await s.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM provider_callbacks WHERE delivered_at IS NULL',
        );
        const provider = new SimulatedPaymentProvider(s, systemClock, SECRET);
        const reconciliation: ReconciliationReport[] = [];
        for (const day of new Set([startedDay, jstIsoDate(Date.now())]))
          reconciliation.push(await new Reconciliation(s, systemClock, provider, () => undefined).report(day));
        return {
          plays: plays.length,
          charges: rows.filter((r) => r.reason === 'play').length,
          refunds: rows.filter((r) => r.reason === 'refund').length,
          results: plays.filter((p) => p.result === 'win' || p.result === 'miss').length,
          purchases: purchases!.n,
          deliveries: deliveries!.requests,
          lostPlays,
          doubleCharges,
          badRefunds,
          ledgerMismatches: ledger.map((r) => r.user_id),
          doubleDeliveries: deliveries!.doubles,
          callbacksPending: pending!.n,
          reconciliation,
          mismatches: reconciliation.reduce((n, r) => n + r.mismatches.length, 0),
        };
      });
    /** Loads paused: every play ends, every delivery answered, every callback delivered (bounded). */
    const drain = async (): Promise<string | null> => {
      draining = true;
      const bound = Date.now() + options.drainSeconds * 1_000;
      let why = '';
      for (;;) {
        const open = await withStore((s) =>
          s.query<{ plays: number; callbacks: number }>(
            `SELECT (SELECT count(*)::int FROM plays WHERE user_id = ANY($1::int[]) AND phase <> 'ended') AS plays,
                    (SELECT count(*)::int FROM provider_callbacks WHERE delivered_at IS NULL) AS callbacks`,
            [[...loadUsers]],
          ),
        ).catch((e: unknown) => [{ plays: -1, callbacks: -1, error: String(e) }]);
        const o = open[0]!;
        why = `${o.plays} plays under way, ${o.callbacks} callbacks undelivered, ${deliverersPending.size} deliveries unanswered, ${inPlay.size} players in a play`;
        if (o.plays === 0 && o.callbacks === 0 && deliverersPending.size === 0 && inPlay.size === 0) return null;
        if (Date.now() > bound) return `not drained within ${options.drainSeconds} s: ${why}`;
        await pause(250);
      }
    };

    const loops = [...players.map(playerLoop), ...buyers.map(buyerLoop)];
    const spareStation = [...spread.a, ...spread.b].find((st) => !stations.includes(st));
    const view = (): ClusterView => {
      if (spareStation === undefined) throw new Error('no station is left unplayed for the hook');
      return {
        origin,
        instances: instances.map((i) => ({
          name: i.name,
          pid: () => i.proc.pid,
          log: () => i.proc.log,
          restarts: () => i.restarts,
        })),
        playedStations: stations,
        spareStation,
        operator,
        tally: () => tally,
        nextIp,
      };
    };
    const reports: FaultReport[] = [];
    const violationsOf = (audit: ChaosAudit, recovery: Recovery | null, drained: string | null): string[] => {
      const v: string[] = [];
      if (drained) v.push(drained);
      if (unanswered) v.push(`${unanswered} delivery requests never answered`);
      if (audit.lostPlays.length) v.push(`lost paid plays: ${audit.lostPlays.join(', ')}`);
      if (audit.doubleCharges.length) v.push(`plays not charged exactly once: ${audit.doubleCharges.join(', ')}`);
      if (audit.badRefunds.length) v.push(`plays refunded wrongly: ${audit.badRefunds.join(', ')}`);
      if (audit.ledgerMismatches.length)
        v.push(`balances not the sum of their ledger rows: users ${audit.ledgerMismatches.join(', ')}`);
      if (audit.doubleDeliveries) v.push(`${audit.doubleDeliveries} prizes in more than one delivery request`);
      if (audit.mismatches)
        v.push(
          `reconciliation: ${audit.reconciliation
            .flatMap((r) =>
              r.mismatches.map((m) => `${r.day} ${m.kind} ${m.reference} expected ${m.expected} found ${m.found}`),
            )
            .join('; ')}`,
        );
      if (recovery) {
        if (recovery.apiMs === null) v.push(`no API answer within ${options.recoverSeconds} s`);
        if (recovery.roomsMs === null) v.push(`rooms not answering within ${options.recoverSeconds} s`);
        if (recovery.machinesMs === null) v.push(`machines not reporting within ${options.recoverSeconds} s`);
        for (const [name, ms] of Object.entries(recovery.instancesMs))
          if (ms === null) v.push(`instance ${name} not back within ${options.recoverSeconds} s`);
      }
      return v;
    };

    /** One window: load for the lead, the fault, its recovery, the drain and the audit. */
    const window = async (
      fault: FaultReport['fault'],
      make: (() => Promise<{ endedAt: number; how: string }>) | null,
      skipped: string | null,
    ) => {
      if (skipped) {
        log(`${fault}: SKIPPED — ${skipped}`);
        reports.push({
          fault,
          skipped,
          how: '',
          durationMs: 0,
          tally: new Tally(),
          restarts: 0,
          recovery: null,
          delta: { plays: 0, charges: 0, refunds: 0, purchases: 0, deliveries: 0 },
          audit: null,
          violations: [],
        });
        return;
      }
      tally = new Tally();
      unanswered = 0;
      const restarts0 = a.restarts + b.restarts;
      const deliverers = options.deliveries > 0 ? await prepareDeliverers(String(reports.length)) : [];
      draining = false;
      const started = Date.now();
      const delivering = runDeliverers(deliverers, options.leadSeconds * 1_000 + 2_000);
      if (fault === 'baseline' && hooks.baseline) await hooks.baseline(view());
      else await pause(options.leadSeconds * 1_000);
      let recovery: Recovery | null = null;
      let how = 'no fault (the loads alone)';
      let durationMs = Date.now() - started;
      if (make) {
        const before = await spreadOver();
        const on = (list: number[]) => stations.filter((st) => list.includes(st)).length;
        const faultAt = Date.now();
        const made = await make();
        // Where they run once the fault has ended (a partitioned instance's stations taken over by the other?).
        const after = await spreadOver();
        how = `${made.how} (played stations at the start: ${on(before.a)} on A, ${on(before.b)} on B; at its end: ${on(after.a)} on A, ${on(after.b)} on B)`;
        durationMs = made.endedAt - faultAt;
        log(`${fault}: ${how}; ended after ${durationMs} ms, measuring recovery`);
        recovery = await measureRecovery(made.endedAt);
      }
      await Promise.all(delivering);
      const drained = await drain();
      const result = await audit();
      const delta = {
        plays: result.plays - last.plays,
        charges: result.charges - last.charges,
        refunds: result.refunds - last.refunds,
        purchases: result.purchases - last.purchases,
        deliveries: result.deliveries - last.deliveries,
      };
      last = { ...result };
      const report: FaultReport = {
        fault,
        skipped: null,
        how,
        durationMs,
        tally,
        restarts: a.restarts + b.restarts - restarts0,
        recovery,
        delta,
        audit: result,
        violations: violationsOf(result, recovery, drained),
      };
      reports.push(report);
      log(formatFault(report));
    };

    /** The instance running most of the load's stations (their plays under way move to the other). */
    const busiest = async (): Promise<Supervised> => {
      const now = await spreadOver();
      const countOf = (list: number[]) => stations.filter((st) => list.includes(st)).length;
      return countOf(now.b) > countOf(now.a) ? b : a;
    };
    const bothUp = async () => {
      for (const bound = Date.now() + options.recoverSeconds * 1_000; ; await pause(200)) {
        if ((await healthy(a)) && (await healthy(b))) return;
        if (Date.now() > bound) throw new Error(`the instances are not both up: A ${a.lastError} B ${b.lastError}`);
      }
    };

    await window('baseline', null, null);
    for (const fault of options.faults) {
      await bothUp();
      if (fault === 'postgres-restart')
        await window(
          fault,
          async () => {
            await cluster!.stop();
            await pause(options.pgDownSeconds * 1_000);
            cluster = await startPostgresCluster({ ...pgOptions, port: pgPort });
            return {
              endedAt: Date.now(),
              how: `PostgreSQL stopped (immediate), down ${options.pgDownSeconds} s, started again on its data`,
            };
          },
          null,
        );
      else if (fault === 'instance-kill')
        await window(
          fault,
          async () => {
            // With B in its namespace, A is killed: B takes every played station over (a busy station
            // stays where it runs when A comes back), so the network faults after this hit B's plays.
            const victim = net ? a : await busiest();
            await victim.proc.kill('SIGKILL');
            return {
              endedAt: Date.now(),
              how: `kill -9 of instance ${victim.name}, started again by the supervisor after 1 s`,
            };
          },
          null,
        );
      else if (fault === 'pg-delay-loss')
        await window(
          fault,
          async () => {
            const made = net!.impair({ delayMs: options.delayMs, lossPercent: options.lossPercent, port: pgPort });
            if (!made.delayed) await proxy!.setDelay(options.delayMs);
            await pause(options.impairSeconds * 1_000);
            net!.clearImpairment();
            await proxy!.setDelay(0);
            return {
              endedAt: Date.now(),
              how:
                made.mechanism === 'netem'
                  ? `tc netem delay ${options.delayMs}ms loss ${options.lossPercent}% on B's link, ${options.impairSeconds} s`
                  : `B ↔ PostgreSQL ${options.impairSeconds} s: ${options.lossPercent} % of packets dropped each way (nftables; no sch_netem in this kernel for tc netem), ${options.delayMs} ms per chunk each way (TCP proxy)`,
            };
          },
          net ? null : (unavailable ?? 'no network namespace'),
        );
      else if (fault === 'partition')
        await window(
          fault,
          async () => {
            net!.partition();
            await pause(options.partitionSeconds * 1_000);
            net!.heal();
            return {
              endedAt: Date.now(),
              how: `every packet of B dropped both ways for ${options.partitionSeconds} s (nftables)`,
            };
          },
          net ? null : (unavailable ?? 'no network namespace'),
        );
    }
    stopped = true;
    await Promise.all(loops);
    const violations = reports.flatMap((r) => r.violations.map((v) => `${r.fault}: ${v}`));
    if (violations.length) {
      for (const i of instances)
        notes.push(`instance ${i.name}'s last log lines:\n${i.proc.log.split('\n').slice(-15).join('\n')}`);
    }
    return { options, faults: reports, violations, notes };
  } finally {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log(`cleanup failed: ${String(error)}`);
      }
    }
  }
}

const ms = (x: number | null | undefined) => (x === null || x === undefined ? '—' : String(x));

/** One fault's lines: what was made, the counts, the recovery and the audit. */
export function formatFault(r: FaultReport): string {
  if (r.skipped) return `${r.fault}: SKIPPED — ${r.skipped}`;
  const lines = [
    `${r.fault}: ${r.how}`,
    `  duration ${r.durationMs} ms; requests ok ${r.tally.total('ok')}, failed ${r.tally.total('failed')}; instances restarted ${r.restarts}`,
    `  ok by call: ${r.tally.describeOk()}`,
    `  failed by kind: ${r.tally.describeFailed()}`,
    `  plays ${r.delta.plays}, charges ${r.delta.charges}, refunds ${r.delta.refunds}, purchases completed ${r.delta.purchases}, deliveries ${r.delta.deliveries}`,
  ];
  if (r.recovery)
    lines.push(
      `  recovery: API ${ms(r.recovery.apiMs)} ms, rooms ${ms(r.recovery.roomsMs)} ms, machines ${ms(r.recovery.machinesMs)} ms, instance A ${ms(r.recovery.instancesMs.A)} ms, B ${ms(r.recovery.instancesMs.B)} ms`,
    );
  if (r.audit)
    lines.push(
      `  audit: lost ${r.audit.lostPlays.length}, double charges ${r.audit.doubleCharges.length}, bad refunds ${r.audit.badRefunds.length}, ledger mismatches ${r.audit.ledgerMismatches.length}, callbacks pending ${r.audit.callbacksPending}, reconciliation mismatches ${r.audit.mismatches}`,
    );
  for (const v of r.violations) lines.push(`  VIOLATION: ${v}`);
  return lines.join('\n');
}

/** The table of every fault and the verdict line. */
export function formatChaosReport(report: ChaosReport): string {
  const rows = report.faults.map((r) => ({
    fault: r.fault,
    s: r.skipped ? 'skipped' : (r.durationMs / 1000).toFixed(1),
    ok: r.skipped ? '' : r.tally.total('ok'),
    failed: r.skipped ? '' : r.tally.total('failed'),
    plays: r.skipped ? '' : r.delta.plays,
    charges: r.skipped ? '' : r.delta.charges,
    refunds: r.skipped ? '' : r.delta.refunds,
    purchases: r.skipped ? '' : r.delta.purchases,
    deliveries: r.skipped ? '' : r.delta.deliveries,
    'API ms': ms(r.recovery?.apiMs),
    'rooms ms': ms(r.recovery?.roomsMs),
    'machines ms': ms(r.recovery?.machinesMs),
    'A ms': ms(r.recovery?.instancesMs.A),
    'B ms': ms(r.recovery?.instancesMs.B),
    restarts: r.skipped ? '' : r.restarts,
    violations: r.skipped ? '' : r.violations.length,
  }));
  const header = Object.keys(rows[0] ?? { fault: '' });
  const widths = header.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h as keyof typeof r]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  const final = report.faults.findLast((r) => r.audit)?.audit;
  const skipped = report.faults.filter((r) => r.skipped);
  const out = [
    line(header),
    ...rows.map((r) => line(header.map((h) => String(r[h as keyof typeof r])))),
    '',
    ...(final?.reconciliation ?? []).map(
      (r) =>
        `reconciliation ${r.day}: settlements completed ${r.settlements.completed.count} (${r.settlements.completed.yen} yen), provider paid ${r.provider.paid.count} (${r.provider.paid.yen} yen), paid TC sold/credited ${r.settlements.completed.tollTc}/${r.ledger.purchaseTollTc}, delivery requests ${r.deliveries.requests}, fees asked/charged ${r.deliveries.feeTc}/${r.ledger.deliveryFeeTc} TC, mismatches ${r.mismatches.length}`,
    ),
    final
      ? `in all: ${final.plays} paid plays (${final.results} with a result, ${final.refunds} refunded), ${final.purchases} purchases completed, ${final.deliveries} deliveries; lost ${final.lostPlays.length}, double charges ${final.doubleCharges.length}, ledger mismatches ${final.ledgerMismatches.length}, reconciliation mismatches ${final.mismatches}`
      : 'no audit ran',
    ...report.notes.map((n) => `note: ${n}`),
    ...report.violations.map((v) => `VIOLATION ${v}`),
    report.violations.length === 0
      ? `VERDICT: OK — 0 lost paid plays, 0 double charges, the reconciliation empty, every recovery measured${skipped.length ? ` (skipped: ${skipped.map((s) => s.fault).join(', ')})` : ''}`
      : `VERDICT: FAILED — ${report.violations.length} violation(s)`,
  ];
  return out.join('\n');
}

export { SetUpRefused };
