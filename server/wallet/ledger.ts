import type { SqlExecutor, Store } from '../store/store';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import {
  freeTcExpiresAt,
  FREE_TC_EXPIRY_DAYS,
  isLotLive,
  MAX_LEDGER_AMOUNT,
  refundedLotEnd,
  takeFromLots,
  type FreeLot,
} from '../../src/domain';

/** The two halves of a TC balance: free (bonus, presents) and toll (bought). */
export type TcKind = 'free' | 'toll';

export interface TcBalance {
  readonly tc_all: number;
  readonly tc_free: number;
  readonly tc_toll: number;
}

/** Why a ledger row exists; lower-case snake words (the table checks the shape). */
export type LedgerReason =
  | 'purchase'
  | 'present_code'
  | 'invite'
  | 'debug_grant'
  | 'play'
  | 'kuji'
  | 'delivery_fee'
  | 'refund'
  | 'expiry'
  | 'admin'
  | (string & {});

/** One operation of the TC used history. */
export interface LedgerHistoryEntry {
  readonly id: string;
  readonly reason: string;
  readonly reference: string | null;
  readonly free_delta: number;
  readonly toll_delta: number;
  readonly balance_after: number;
  readonly created_at: string;
  /** A free credit's lot end [R11-7] (the earliest, when it made several); null: no end; absent: no free credit. */
  readonly free_expires_at?: string | null;
}

export interface LedgerEntry {
  /** Positive whole amount. */
  readonly amount: number;
  readonly reason: LedgerReason;
  /** What the row is about, e.g. a settlement id or play id. */
  readonly reference?: string | null;
  /**
   * Unique per user: a second call with the same key changes nothing and answers the first
   * result, so a retried request can never credit or spend twice.
   */
  readonly idempotencyKey: string;
  /**
   * A free credit's lot end [R11-7]: by default 24:00 JST of the configured day (90); null for a lot
   * that never ends (only what was held before lots existed, and refunds of what it paid).
   */
  readonly freeExpiresAt?: Date | null;
}

/** A live free TC lot as the player sees it [R11-7]. */
export interface FreeLotView {
  readonly lot_id: number;
  readonly amount: number;
  readonly remaining: number;
  /** ISO time of its end; null: it never ends. */
  readonly expires_at: string | null;
  readonly reason: string;
  readonly created_at: string;
}

export interface LedgerOptions {
  /** FREE_TC_EXPIRY_DAYS: the day (the credit's being the first) at whose 24:00 JST a free lot ends. */
  readonly freeTcDays?: number;
}

export interface DebitResult {
  readonly balance: TcBalance;
  /** How much came from each half (free first, then toll). */
  readonly taken: { readonly free: number; readonly toll: number };
  /** True when the idempotency key had been used: nothing new was written. */
  readonly replayed: boolean;
}

/** Thrown by a debit larger than the balance; nothing is written. Answered as error_code 402. */
/** An idempotency key reused for a different ledger change; nothing is written. */
export class IdempotencyConflictError extends Error {
  override readonly name = 'IdempotencyConflictError';
  readonly code = 409;
  readonly info = SERVER_MESSAGES.idempotencyConflict;
  constructor(readonly key: string) {
    super(`idempotency key ${key} was used for a different ledger change`);
  }
}
export const isIdempotencyConflictError = (e: unknown): e is IdempotencyConflictError =>
  e instanceof Error && e.name === 'IdempotencyConflictError';

export class InsufficientFundsError extends Error {
  override readonly name = 'InsufficientFundsError';
  readonly code = 402;
  /** Japanese error_info for the player. */
  readonly info: string;
  constructor(
    readonly needed: number,
    readonly available: number,
    unit: string = 'TC',
  ) {
    super(`insufficient ${unit}: needed ${needed}, available ${available}`);
    this.info = SERVER_MESSAGES.insufficient(unit, needed, available);
  }
}
export const isInsufficientFundsError = (e: unknown): e is InsufficientFundsError =>
  e instanceof Error && e.name === 'InsufficientFundsError';

/** Thrown for an amount that is not a positive safe integer within MAX_LEDGER_AMOUNT. */
export class InvalidLedgerAmountError extends Error {
  override readonly name = 'InvalidLedgerAmountError';
}

export { MAX_LEDGER_AMOUNT };

interface WalletRow {
  tc_free: number;
  tc_toll: number;
  ticket: number;
}

const toBalance = (w: WalletRow): TcBalance => ({
  tc_all: w.tc_free + w.tc_toll,
  tc_free: w.tc_free,
  tc_toll: w.tc_toll,
});

function checkEntry(entry: LedgerEntry): void {
  if (!Number.isSafeInteger(entry.amount) || entry.amount <= 0 || entry.amount > MAX_LEDGER_AMOUNT)
    throw new InvalidLedgerAmountError(`bad amount ${entry.amount}`);
  if (entry.idempotencyKey.length === 0 || entry.idempotencyKey.length > 200)
    throw new InvalidLedgerAmountError('bad idempotency key');
}

/**
 * TC and tickets as ledgers: every change is one row in tc_ledger / ticket_ledger, and the user's
 * wallets row holds the running balance, updated in the same transaction (CHECK >= 0).
 *
 * Concurrency: each operation first locks the user's wallets row (`SELECT … FOR UPDATE`), then
 * checks the idempotency key, then writes. On PostgreSQL two spends of one user therefore run one
 * after the other and neither can take the balance below zero or lose a row; PGlite serialises
 * transactions anyway. Spending order: free TC first, then toll TC (bought TC is kept longest,
 * which is what a refund or a VIP purchase check needs).
 *
 * Every method takes an optional transaction so a caller can join the ledger to its own writes
 * (a settlement row, a play); without one it opens its own.
 */
export class Ledger {
  private readonly freeTcDays: number;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    options: LedgerOptions = {},
  ) {
    this.freeTcDays = options.freeTcDays ?? FREE_TC_EXPIRY_DAYS;
  }

  /** Adds `entry.amount` TC of one kind; free TC as a new lot with its end [R11-7]. */
  async credit(userId: number, kind: TcKind, entry: LedgerEntry, tx?: SqlExecutor): Promise<TcBalance> {
    checkEntry(entry);
    return this.inTx(tx, async (q) => {
      const wallet = await this.lock(q, userId);
      // The key is unique per kind, so one operation may credit both halves with the same key.
      const done = await q.query('SELECT 1 FROM tc_ledger WHERE user_id = $1 AND idempotency_key = $2 AND kind = $3', [
        userId,
        entry.idempotencyKey,
        kind,
      ]);
      if (done.length > 0) return toBalance(wallet);
      const column = kind === 'free' ? 'tc_free' : 'tc_toll';
      const after = wallet[column] + entry.amount;
      const entryId = await this.insertTc(q, userId, kind, entry.amount, after, entry);
      if (kind === 'free') {
        const now = this.clock.now();
        const ends =
          entry.freeExpiresAt === undefined
            ? new Date(freeTcExpiresAt(now.getTime(), this.freeTcDays))
            : entry.freeExpiresAt;
        await this.newLot(q, userId, entryId, entry.amount, ends, String(entry.reason));
      }
      const next = { ...wallet, [column]: after };
      await this.saveWallet(q, userId, next);
      return toBalance(next);
    });
  }

  /**
   * Spends `entry.amount` TC: the live free lots, earliest-ending first, then toll [R11-7]. Lots whose
   * end has come are expired first (in this transaction), so a spend never takes lapsed TC. Throws
   * InsufficientFundsError (nothing written).
   */
  async debit(userId: number, entry: LedgerEntry, tx?: SqlExecutor): Promise<DebitResult> {
    checkEntry(entry);
    return this.inTx(tx, async (q) => {
      const locked = await this.lock(q, userId);
      const previous = await q.query<{ kind: TcKind; delta: number }>(
        'SELECT kind, delta FROM tc_ledger WHERE user_id = $1 AND idempotency_key = $2',
        [userId, entry.idempotencyKey],
      );
      if (previous.length > 0) {
        const taken = { free: 0, toll: 0 };
        for (const row of previous) taken[row.kind] += -row.delta;
        // A replay is the same debit again: a key used by a credit, or for another amount, is a conflict.
        if (previous.some((row) => row.delta >= 0) || taken.free + taken.toll !== entry.amount)
          throw new IdempotencyConflictError(entry.idempotencyKey);
        return { balance: toBalance(locked), taken, replayed: true };
      }
      const { wallet } = await this.expireLocked(q, userId, locked);
      const available = wallet.tc_free + wallet.tc_toll;
      if (available < entry.amount) throw new InsufficientFundsError(entry.amount, available);
      const lots = await this.lockedLots(q, userId, wallet);
      const { takes, free, toll } = takeFromLots(lots, entry.amount, this.clock.now().getTime());
      const next = { ...wallet, tc_free: wallet.tc_free - free, tc_toll: wallet.tc_toll - toll };
      if (free > 0) {
        const entryId = await this.insertTc(q, userId, 'free', -free, next.tc_free, entry);
        for (const take of takes) await this.moveLot(q, entryId, take.lotId, -take.amount);
      }
      if (toll > 0) await this.insertTc(q, userId, 'toll', -toll, next.tc_toll, entry);
      await this.saveWallet(q, userId, next);
      return { balance: toBalance(next), taken: { free, toll }, replayed: false };
    });
  }

  /**
   * Gives back what the spend under `originalKey` took [R11-7]: its paid TC, and its free TC into the
   * very lots it came from — a lot still live keeps its end; a lot that has lapsed since comes back
   * as a new lot valid REFUNDED_LOT_DAYS; free TC spent before lots existed comes back without an
   * end. Idempotent on `entry.idempotencyKey`; a spend that wrote nothing refunds nothing.
   */
  async refund(
    userId: number,
    originalKey: string,
    entry: Omit<LedgerEntry, 'amount' | 'freeExpiresAt'>,
    tx?: SqlExecutor,
  ): Promise<{ readonly free: number; readonly toll: number; readonly replayed: boolean }> {
    checkEntry({ ...entry, amount: 1 });
    return this.inTx(tx, async (q) => {
      const wallet = await this.lock(q, userId);
      const sums = (rows: readonly { kind: TcKind; delta: number }[], sign: 1 | -1) => ({
        free: rows.filter((r) => r.kind === 'free').reduce((n, r) => n + sign * r.delta, 0),
        toll: rows.filter((r) => r.kind === 'toll').reduce((n, r) => n + sign * r.delta, 0),
      });
      const done = await q.query<{ kind: TcKind; delta: number }>(
        'SELECT kind, delta FROM tc_ledger WHERE user_id = $1 AND idempotency_key = $2',
        [userId, entry.idempotencyKey],
      );
      if (done.length > 0) return { ...sums(done, 1), replayed: true };
      const spent = await q.query<{ entry_id: string; kind: TcKind; delta: number }>(
        'SELECT entry_id, kind, delta FROM tc_ledger WHERE user_id = $1 AND idempotency_key = $2 AND delta < 0',
        [userId, originalKey],
      );
      const { free, toll } = sums(spent, -1);
      const next = { ...wallet, tc_free: wallet.tc_free + free, tc_toll: wallet.tc_toll + toll };
      if (toll > 0) await this.insertTc(q, userId, 'toll', toll, next.tc_toll, { ...entry, amount: toll });
      if (free > 0) {
        const entryId = await this.insertTc(q, userId, 'free', free, next.tc_free, { ...entry, amount: free });
        const taken = await q.query<{
          lot_id: string;
          amount: number;
          expires_at: Date | string | null;
          expired_at: Date | string | null;
        }>(
          `SELECT m.lot_id, -m.delta AS amount, l.expires_at, l.expired_at
             FROM tc_lot_moves m JOIN tc_free_lots l ON l.lot_id = m.lot_id
            WHERE m.entry_id = ANY($1::bigint[]) AND m.delta < 0 ORDER BY m.lot_id FOR UPDATE OF l`,
          [spent.filter((r) => r.kind === 'free').map((r) => r.entry_id)],
        );
        const now = this.clock.now().getTime();
        // What comes back into new lots, by their end (a lapsed lot's share all ends alike).
        const fresh = new Map<number | null, number>();
        for (const t of taken) {
          const end = refundedLotEnd(
            {
              expiresAtMs: t.expires_at === null ? null : new Date(t.expires_at).getTime(),
              expired: t.expired_at !== null,
            },
            now,
          );
          if (end.into === 'same') await this.moveLot(q, entryId, t.lot_id, t.amount);
          else fresh.set(end.expiresAtMs, (fresh.get(end.expiresAtMs) ?? 0) + t.amount);
        }
        for (const [ends, amount] of fresh)
          await this.newLot(q, userId, entryId, amount, ends === null ? null : new Date(ends), String(entry.reason));
        const unlotted = free - taken.reduce((n, t) => n + t.amount, 0);
        if (unlotted > 0) await this.newLot(q, userId, entryId, unlotted, null, String(entry.reason));
      }
      if (free > 0 || toll > 0) await this.saveWallet(q, userId, next);
      return { free, toll, replayed: false };
    });
  }

  /**
   * Expires this user's free lots whose end has come [R11-7]: one ledger row per lot (key
   * `expire:lot:<id>`), the lot emptied and marked, in one transaction under the wallet lock — so each
   * lot expires once, whichever instance, job or spend gets there first. Answers what expired.
   */
  async expireDue(userId: number, tx?: SqlExecutor): Promise<{ readonly lots: number; readonly amount: number }> {
    return this.inTx(tx, async (q) => {
      const { lots, amount } = await this.expireLocked(q, userId, await this.lock(q, userId));
      return { lots, amount };
    });
  }

  /** The user's live free lots (something left, end not come), the earliest end first [R11-7]. */
  async freeLots(userId: number, tx?: SqlExecutor): Promise<FreeLotView[]> {
    const rows = await (tx ?? this.db).query<{
      lot_id: string;
      amount: number;
      remaining: number;
      expires_at: Date | string | null;
      reason: string;
      created_at: Date | string;
    }>(
      `SELECT lot_id, amount, remaining, expires_at, reason, created_at FROM tc_free_lots
        WHERE user_id = $1 AND remaining > 0 AND expired_at IS NULL AND (expires_at IS NULL OR expires_at > $2)
        ORDER BY expires_at NULLS LAST, lot_id`,
      [userId, this.clock.now().toISOString()],
    );
    return rows.map((r) => ({
      lot_id: Number(r.lot_id),
      amount: r.amount,
      remaining: r.remaining,
      expires_at: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
      reason: r.reason,
      created_at: new Date(r.created_at).toISOString(),
    }));
  }

  /** The user's TC balance [R1-2]: tc_all = tc_free + tc_toll. A user with no rows has 0. */
  async balance(userId: number, tx?: SqlExecutor): Promise<TcBalance> {
    const [row] = await (tx ?? this.db).query<WalletRow>(
      'SELECT tc_free, tc_toll, ticket FROM wallets WHERE user_id = $1',
      [userId],
    );
    return toBalance(row ?? { tc_free: 0, tc_toll: 0, ticket: 0 });
  }

  /** Adds tickets (ticket_ledger). */
  /**
   * The TC used history: one entry per operation (the rows under one idempotency key: a purchase's
   * toll and free credits, a spend across both halves), newest first, `pageSize` per page.
   */
  async history(
    userId: number,
    page: number,
    pageSize: number,
  ): Promise<{ list: LedgerHistoryEntry[]; page: number; has_more: 0 | 1 }> {
    const rows = await this.db.query<{
      id: string;
      reason: string;
      reference: string | null;
      free_delta: number;
      toll_delta: number;
      last_entry: string;
      created_at: Date | string;
    }>(
      `SELECT idempotency_key AS id, min(reason) AS reason, min(reference) AS reference,
              coalesce(sum(delta) FILTER (WHERE kind = 'free'), 0)::int AS free_delta,
              coalesce(sum(delta) FILTER (WHERE kind = 'toll'), 0)::int AS toll_delta,
              max(entry_id) AS last_entry, max(created_at) AS created_at
         FROM tc_ledger WHERE user_id = $1
        GROUP BY idempotency_key ORDER BY max(entry_id) DESC LIMIT $2 OFFSET $3`,
      [userId, pageSize + 1, (page - 1) * pageSize],
    );
    const shown = rows.slice(0, pageSize);
    // The balance after each operation: both halves as they stood after its last row.
    const balances = await this.db.query<{ entry_id: string; total: number }>(
      `SELECT e.entry_id,
              (SELECT coalesce(sum(delta), 0) FROM tc_ledger x WHERE x.user_id = $1 AND x.entry_id <= e.entry_id)::int AS total
         FROM tc_ledger e WHERE e.user_id = $1 AND e.entry_id = ANY($2::bigint[])`,
      [userId, shown.map((r) => r.last_entry)],
    );
    const after = new Map(balances.map((b) => [String(b.entry_id), b.total]));
    // The end of what each free credit put into lots (a refund may fill lots of several ends).
    const ends = await this.db.query<{ id: string; ends: Date | string | null; open: boolean }>(
      `SELECT e.idempotency_key AS id, min(l.expires_at) AS ends, bool_or(l.expires_at IS NULL) AS open
         FROM tc_ledger e JOIN tc_lot_moves m ON m.entry_id = e.entry_id JOIN tc_free_lots l ON l.lot_id = m.lot_id
        WHERE e.user_id = $1 AND e.kind = 'free' AND e.delta > 0 AND m.delta > 0 AND e.idempotency_key = ANY($2::text[])
        GROUP BY e.idempotency_key`,
      [userId, shown.map((r) => r.id)],
    );
    const endOf = new Map(ends.map((e) => [e.id, e.ends === null ? null : new Date(e.ends).toISOString()] as const));
    return {
      list: shown.map((r) => ({
        id: r.id,
        reason: r.reason,
        reference: r.reference,
        free_delta: r.free_delta,
        toll_delta: r.toll_delta,
        balance_after: after.get(String(r.last_entry)) ?? 0,
        created_at: new Date(r.created_at).toISOString(),
        ...(endOf.has(r.id) ? { free_expires_at: endOf.get(r.id) ?? null } : {}),
      })),
      page,
      has_more: rows.length > pageSize ? 1 : 0,
    };
  }

  async creditTickets(userId: number, entry: LedgerEntry, tx?: SqlExecutor): Promise<number> {
    checkEntry(entry);
    return this.inTx(tx, async (q) => {
      const wallet = await this.lock(q, userId);
      const done = await q.query('SELECT 1 FROM ticket_ledger WHERE user_id = $1 AND idempotency_key = $2', [
        userId,
        entry.idempotencyKey,
      ]);
      if (done.length > 0) return wallet.ticket;
      const after = wallet.ticket + entry.amount;
      await this.insertTicket(q, userId, entry.amount, after, entry);
      await this.saveWallet(q, userId, { ...wallet, ticket: after });
      return after;
    });
  }

  /** Spends tickets. Throws InsufficientFundsError (nothing written). */
  async debitTickets(userId: number, entry: LedgerEntry, tx?: SqlExecutor): Promise<number> {
    checkEntry(entry);
    return this.inTx(tx, async (q) => {
      const wallet = await this.lock(q, userId);
      const done = await q.query('SELECT 1 FROM ticket_ledger WHERE user_id = $1 AND idempotency_key = $2', [
        userId,
        entry.idempotencyKey,
      ]);
      if (done.length > 0) return wallet.ticket;
      if (wallet.ticket < entry.amount)
        throw new InsufficientFundsError(entry.amount, wallet.ticket, SERVER_MESSAGES.ticketItemName);
      const after = wallet.ticket - entry.amount;
      await this.insertTicket(q, userId, -entry.amount, after, entry);
      await this.saveWallet(q, userId, { ...wallet, ticket: after });
      return after;
    });
  }

  /** The user's ticket count (ticket_all). */
  async tickets(userId: number, tx?: SqlExecutor): Promise<number> {
    const [row] = await (tx ?? this.db).query<{ ticket: number }>('SELECT ticket FROM wallets WHERE user_id = $1', [
      userId,
    ]);
    return row?.ticket ?? 0;
  }

  /** Balances recomputed from the rows alone (audit / tests): must equal balance() and tickets(). */
  async fromRows(userId: number): Promise<{ tc_free: number; tc_toll: number; ticket: number }> {
    const [tc] = await this.db.query<{ free: number; toll: number }>(
      `SELECT coalesce(sum(delta) FILTER (WHERE kind = 'free'), 0)::int AS free, coalesce(sum(delta) FILTER (WHERE kind = 'toll'), 0)::int AS toll
         FROM tc_ledger WHERE user_id = $1`,
      [userId],
    );
    const [t] = await this.db.query<{ ticket: number }>(
      'SELECT coalesce(sum(delta), 0)::int AS ticket FROM ticket_ledger WHERE user_id = $1',
      [userId],
    );
    return { tc_free: tc?.free ?? 0, tc_toll: tc?.toll ?? 0, ticket: t?.ticket ?? 0 };
  }

  /**
   * What is wrong with this user's free lots (empty when nothing): the wallet's free TC equals what
   * its lots hold, each lot holds what it carried over plus its moves, no lot holds anything after
   * its expiry or was spent after its end, and each lot has one expiry row at most [R11-7].
   */
  async checkLots(userId: number): Promise<string[]> {
    const problems: string[] = [];
    const [sum] = await this.db.query<{ held: number; wallet: number | null }>(
      `SELECT coalesce((SELECT sum(remaining) FROM tc_free_lots WHERE user_id = $1), 0)::int AS held,
              (SELECT tc_free FROM wallets WHERE user_id = $1) AS wallet`,
      [userId],
    );
    if ((sum?.held ?? 0) !== (sum?.wallet ?? 0)) problems.push(`lots hold ${sum?.held}, the wallet ${sum?.wallet}`);
    const lots = await this.db.query<{ lot_id: string; problem: string }>(
      `SELECT l.lot_id, CASE
          WHEN l.remaining <> l.carried_over + coalesce((SELECT sum(delta) FROM tc_lot_moves m WHERE m.lot_id = l.lot_id), 0)
            THEN 'remaining differs from its moves'
          WHEN l.expired_at IS NOT NULL AND l.remaining <> 0 THEN 'holds TC after its expiry'
          WHEN l.expires_at IS NOT NULL AND EXISTS (
              SELECT 1 FROM tc_lot_moves m JOIN tc_ledger e ON e.entry_id = m.entry_id
               WHERE m.lot_id = l.lot_id AND m.delta < 0 AND e.reason <> 'expiry' AND e.created_at >= l.expires_at)
            THEN 'spent after its end'
          WHEN (SELECT count(*) FROM tc_ledger e WHERE e.user_id = l.user_id AND e.idempotency_key = 'expire:lot:' || l.lot_id) > 1
            THEN 'expired twice'
          ELSE NULL END AS problem
         FROM tc_free_lots l WHERE l.user_id = $1`,
      [userId],
    );
    for (const l of lots) if (l.problem) problems.push(`lot ${l.lot_id}: ${l.problem}`);
    return problems;
  }

  /** The free TC that ends next [R11-7]: the live lots sharing the earliest end, or null. */
  async nextFreeExpiry(userId: number, tx?: SqlExecutor): Promise<{ amount: number; expires_at: string } | null> {
    const [row] = await (tx ?? this.db).query<{ amount: number; expires_at: Date | string }>(
      `SELECT sum(remaining)::int AS amount, expires_at FROM tc_free_lots
        WHERE user_id = $1 AND remaining > 0 AND expired_at IS NULL AND expires_at > $2
        GROUP BY expires_at ORDER BY expires_at LIMIT 1`,
      [userId, this.clock.now().toISOString()],
    );
    return row ? { amount: row.amount, expires_at: new Date(row.expires_at).toISOString() } : null;
  }

  private inTx<T>(tx: SqlExecutor | undefined, work: (q: SqlExecutor) => Promise<T>): Promise<T> {
    return tx ? work(tx) : this.db.transaction(work);
  }

  /** Creates the wallets row if needed and locks it for the rest of the transaction. */
  private async lock(q: SqlExecutor, userId: number): Promise<WalletRow> {
    await q.query('INSERT INTO wallets (user_id, updated_at) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING', [
      userId,
      this.clock.now().toISOString(),
    ]);
    const [row] = await q.query<WalletRow>(
      'SELECT tc_free, tc_toll, ticket FROM wallets WHERE user_id = $1 FOR UPDATE',
      [userId],
    );
    if (!row) throw new Error(`wallet of user ${userId} is missing`);
    return row;
  }

  private async saveWallet(q: SqlExecutor, userId: number, w: WalletRow): Promise<void> {
    await q.query('UPDATE wallets SET tc_free = $2, tc_toll = $3, ticket = $4, updated_at = $5 WHERE user_id = $1', [
      userId,
      w.tc_free,
      w.tc_toll,
      w.ticket,
      this.clock.now().toISOString(),
    ]);
  }

  /** Expires the due lots of a locked wallet; answers the wallet after, and how many lots and TC expired. */
  private async expireLocked(
    q: SqlExecutor,
    userId: number,
    wallet: WalletRow,
  ): Promise<{ wallet: WalletRow; lots: number; amount: number }> {
    const now = this.clock.now().toISOString();
    const due = await q.query<{ lot_id: string; remaining: number }>(
      `SELECT lot_id, remaining FROM tc_free_lots
        WHERE user_id = $1 AND expired_at IS NULL AND expires_at IS NOT NULL AND expires_at <= $2
        ORDER BY expires_at, lot_id FOR UPDATE`,
      [userId, now],
    );
    if (due.length === 0) return { wallet, lots: 0, amount: 0 };
    let free = wallet.tc_free;
    for (const lot of due) {
      if (lot.remaining > 0) {
        free -= lot.remaining;
        const entryId = await this.insertTc(q, userId, 'free', -lot.remaining, free, {
          amount: lot.remaining,
          reason: 'expiry',
          reference: `lot:${lot.lot_id}`,
          idempotencyKey: `expire:lot:${lot.lot_id}`,
        });
        await this.moveLot(q, entryId, lot.lot_id, -lot.remaining);
      }
      await q.query('UPDATE tc_free_lots SET expired_at = $2 WHERE lot_id = $1', [lot.lot_id, now]);
    }
    const next = { ...wallet, tc_free: free };
    await this.saveWallet(q, userId, next);
    return { wallet: next, lots: due.length, amount: wallet.tc_free - free };
  }

  /** The live lots of a locked wallet, locked; they hold exactly its free TC (else the store is corrupt). */
  private async lockedLots(q: SqlExecutor, userId: number, wallet: WalletRow): Promise<FreeLot[]> {
    const rows = await q.query<{ lot_id: string; remaining: number; expires_at: Date | string | null }>(
      `SELECT lot_id, remaining, expires_at FROM tc_free_lots
        WHERE user_id = $1 AND remaining > 0 ORDER BY expires_at NULLS LAST, lot_id FOR UPDATE`,
      [userId],
    );
    const lots = rows.map((r) => ({
      lotId: Number(r.lot_id),
      remaining: r.remaining,
      expiresAtMs: r.expires_at === null ? null : new Date(r.expires_at).getTime(),
    }));
    const held = lots.reduce((n, l) => n + l.remaining, 0);
    const now = this.clock.now().getTime();
    if (held !== wallet.tc_free || lots.some((l) => !isLotLive(l, now)))
      throw new Error(`free TC lots of user ${userId} hold ${held}, the wallet ${wallet.tc_free}`);
    return lots;
  }

  /** A new lot holding `amount`, its credit move under the ledger row `entryId`. */
  private async newLot(
    q: SqlExecutor,
    userId: number,
    entryId: string,
    amount: number,
    expiresAt: Date | null,
    reason: string,
  ): Promise<void> {
    const [lot] = await q.query<{ lot_id: string }>(
      `INSERT INTO tc_free_lots (user_id, amount, remaining, expires_at, reason, created_at)
       VALUES ($1, $2, 0, $3, $4, $5) RETURNING lot_id`,
      [userId, amount, expiresAt?.toISOString() ?? null, reason, this.clock.now().toISOString()],
    );
    await this.moveLot(q, entryId, lot!.lot_id, amount);
  }

  /** Moves TC into (positive) or out of a lot under the ledger row `entryId`: the move and the lot's new remaining. */
  private async moveLot(q: SqlExecutor, entryId: string, lotId: string | number, delta: number): Promise<void> {
    await q.query('INSERT INTO tc_lot_moves (entry_id, lot_id, delta) VALUES ($1, $2, $3)', [entryId, lotId, delta]);
    await q.query('UPDATE tc_free_lots SET remaining = remaining + $2 WHERE lot_id = $1', [lotId, delta]);
  }

  private async insertTc(
    q: SqlExecutor,
    userId: number,
    kind: TcKind,
    delta: number,
    after: number,
    entry: LedgerEntry,
  ): Promise<string> {
    const [row] = await q.query<{ entry_id: string }>(
      `INSERT INTO tc_ledger (user_id, kind, delta, balance_after, reason, reference, idempotency_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING entry_id`,
      [
        userId,
        kind,
        delta,
        after,
        entry.reason,
        entry.reference ?? null,
        entry.idempotencyKey,
        this.clock.now().toISOString(),
      ],
    );
    return String(row!.entry_id);
  }

  private async insertTicket(
    q: SqlExecutor,
    userId: number,
    delta: number,
    after: number,
    entry: LedgerEntry,
  ): Promise<void> {
    await q.query(
      `INSERT INTO ticket_ledger (user_id, delta, balance_after, reason, reference, idempotency_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        userId,
        delta,
        after,
        entry.reason,
        entry.reference ?? null,
        entry.idempotencyKey,
        this.clock.now().toISOString(),
      ],
    );
  }
}
