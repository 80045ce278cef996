import { io, type Socket } from 'socket.io-client';
import {
  getReserveResponseSchema,
  playStateResponseSchema,
  type ClientToServerEvents,
  type PlayState,
  type ServerToClientEvents,
} from '../../src/contract';
import { PLAY_TIMINGS } from '../../src/domain';
import type { OnkureServer } from '../../server/app';
import { IdentityService } from '../../server/auth/identity';
import { systemClock } from '../../server/clock';
import { setUp } from '../../bench/support';
import type { ManualServerClock } from './manual-server-clock';

/**
 * Fault campaigns against the real server (HTTP and socket.io on a port, the real store, the real
 * ledger), its time on a manual clock: used by test/server/fault-campaign.test.ts and by
 * `npm run bench:faults`, which runs them bigger and prints the counts.
 */
export interface CampaignServer {
  readonly server: OnkureServer;
  /** http://127.0.0.1:port */
  readonly origin: string;
  readonly clock: ManualServerClock;
  readonly operatorToken: string;
  /** What fell due has been done (the rooms idle; with an agent, no frame in flight): TestServer.settle. */
  readonly settle: () => Promise<void>;
}

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** What a campaign found; every count but the first few must be 0. */
export interface MoneyAudit {
  /** Plays started (charged). */
  readonly plays: number;
  /** Plays whose grace window lapsed (the claw dropped by itself while the player was away). */
  readonly graceLapsed: number;
  readonly results: number;
  readonly refunds: number;
  /** Plays charged that ended with neither a result nor a refund, or never ended. */
  readonly lostPlays: number;
  /** Plays whose charge rows do not add up to one price exactly. */
  readonly doubleCharges: number;
  /** Plays refunded more or less than once (when refunded at all), or refunded after a result. */
  readonly badRefunds: number;
  /** Users whose balance is not the sum of their ledger rows, or not their grant less what they kept playing. */
  readonly ledgerMismatches: number;
}

/** A small seeded generator (mulberry32), so a campaign can be run again the same way. */
export function seeded(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Player {
  readonly user_id: number;
  readonly access_token: string;
  socket: Client | null;
}

const GRANT = 1_000_000;

export async function createPlayers(s: CampaignServer, count: number): Promise<Player[]> {
  const store = s.server.store();
  const identity = new IdentityService(store, systemClock);
  const players: Player[] = [];
  for (let i = 0; i < count; i += 1) {
    const [row] = await store.query<{ user_id: number }>('INSERT INTO users DEFAULT VALUES RETURNING user_id');
    const { access_token } = await identity.issueToken(row!.user_id);
    await s.server
      .services()
      .ledger.credit(row!.user_id, 'free', { amount: GRANT, reason: 'admin', idempotencyKey: 'campaign:grant' });
    players.push({ user_id: row!.user_id, access_token, socket: null });
  }
  return players;
}

export async function post(
  s: CampaignServer,
  p: Player | null,
  path: string,
  body: object = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> & { error_code: number } }> {
  const res = await fetch(`${s.origin}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(p ? { user_id: p.user_id, access_token: p.access_token, ...body } : body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> & { error_code: number } };
}

export const operator = (s: CampaignServer, path: string, body: object) =>
  post(s, null, `operator/${path}`, body, { 'x-operator-authorization': `Bearer ${s.operatorToken}` });

/** Time passes on the server, timer by timer, each room's work done before the next timer. */
export async function passTime(s: CampaignServer, ms: number): Promise<void> {
  await s.settle();
  await s.clock.advanceSettling(ms, s.settle);
}

/** Opens the player's socket; resolves once the server has taken the connection (and the player is back). */
export async function connect(s: CampaignServer, p: Player): Promise<void> {
  if (p.socket) return;
  const socket: Client = io(s.origin, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    timeout: 5000,
    auth: { user_id: p.user_id, access_token: p.access_token },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  p.socket = socket;
  await until(() => s.server.services().realtime.isConnected(p.user_id));
  await s.server.services().rooms.idle();
}

/** Drops the player's socket; resolves once the server has seen it go. */
export async function disconnect(s: CampaignServer, p: Player): Promise<void> {
  if (!p.socket) return;
  p.socket.disconnect();
  p.socket = null;
  await until(() => !s.server.services().realtime.isConnected(p.user_id));
  await s.server.services().rooms.idle();
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('the server did not see the connection change');
}

export async function current(s: CampaignServer, p: Player): Promise<PlayState | null> {
  return playStateResponseSchema.parse((await post(s, p, 'v2/play/current')).json).play;
}

/**
 * Sets every named station open with plenty of stock; a refusal stops the campaign with it
 * (`set-up refused: …`), before anything is played on a station that is not ready.
 */
export async function prepareStations(s: CampaignServer, stationIds: readonly number[]): Promise<void> {
  for (const station_id of stationIds) {
    await setUp(
      operator(s, 'station_status', { station_id, station_status: 'open' }),
      `opening station ${station_id} (operator station_status)`,
    );
    // 9,999: the most a restock takes (operator.schema.ts); 10,000 was refused with 400 and never checked.
    await setUp(operator(s, 'restock', { station_id, stock: 9_999 }), `restocking station ${station_id}`);
  }
}

/** Refused answers of the calls a campaign makes as its load, by call: outcomes, counted and printed. */
export type Refusals = Record<string, number>;

/** The player's call as load: answered as it comes, a refusal counted in `refused` under its path and code. */
async function load(
  refused: Refusals,
  s: CampaignServer,
  p: Player,
  path: string,
  body: object = {},
): Promise<{ status: number; json: Record<string, unknown> & { error_code: number } }> {
  const answer = await post(s, p, path, body);
  if (answer.json.error_code !== 200) {
    const key = `${path} ${answer.json.error_code}`;
    refused[key] = (refused[key] ?? 0) + 1;
  }
  return answer;
}

export async function normalStations(s: CampaignServer, count: number): Promise<number[]> {
  const rows = await s.server.store().query<{ station_id: number }>(
    `SELECT station_id FROM stations WHERE station_type = 'normal' AND designated_type = 'normal' AND shop_id = 1
        ORDER BY station_id LIMIT $1`,
    [count],
  );
  return rows.map((r) => r.station_id);
}

/**
 * Players play paid plays at a few stations while their connections drop and come back at random
 * moments (waiting, in the reset, mid-press, in the grace window, at the result), until `cycles`
 * disconnect/reconnect cycles were made; then everyone comes back and every turn ends.
 */
export async function disconnectCampaign(
  s: CampaignServer,
  options: { players: number; stations: number; cycles: number; seed: number },
): Promise<{ cycles: number; steps: number; refused: Refusals; audit: MoneyAudit }> {
  const random = seeded(options.seed);
  // The players' calls are the load: a refusal (a turn that lapsed while away, a press after the
  // claw stopped) is an outcome, counted here.
  const refused: Refusals = {};
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const stationIds = await normalStations(s, options.stations);
  await prepareStations(s, stationIds);
  const players = await createPlayers(s, options.players);
  for (const p of players) await connect(s, p);
  let cycles = 0;
  let steps = 0;
  while (cycles < options.cycles) {
    steps += 1;
    const p = pick(players);
    // A connection drops at any moment, and comes back a while later (a player offline calls nothing).
    if (p.socket && random() < 0.3) await disconnect(s, p);
    else if (!p.socket && random() < 0.2) {
      await connect(s, p);
      cycles += 1;
    }
    if (!p.socket) {
      await passTime(s, random() < 0.02 ? 60_000 : Math.floor(random() * 1500));
      continue;
    }
    const play = await current(s, p);
    if (!play) {
      const record = getReserveResponseSchema.safeParse((await load(refused, s, p, 'v2/play/get_reserve')).json);
      const status = record.success ? record.data.reserve_info.reserve_status : null;
      if (status === null) await load(refused, s, p, 'v2/play/reserve', { station_id: pick(stationIds) });
      else if (status === 'playTransition' && random() < 0.8)
        await load(refused, s, p, 'v2/play/confirm', { station_id: record.data!.reserve_info.station_id });
      else if (random() < 0.05)
        await load(refused, s, p, 'v2/play/reserve_cancel', {
          shop_id: 1,
          reserve_cancel: { station_setting_id: record.data!.reserve_info.station_setting_id },
        });
    } else if (play.phase === 'playing' && play.machine.button) {
      const command = play.machine.phase === 'movingRight' || play.machine.phase === 'movingBack' ? 'release' : 'press';
      await load(refused, s, p, 'v2/play/control', { play_id: play.play_id, button: play.machine.button, command });
    } else if (play.phase === 'result') {
      if (random() < 0.3) await load(refused, s, p, 'v2/play/continue', { play_id: play.play_id });
      else await load(refused, s, p, 'v2/play/finish', { play_id: play.play_id });
    }
    await passTime(s, Math.floor(random() * 1500));
  }
  // Everyone comes back; every turn ends (the lines are left to time out).
  for (const p of players) await connect(s, p);
  for (let round = 0; round < 400; round += 1) {
    let busy = false;
    for (const p of players) {
      const play = await current(s, p);
      if (!play) continue;
      busy = true;
      if (play.phase === 'result') await load(refused, s, p, 'v2/play/finish', { play_id: play.play_id });
    }
    await passTime(s, 1000);
    if (!busy && round > 0) break;
  }
  for (const p of players) await disconnect(s, p);
  await passTime(s, PLAY_TIMINGS.graceMs + PLAY_TIMINGS.confirmMs * options.players);
  return { cycles, steps, refused, audit: await auditMoney(s, players) };
}

/**
 * Many stations mid-play, and `faults` fault injections fired at them at once (several per
 * station): each play is refunded exactly once, whichever injection came first.
 */
export async function faultStorm(
  s: CampaignServer,
  options: { stations: number; faults: number; seed: number },
): Promise<{ refundedAnswers: number; refusedFaults: number; playsStopped: number; audit: MoneyAudit }> {
  const random = seeded(options.seed);
  const stationIds = await normalStations(s, options.stations);
  await prepareStations(s, stationIds);
  const players = await createPlayers(s, stationIds.length);
  for (const [i, p] of players.entries()) {
    const station_id = stationIds[i]!;
    await setUp(post(s, p, 'v2/play/reserve', { station_id }), `player ${p.user_id} reserving station ${station_id}`);
    await setUp(post(s, p, 'v2/play/confirm', { station_id }), `player ${p.user_id} confirming station ${station_id}`);
  }
  await passTime(s, PLAY_TIMINGS.resetMs);
  for (const p of players) {
    const play = await current(s, p);
    if (play?.phase !== 'playing') throw new Error(`player ${p.user_id} is not playing: ${JSON.stringify(play)}`);
    await post(s, p, 'v2/play/control', { play_id: play.play_id, button: 'right', command: 'press' });
  }
  const targets = Array.from({ length: options.faults }, (_, i) => stationIds[i % stationIds.length]!).sort(
    () => random() - 0.5,
  );
  const answers = await Promise.all(targets.map((station_id) => operator(s, 'fault', { station_id })));
  // The injections are the load: a refused one is an outcome (counted), not a set-up.
  const accepted = answers.filter((a) => a.status === 200 && a.json.error_code === 200);
  const refunded = accepted.filter((a) => (a.json.station as { refunded_play_id: number | null }).refunded_play_id);
  for (const station_id of stationIds)
    await setUp(
      operator(s, 'station_status', { station_id, station_status: 'open' }),
      `reopening station ${station_id} after the storm`,
    );
  return {
    refundedAnswers: refunded.length,
    refusedFaults: answers.length - accepted.length,
    playsStopped: players.length,
    audit: await auditMoney(s, players),
  };
}

/**
 * The money of the players' plays, from the store: each play charged exactly its price once, a
 * refunded play given back exactly that once, every play ended with a result or a refund, and each
 * balance the sum of its ledger rows and equal to the grant less the plays kept.
 */
export async function auditMoney(s: CampaignServer, players: readonly Player[]): Promise<MoneyAudit> {
  const store = s.server.store();
  const ids = players.map((p) => p.user_id);
  const plays = await store.query<{
    play_id: number;
    user_id: number;
    price: number;
    phase: string;
    result: string | null;
    drop_at_tick: number | null;
  }>('SELECT play_id, user_id, price, phase, result, drop_at_tick FROM plays WHERE user_id = ANY($1::int[])', [ids]);
  const rows = await store.query<{ user_id: number; idempotency_key: string; reason: string; delta: number }>(
    `SELECT user_id, idempotency_key, reason, delta FROM tc_ledger WHERE user_id = ANY($1::int[]) AND reason IN ('play', 'refund')`,
    [ids],
  );
  const sum = (key: string) => rows.filter((r) => r.idempotency_key === key).reduce((a, r) => a + r.delta, 0);
  let lostPlays = 0;
  let doubleCharges = 0;
  let badRefunds = 0;
  for (const play of plays) {
    if (play.phase !== 'ended' || play.result === null) lostPlays += 1;
    if (sum(`play:${play.play_id}`) !== -play.price) doubleCharges += 1;
    const refunded = sum(`refund:play:${play.play_id}`);
    if (play.result === 'refunded' ? refunded !== play.price : refunded !== 0) badRefunds += 1;
  }
  let ledgerMismatches = 0;
  const ledger = s.server.services().ledger;
  for (const p of players) {
    const balance = await ledger.balance(p.user_id);
    const fromRows = await ledger.fromRows(p.user_id);
    const kept = plays
      .filter((play) => play.user_id === p.user_id && play.result !== 'refunded')
      .reduce((a, play) => a + play.price, 0);
    if (fromRows.tc_free !== balance.tc_free || fromRows.tc_toll !== balance.tc_toll || balance.tc_all !== GRANT - kept)
      ledgerMismatches += 1;
  }
  return {
    plays: plays.length,
    graceLapsed: plays.filter((p) => p.drop_at_tick !== null).length,
    results: plays.filter((p) => p.result === 'win' || p.result === 'miss').length,
    refunds: plays.filter((p) => p.result === 'refunded').length,
    lostPlays,
    doubleCharges,
    badRefunds,
    ledgerMismatches,
  };
}

export async function closePlayers(players: readonly Player[]): Promise<void> {
  for (const p of players) p.socket?.close();
}
