import { io, type Socket } from 'socket.io-client';
import {
  getReserveResponseSchema,
  playStateResponseSchema,
  type ClientToServerEvents,
  type PlayState,
  type ReserveStatusRecord,
  type ServerToClientEvents,
} from '../../src/contract';
import { systemClock } from '../../server/clock';
import { openPgliteStore } from '../../server/store/store';
import { Ledger } from '../../server/wallet/ledger';
import { checkSetUp, setUp } from '../../bench/support';
import type { ServerProcess } from './server-process';

/**
 * `kill -9` of the real server process with a station in each phase of the turn (turn offered,
 * resetting, playing, away, result), then a start on the same data: each play must be resumed
 * (or refunded) exactly once and each line intact. Real time, a real process, real sockets.
 * Used by test/server/kill-campaign.test.ts and `npm run bench:faults`.
 */
export type KillPhase = 'turnOffered' | 'resetting' | 'playing' | 'away' | 'result';
export const KILL_PHASES: readonly KillPhase[] = ['turnOffered', 'resetting', 'playing', 'away', 'result'];

export interface KillOutcome {
  readonly phase: KillPhase;
  /** What the player saw right after the restart. */
  readonly afterRestart: string;
  /**
   * The play (confirmed before the kill, or after it for the offered turn) came back and ended with
   * a result; for an offered turn whose confirm window ran out while the process was down: no play.
   */
  readonly resumed: boolean;
  /** Plays of this station's holder, charges (keys) and refunds. */
  readonly plays: number;
  readonly charges: number;
  readonly refunds: number;
  /** The second in line kept place 2 across the restart (null: nobody waited there). */
  readonly lineIntact: boolean | null;
  /**
   * For the result: whether its continue window was still open when the station was seen after the
   * restart. For the offered turn: 'open' when the confirm after the restart started the play,
   * 'lapsed' when its window had run out (refused as not the player's turn, the next one offered).
   */
  readonly window: 'open' | 'lapsing' | 'lapsed' | null;
}

/** What each phase must come to: one play charged once and never refunded, or none for an offer that lapsed. */
export function outcomeHolds(outcome: KillOutcome): boolean {
  const lapsedOffer = outcome.phase === 'turnOffered' && outcome.window === 'lapsed';
  return (
    outcome.resumed &&
    outcome.plays === (lapsedOffer ? 0 : 1) &&
    outcome.charges === (lapsedOffer ? 0 : 1) &&
    outcome.refunds === 0 &&
    outcome.lineIntact !== false
  );
}

export interface KillReport {
  readonly outcomes: readonly KillOutcome[];
  /** Users whose balance is not the sum of their ledger rows. */
  readonly ledgerMismatches: number;
  /** From the restarted process answering /healthz to every room resumed and answering. */
  readonly restartMs: number;
}

interface Player {
  readonly user_id: number;
  readonly access_token: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Caller {
  constructor(
    private readonly origin: string,
    readonly who: Player,
  ) {}

  async post(path: string, body: object = {}): Promise<Record<string, unknown> & { error_code: number }> {
    return (await this.answer(path, body)).json;
  }

  async answer(
    path: string,
    body: object,
  ): Promise<{ status: number; json: Record<string, unknown> & { error_code: number } }> {
    const res = await fetch(`${this.origin}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: this.who.user_id, access_token: this.who.access_token, ...body }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> & { error_code: number } };
  }

  async current(): Promise<PlayState | null> {
    return playStateResponseSchema.parse(await this.post('v2/play/current')).play;
  }

  async record(stationId: number): Promise<ReserveStatusRecord> {
    return getReserveResponseSchema.parse(await this.post('v2/play/get_reserve', { station_id: stationId }))
      .reserve_info;
  }

  /** A call that sets a phase up: a refusal stops the campaign with it (`set-up refused: …`). */
  async ok(path: string, body: object = {}): Promise<Record<string, unknown>> {
    return setUp(this.answer(path, body), `${path} of player ${this.who.user_id} ${JSON.stringify(body)}`);
  }

  /** Polls the play until `test` holds (real time). */
  async waitPlay(test: (play: PlayState | null) => boolean, ms = 20_000): Promise<PlayState | null> {
    for (const end = Date.now() + ms; ;) {
      const play = await this.current();
      if (test(play)) return play;
      if (Date.now() > end) throw new Error(`play of ${this.who.user_id} never matched: ${JSON.stringify(play)}`);
      await pause(50);
    }
  }

  async press(button: 'right' | 'back', holdMs: number): Promise<void> {
    const play = await this.current();
    await this.ok('v2/play/control', { play_id: play!.play_id, button, command: 'press' });
    await pause(holdMs);
    await this.post('v2/play/control', { play_id: play!.play_id, button, command: 'release' });
  }

  /** Plays the running play to its result and ends the turn. */
  async playToEnd(): Promise<PlayState> {
    const running = await this.waitPlay((p) => p?.phase === 'playing' && p.grace_ms_left === null);
    if (running!.machine.button === 'right') await this.press('right', 150);
    await this.waitPlay((p) => p?.machine.button === 'back' || p?.phase === 'result');
    if ((await this.current())?.phase === 'playing') await this.press('back', 150);
    const result = await this.waitPlay((p) => p?.phase === 'result');
    await this.ok('v2/play/finish', { play_id: result!.play_id });
    return result!;
  }
}

async function login(origin: string, name: string): Promise<Player> {
  const body = await setUp<Player & { error_code: number }>(
    fetch(`${origin}/api/auth/debug_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    }),
    `debug login of ${name}`,
  );
  return { user_id: body.user_id, access_token: body.access_token };
}

async function openSocket(origin: string, who: Player): Promise<Socket<ServerToClientEvents, ClientToServerEvents>> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(origin, {
    transports: ['websocket'],
    reconnection: false,
    auth: { user_id: who.user_id, access_token: who.access_token },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * The play on a station's machine as a viewer sees it (a guest joining the station's channel gets
 * it at once), without the player's sign of life that `current` is.
 */
async function observe(origin: string, stationId: number): Promise<string> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(origin, {
    transports: ['websocket'],
    reconnection: false,
  });
  try {
    const state = new Promise<PlayState>((resolve) => socket.once('play_state', resolve));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    await new Promise((resolve) => socket.emit('join', `station:${stationId}`, resolve));
    const play = await Promise.race([state, pause(1000).then(() => null)]);
    return describe(play);
  } finally {
    socket.close();
  }
}

/**
 * Puts one station in each phase, kills the process with SIGKILL, starts it again on the same data
 * and checks every play and line; then stops the process and audits the ledger from the store.
 */
export async function killInEveryPhase(server: ServerProcess, dataDir: string, runId: string): Promise<KillReport> {
  await server.start();
  const origin = server.origin;
  const stations = await normalStations(origin, 5);
  const names = ['offered', 'resetting', 'playing', 'away', 'result', 'wait-offered', 'wait-playing'];
  const players = Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, new Caller(origin, await login(origin, `${runId}-${n}`))] as const)),
  );
  const station: Record<KillPhase, number> = {
    turnOffered: stations[0]!,
    resetting: stations[1]!,
    playing: stations[2]!,
    away: stations[3]!,
    result: stations[4]!,
  };
  const holder: Record<KillPhase, Caller> = {
    turnOffered: players.offered!,
    resetting: players.resetting!,
    playing: players.playing!,
    away: players.away!,
    result: players.result!,
  };
  const playIds: Partial<Record<KillPhase, number>> = {};

  // result: a play moved right; it drops once the others are ready (its continue window is only 10 s).
  const toResult = (async () => {
    const p = holder.result;
    await p.ok('v2/play/reserve', { station_id: station.result });
    playIds.result = ((await p.ok('v2/play/confirm', { station_id: station.result })).play as PlayState).play_id;
    await p.waitPlay((x) => x?.phase === 'playing');
    await p.press('right', 100);
    await p.waitPlay((x) => x?.machine.button === 'back');
  })();
  // playing: the claw moved right and waits for ↑ (its 15 s limit runs); a player waits behind.
  const toPlaying = (async () => {
    const p = holder.playing;
    await p.ok('v2/play/reserve', { station_id: station.playing });
    await players['wait-playing']!.ok('v2/play/reserve', { station_id: station.playing });
    playIds.playing = ((await p.ok('v2/play/confirm', { station_id: station.playing })).play as PlayState).play_id;
    await p.waitPlay((x) => x?.phase === 'playing');
    await p.press('right', 300);
  })();
  // away: the player's only connection drops while the claw waits: the grace window runs.
  const awaySocket = await openSocket(origin, holder.away.who);
  const toAway = (async () => {
    const p = holder.away;
    await p.ok('v2/play/reserve', { station_id: station.away });
    playIds.away = ((await p.ok('v2/play/confirm', { station_id: station.away })).play as PlayState).play_id;
    await p.waitPlay((x) => x?.phase === 'playing');
    await p.press('right', 200);
    awaySocket.disconnect();
  })();
  await Promise.all([toResult, toPlaying, toAway]);
  await holder.result.press('back', 100);
  await holder.result.waitPlay((x) => x?.phase === 'result');
  // turnOffered: the head of the line has 15 s to confirm; someone waits behind.
  await holder.turnOffered.ok('v2/play/reserve', { station_id: station.turnOffered });
  await players['wait-offered']!.ok('v2/play/reserve', { station_id: station.turnOffered });
  // resetting: confirmed a moment ago (its reset lasts 2 s); then the process dies at once.
  await holder.resetting.ok('v2/play/reserve', { station_id: station.resetting });
  playIds.resetting = (
    (await holder.resetting.ok('v2/play/confirm', { station_id: station.resetting })).play as PlayState
  ).play_id;
  const before = {
    resetting: (await holder.resetting.current())?.phase,
    playing: (await holder.playing.current())?.phase,
    away: await observe(origin, station.away),
    result: (await holder.result.current())?.phase,
    resultDeadline: Date.now() + ((await holder.result.current())?.window_ms_left ?? 0),
    ...(await holder.turnOffered.record(station.turnOffered).then((offer) => ({
      turnOffered: offer.reserve_status,
      // Whole seconds: the window ends within a second of this.
      offerDeadline: Date.now() + offer.reserve_time * 1000,
    }))),
  };
  await server.kill('SIGKILL');
  if (
    before.resetting !== 'resetting' ||
    before.playing !== 'playing' ||
    before.away !== 'away' ||
    before.result !== 'result' ||
    before.turnOffered !== 'playTransition'
  )
    throw new Error(`the phases were not set up before the kill: ${JSON.stringify(before)}`);

  const healthyAt = await server.start();
  // What each station shows after the restart, as a viewer sees it (not the player's `current`: a sign of life).
  const seen: Record<KillPhase, string> = {
    turnOffered: (await holder.turnOffered.record(station.turnOffered)).reserve_status ?? 'none',
    resetting: await observe(origin, station.resetting),
    playing: await observe(origin, station.playing),
    away: await observe(origin, station.away),
    result: '',
  };
  // The continue window runs on while the process is down: if it ended meanwhile, so did the turn.
  const lapsedBefore = Date.now() >= before.resultDeadline;
  seen.result = await observe(origin, station.result);
  const lapsedAfter = Date.now() >= before.resultDeadline;
  const resultWindow = lapsedBefore ? 'lapsed' : lapsedAfter ? 'lapsing' : 'open';
  const restartMs = Date.now() - healthyAt;
  let lineOffered = (await players['wait-offered']!.record(station.turnOffered)).reserve_num === 2;
  const linePlaying = (await players['wait-playing']!.record(station.playing)).reserve_num === 2;

  // Each player carries on and ends the turn.
  const ended: Record<KillPhase, boolean> = {
    turnOffered: false,
    resetting: false,
    playing: false,
    away: false,
    result: false,
  };
  // The confirm window also runs on while the process is down (15 s from the offer): a slow
  // restart may outlast it, and then the turn went to the next in line, as it would have anyway.
  const confirmAt = Date.now();
  const confirm = await holder.turnOffered.answer('v2/play/confirm', { station_id: station.turnOffered });
  let offerWindow: 'open' | 'lapsed' = 'open';
  if (confirm.status === 200) playIds.turnOffered = (confirm.json.play as PlayState).play_id;
  else if (confirm.status === 409 && confirmAt >= before.offerDeadline - 1_000) {
    offerWindow = 'lapsed';
    ended.turnOffered = true;
    // The line moved on intact: the one behind is offered the turn.
    lineOffered = (await players['wait-offered']!.record(station.turnOffered)).reserve_num === 1;
  } else
    checkSetUp(
      `v2/play/confirm of player ${holder.turnOffered.who.user_id} (its window open for ${before.offerDeadline - confirmAt} ms more)`,
      confirm.status,
      confirm.json,
    );
  for (const phase of ['turnOffered', 'resetting', 'playing', 'away'] as const) {
    if (phase === 'turnOffered' && offerWindow === 'lapsed') continue;
    const result = await holder[phase].playToEnd();
    ended[phase] = result.play_id === playIds[phase] && (result.result === 'win' || result.result === 'miss');
  }
  const result = await holder.result.current();
  if (result?.phase === 'result') await holder.result.ok('v2/play/finish', { play_id: result.play_id });
  ended.result = result?.play_id === playIds.result || result === null;
  awaySocket.close();
  await server.kill('SIGTERM');

  // The audit, from the store the process left.
  const store = await openPgliteStore(dataDir);
  try {
    const ledger = new Ledger(store, systemClock);
    const outcomes: KillOutcome[] = [];
    for (const phase of KILL_PHASES) {
      const who = holder[phase].who.user_id;
      const plays = await store.query<{ play_id: number; result: string | null; phase: string }>(
        'SELECT play_id, result, phase FROM plays WHERE user_id = $1',
        [who],
      );
      const keys = await store.query<{ idempotency_key: string; reason: string }>(
        `SELECT DISTINCT idempotency_key, reason FROM tc_ledger WHERE user_id = $1 AND reason IN ('play', 'refund')`,
        [who],
      );
      const finished = plays.length === 1 && plays[0]!.phase === 'ended' && plays[0]!.result !== null;
      const lapsedOffer = phase === 'turnOffered' && offerWindow === 'lapsed';
      outcomes.push({
        phase,
        afterRestart: seen[phase],
        resumed: lapsedOffer ? plays.length === 0 : ended[phase] && finished && plays[0]!.play_id === playIds[phase],
        plays: plays.length,
        charges: keys.filter((k) => k.reason === 'play').length,
        refunds: keys.filter((k) => k.reason === 'refund').length,
        lineIntact: phase === 'turnOffered' ? lineOffered : phase === 'playing' ? linePlaying : null,
        window: phase === 'result' ? resultWindow : phase === 'turnOffered' ? offerWindow : null,
      });
    }
    let ledgerMismatches = 0;
    for (const caller of Object.values(players)) {
      const balance = await ledger.balance(caller.who.user_id);
      const rows = await ledger.fromRows(caller.who.user_id);
      if (rows.tc_free !== balance.tc_free || rows.tc_toll !== balance.tc_toll) ledgerMismatches += 1;
    }
    return { outcomes, ledgerMismatches, restartMs };
  } finally {
    await store.close();
  }
}

function describe(play: PlayState | null): string {
  if (!play) return 'none';
  if (play.phase === 'playing' && play.grace_ms_left !== null) return 'away';
  return play.phase;
}

async function normalStations(origin: string, count: number): Promise<number[]> {
  const res = await fetch(`${origin}/api/contents/top_page_prize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: 1, is_top_page: 1 }),
  });
  const body = checkSetUp(
    'the top page (the stations to play)',
    res.status,
    (await res.json()) as {
      sale_list: { list: { station_id: number; station_status: string; type: string; designated_type: string }[] }[];
    },
  );
  const ids = new Set<number>();
  for (const tab of body.sale_list)
    for (const item of tab.list)
      if (item.station_status === 'open' && item.type === 'normal' && item.designated_type === 'normal')
        ids.add(item.station_id);
  const list = [...ids].sort((a, b) => a - b);
  if (list.length < count) throw new Error(`only ${list.length} open normal stations`);
  return list.slice(0, count);
}
