import { systemClock } from '../../server/clock';
import { openPgliteStore } from '../../server/store/store';
import { Ledger } from '../../server/wallet/ledger';
import { setUp } from '../../bench/support';
import type { ServerProcess } from './server-process';

/**
 * `kill -9` of the real server process with kuji boxes held: once inside a holder's draw window,
 * then at the moment of draws (requests in flight when the process dies), then a start on the same
 * data. Every draw must end charged and recorded exactly once (a draw is one transaction: a kill
 * before its commit leaves nothing, after it leaves all), its request id answering that same draw
 * after the restart; every line must come back as it was. Real time, a real process.
 * Used by test/server/kuji-kill-campaign.test.ts and `npm run bench:faults`.
 */
export interface KujiKillRound {
  /** How long after the first draw was answered the process was killed (ms). */
  readonly killAfterMs: number;
  readonly sent: number;
  /** Draws answered before the kill. */
  readonly answeredBefore: number;
  /** Draws the store held after the restart, before any was sent again. */
  readonly landedBefore: number;
  /** Request ids that, sent again after the restart, answered a draw other than the one answered before the kill. */
  readonly changedAnswers: number;
  /** The holder still held the box after the restart, and the player behind kept place 2. */
  readonly lineIntact: boolean;
}

export interface KujiKillReport {
  /** The holder killed inside their confirm window: still holding after the restart, window and place kept. */
  readonly window: {
    readonly status: string;
    readonly playAtKept: boolean;
    readonly lineIntact: boolean;
    readonly replayed: boolean;
  };
  readonly rounds: readonly KujiKillRound[];
  /** Draws whose tickets or charges are not exactly one each (count × price, one ledger key). */
  readonly badDraws: number;
  /** Request ids drawn twice. */
  readonly doubleDraws: number;
  /** Tickets held by two draws. */
  readonly doubleTickets: number;
  /** Users whose balance is not the sum of their ledger rows. */
  readonly ledgerMismatches: number;
}

interface Player {
  readonly user_id: number;
  readonly access_token: string;
}
interface PlayInfo {
  readonly reserve_token: string;
  readonly reserve_status: string;
  readonly reserve_num: number;
  readonly play_at: string | null;
}
interface Box {
  readonly kuji_id: number;
  readonly box_id: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Answer = { status: number; json: Record<string, unknown> & { error_code: number } };

async function answer(origin: string, path: string, body: object): Promise<Answer> {
  const res = await fetch(`${origin}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Answer['json'] };
}

async function call(origin: string, path: string, body: object): Promise<Answer['json']> {
  return (await answer(origin, path, body)).json;
}

/** A call that sets the campaign up (or reads what it checks): a refusal stops it with `set-up refused: …`. */
const ok = (origin: string, path: string, body: object, what: string) =>
  setUp(answer(origin, path, body), `${what} (${path})`);

async function login(origin: string, name: string): Promise<Player> {
  const body = await ok(origin, 'auth/debug_login', { name }, `debug login of ${name}`);
  return { user_id: body.user_id as number, access_token: body.access_token as string };
}

const as = (p: Player, extra: object) => ({ user_id: p.user_id, access_token: p.access_token, ...extra });

async function reserve(origin: string, p: Player, box: Box): Promise<PlayInfo> {
  const body = await ok(origin, 'play/kuji_reserve', as(p, box), `player ${p.user_id} reserving box ${box.box_id}`);
  return body.play_info as PlayInfo;
}

async function poll(origin: string, p: Player, box: Box, token: string): Promise<PlayInfo> {
  const what = `player ${p.user_id} polling box ${box.box_id}`;
  const body = await ok(origin, 'play/kuji_polling', as(p, { ...box, reserve_token: token }), what);
  return (body.polling as { play_info: PlayInfo }).play_info;
}

/** One draw of one ticket: its draw id, or null when no answer came (the process died) or it was refused. */
async function draw(origin: string, p: Player, box: Box, token: string, requestId: string): Promise<number | null> {
  try {
    const body = await call(
      origin,
      'play/kuji_draw',
      as(p, { ...box, reserve_token: token, count: 1, request_id: requestId }),
    );
    return body.error_code === 200 ? (body.draw as { draw_id: number }).draw_id : null;
  } catch {
    return null;
  }
}

async function boxesOnSale(origin: string, count: number): Promise<Box[]> {
  const body = await ok(origin, 'contents/kuji', { type: 1 }, 'the kuji on sale');
  const list = body.list as {
    kuji_id: number;
    boxes: { box_id: number; box_status: string; remaining_count: number }[];
  }[];
  const boxes = list.flatMap((k) =>
    k.boxes
      .filter((b) => b.box_status === 'onSale' && b.remaining_count >= 8)
      .map((b) => ({ kuji_id: k.kuji_id, box_id: b.box_id })),
  );
  if (boxes.length < count) throw new Error(`only ${boxes.length} kuji boxes on sale with 8 tickets left`);
  return boxes.slice(0, count);
}

/** Puts kuji boxes in a draw window and in the middle of draws, kills the process, starts it again and audits. */
export async function killKujiBoxes(
  server: ServerProcess,
  dataDir: string,
  runId: string,
  killDelaysMs: readonly number[] = [0, 30, 80],
): Promise<KujiKillReport> {
  await server.start();
  let origin = server.origin;
  const boxes = await boxesOnSale(origin, 1 + killDelaysMs.length);
  const everyone: Player[] = [];
  const player = async (name: string) => {
    // Debug names: at most 20 lower-case letters, digits or hyphens.
    const p = await login(origin, `${runId}-${name}`);
    everyone.push(p);
    return p;
  };

  // 1. Inside a draw window: the holder drew once (confirm, 180 s), someone waits behind; kill -9.
  const box = boxes[0]!;
  const holder = await player('wh');
  const behind = await player('wb');
  const held = await reserve(origin, holder, box);
  const queued = await reserve(origin, behind, box);
  // The window's first draw sets the window up: a refusal stops the campaign with it.
  const firstDraw = await ok(
    origin,
    'play/kuji_draw',
    as(holder, { ...box, reserve_token: held.reserve_token, count: 1, request_id: `${runId}-window-1` }),
    `the holder's first draw of box ${box.box_id}`,
  );
  const first = (firstDraw.draw as { draw_id: number }).draw_id;
  const before = await poll(origin, holder, box, held.reserve_token);
  await server.kill('SIGKILL');
  await server.start();
  origin = server.origin;
  const after = await poll(origin, holder, box, held.reserve_token);
  const behindAfter = await poll(origin, behind, box, queued.reserve_token);
  const replay = await draw(origin, holder, box, held.reserve_token, `${runId}-window-1`);
  const window = {
    status: after.reserve_status,
    playAtKept: after.play_at === before.play_at,
    lineIntact: behindAfter.reserve_status === 'reserve' && behindAfter.reserve_num === 2,
    replayed: replay === first,
  };
  // The holder draws on after the restart, in the same window.
  if ((await draw(origin, holder, box, held.reserve_token, `${runId}-window-2`)) === null)
    throw new Error('the holder could not draw after the restart');

  // 2. At the moment of draws: six sent at once, the process killed while they are being drawn.
  const rounds: KujiKillRound[] = [];
  for (const [i, delay] of killDelaysMs.entries()) {
    const b = boxes[1 + i]!;
    const h = await player(`r${i}h`);
    const w = await player(`r${i}b`);
    const hi = await reserve(origin, h, b);
    const wi = await reserve(origin, w, b);
    const ids = Array.from({ length: 6 }, (_, n) => `${runId}-round-${i}-${n}`);
    const inFlight = ids.map((id) => draw(origin, h, b, hi.reserve_token, id));
    // The process dies `delay` ms after the first draw was answered: the others are queued in the
    // box's room, in their transactions, or on their way.
    await Promise.any(inFlight.map((d) => d.then((id) => id ?? Promise.reject(new Error('refused')))));
    await pause(delay);
    await server.kill('SIGKILL');
    const answered = await Promise.all(inFlight);
    await server.start();
    origin = server.origin;
    const landed = await ticketsOf(origin, h);
    const again = await Promise.all(ids.map((id) => draw(origin, h, b, hi.reserve_token, id)));
    const holderAfter = await poll(origin, h, b, hi.reserve_token);
    const behindNow = await poll(origin, w, b, wi.reserve_token);
    rounds.push({
      killAfterMs: delay,
      sent: ids.length,
      answeredBefore: answered.filter((a) => a !== null).length,
      landedBefore: landed,
      changedAnswers:
        answered.filter((a, n) => a !== null && again[n] !== a).length + again.filter((a) => a === null).length,
      lineIntact:
        ['firstReserved', 'confirm'].includes(holderAfter.reserve_status) &&
        behindNow.reserve_status === 'reserve' &&
        behindNow.reserve_num === 2,
    });
  }
  await server.kill('SIGTERM');

  // The audit, from the store the process left.
  const store = await openPgliteStore(dataDir);
  try {
    const ids = everyone.map((p) => p.user_id);
    const [audit] = await store.query<{ bad: number; twice: number; tickets: number }>(
      `SELECT (SELECT count(*)::int FROM kuji_draws d
                WHERE d.user_id = ANY($1::int[])
                  AND (d.ticket_count <> (SELECT count(*) FROM kuji_box_tickets t WHERE t.draw_id = d.draw_id)
                       OR (SELECT count(*) FROM tc_ledger l WHERE l.idempotency_key = 'kuji_draw:' || d.draw_id) <> 1
                       OR (SELECT -sum(l.delta) FROM tc_ledger l WHERE l.idempotency_key = 'kuji_draw:' || d.draw_id) <> d.price_total)) AS bad,
              (SELECT count(*)::int FROM (SELECT user_id, request_id FROM kuji_draws WHERE user_id = ANY($1::int[])
                                           GROUP BY user_id, request_id HAVING count(*) > 1) x) AS twice,
              (SELECT count(*)::int FROM (SELECT box_id, position FROM kuji_box_tickets WHERE draw_id IS NOT NULL
                                           GROUP BY box_id, position HAVING count(DISTINCT draw_id) > 1) y) AS tickets`,
      [ids],
    );
    const ledger = new Ledger(store, systemClock);
    let ledgerMismatches = 0;
    for (const id of ids) {
      const balance = await ledger.balance(id);
      const rows = await ledger.fromRows(id);
      if (rows.tc_free !== balance.tc_free || rows.tc_toll !== balance.tc_toll) ledgerMismatches += 1;
    }
    return {
      window,
      rounds,
      badDraws: audit!.bad,
      doubleDraws: audit!.twice,
      doubleTickets: audit!.tickets,
      ledgerMismatches,
    };
  } finally {
    await store.close();
  }
}

/** The kuji tickets a player holds (their prize box, through the API): one per draw of one ticket. */
async function ticketsOf(origin: string, p: Player): Promise<number> {
  const body = await ok(origin, 'user/item', as(p, {}), `the prize box of player ${p.user_id}`);
  const list = (body.item_info as { list: { prize_kind: string; prize_count: number }[] }).list;
  return list.filter((x) => x.prize_kind === 'kuji').reduce((n, x) => n + x.prize_count, 0);
}
