/**
 * The server bench:agent measures, as a process of its own (forked by bench/agent.ts with an IPC
 * channel): the real server (createOnkureServer, as server/main.ts starts it) on 127.0.0.1, its
 * store in a folder the parent gives. Its own process so that process.cpuUsage() is the server's
 * alone; the parent is the players, the operator and the agents.
 *
 * Over IPC it answers `setup` (stations on driver `agent`, one key each, players with TC) and
 * `sample` (its CPU time so far and the heartbeat round trips it measures now).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createOnkureServer } from '../server/app';
import { IdentityService } from '../server/auth/identity';
import { systemClock } from '../server/clock';
import { readServerConfig } from '../server/config';

export interface SetupRequest {
  readonly stations: number;
  readonly players: number;
  /** Free TC each player gets. */
  readonly tcEach: number;
}
export interface SetupAnswer {
  readonly stations: readonly { readonly id: number; readonly key: string }[];
  readonly players: readonly { readonly user_id: number; readonly access_token: string }[];
  /** Stations the catalogue had that a player can play, and how many were added as copies of one. */
  readonly seeded: number;
  readonly added: number;
}
export interface SampleAnswer {
  readonly cpu: NodeJS.CpuUsage;
  /** The last ping's round trip of each connected agent, in ms (the server's clock: whole ms). */
  readonly roundTrips: readonly (number | null)[];
  /** The longest the server's event loop was late since the last sample, in ms. */
  readonly loopDelayMaxMs: number;
}

export type ServerAsk = { readonly type: 'setup'; readonly setup: SetupRequest } | { readonly type: 'sample' };
export type ServerRequest = ServerAsk & { readonly id: number };

const config = readServerConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: process.env.BENCH_DATA_DIR ?? ':memory:',
  // store=postgres: a throwaway PostgreSQL cluster the parent started (the store of a bigger deployment).
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  STATIC_DIR: '',
  LOG_LEVEL: 'silent',
  // The operator's shared token (the e-stops) is a development call.
  ONKURE_DEV_CALLS: '1',
  ONKURE_OPERATOR_TOKEN: process.env.BENCH_OPERATOR_TOKEN ?? '',
  ONKURE_FEED: 'jpg',
});
// Every player of the bench comes from 127.0.0.1: the per-client limits would count them as one.
const server = createOnkureServer(config, { logger: false, rateLimits: 'unlimited' });

/** The playable stations (normal, open, TC-priced), copies of the first added up to `count`, each with stock to spare. */
async function playableStations(count: number): Promise<{ ids: number[]; seeded: number }> {
  const store = server.store();
  const playable = `station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND play_price > 0`;
  const rows = await store.query<{ station_id: number }>(
    `SELECT station_id FROM stations WHERE ${playable} ORDER BY station_id`,
  );
  const ids = rows.map((r) => r.station_id).slice(0, count);
  const seeded = ids.length;
  const columns = `station_admin_id, shop_id, prize_name, character_id, sub_character_id, genre, station_type,
    designated_type, natia, recommend, stock, disclosure, station_status, play_price, image_key, released_at, sort,
    gift_type, prize_shape, arm_strength`;
  for (let n = ids.length; n < count; n += 1) {
    const [row] = await store.query<{ station_id: number }>(
      `INSERT INTO stations (${columns})
       SELECT ${columns.replace('station_admin_id', `'BENCH-' || $2::text`)} FROM stations WHERE station_id = $1
       RETURNING station_id`,
      [ids[0], String(n + 1).padStart(4, '0')],
    );
    ids.push(row!.station_id);
  }
  // Wins take stock; a station with none closes.
  await store.query('UPDATE stations SET stock = 999 WHERE station_id = ANY($1::int[])', [ids]);
  return { ids, seeded };
}

async function setup({ stations, players, tcEach }: SetupRequest): Promise<SetupAnswer> {
  const services = server.services();
  const { ids, seeded } = await playableStations(stations);
  const keyed: { id: number; key: string }[] = [];
  for (const id of ids) {
    const { key } = await services.stationKeys.issue({ name: `bench cabinet ${id}`, stationIds: [id], by: 'bench' });
    keyed.push({ id, key });
  }
  const identity = new IdentityService(server.store(), systemClock);
  const made: { user_id: number; access_token: string }[] = [];
  for (let i = 0; i < players; i += 1) {
    const [row] = await server.store().query<{ user_id: number }>('INSERT INTO users DEFAULT VALUES RETURNING user_id');
    const { access_token } = await identity.issueToken(row!.user_id);
    await services.ledger.credit(row!.user_id, 'free', {
      amount: tcEach,
      reason: 'admin',
      idempotencyKey: `bench:agent:${row!.user_id}`,
    });
    made.push({ user_id: row!.user_id, access_token });
  }
  return { stations: keyed, players: made, seeded, added: ids.length - seeded };
}

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

function sample(): SampleAnswer {
  const loopDelayMaxMs = loopDelay.max / 1e6;
  loopDelay.reset();
  return {
    cpu: process.cpuUsage(),
    roundTrips: server
      .services()
      .agents.agents()
      .map((a) => a.roundTripMs),
    loopDelayMaxMs,
  };
}

async function main(): Promise<void> {
  await server.ready;
  await server.app.ready();
  // On PostgreSQL an instance runs the rooms once it holds the host lock (it is the only one here).
  if (config.databaseUrl) await server.hosting;
  const origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (message: ServerRequest) => {
    const answer = message.type === 'setup' ? setup(message.setup) : Promise.resolve(sample());
    answer.then(
      (value) => process.send!({ id: message.id, value }),
      (error: unknown) => process.send!({ id: message.id, error: String(error) }),
    );
  });
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  // The parent gone (its IPC channel closed): nothing is left to measure.
  process.once('disconnect', stop);
  process.send!({ id: 0, value: { origin } });
}

void main().catch((error: unknown) => {
  console.error('bench:agent server failed', error);
  process.exit(1);
});
