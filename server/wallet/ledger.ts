import type { SqlExecutor, Store } from '../store/store';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import { MAX_LEDGER_AMOUNT } from '../../src/domain';

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
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
  ) {}

  /** Adds `entry.amount` TC of one kind. */
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
      await this.insertTc(q, userId, kind, entry.amount, after, entry);
      const next = { ...wallet, [column]: after };
      await this.saveWallet(q, userId, next);
      return toBalance(next);
    });
  }

  /** Spends `entry.amount` TC, free first then toll. Throws InsufficientFundsError (nothing written). */
  async debit(userId: number, entry: LedgerEntry, tx?: SqlExecutor): Promise<DebitResult> {
    checkEntry(entry);
    return this.inTx(tx, async (q) => {
      const wallet = await this.lock(q, userId);
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
        return { balance: toBalance(wallet), taken, replayed: true };
      }
      const available = wallet.tc_free + wallet.tc_toll;
      if (available < entry.amount) throw new InsufficientFundsError(entry.amount, available);
      const free = Math.min(wallet.tc_free, entry.amount);
      const toll = entry.amount - free;
      const next = { ...wallet, tc_free: wallet.tc_free - free, tc_toll: wallet.tc_toll - toll };
      if (free > 0) await this.insertTc(q, userId, 'free', -free, next.tc_free, entry);
      if (toll > 0) await this.insertTc(q, userId, 'toll', -toll, next.tc_toll, entry);
      await this.saveWallet(q, userId, next);
      return { balance: toBalance(next), taken: { free, toll }, replayed: false };
    });
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
    return {
      list: shown.map((r) => ({
        id: r.id,
        reason: r.reason,
        reference: r.reference,
        free_delta: r.free_delta,
        toll_delta: r.toll_delta,
        balance_after: after.get(String(r.last_entry)) ?? 0,
        created_at: new Date(r.created_at).toISOString(),
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

  private async insertTc(
    q: SqlExecutor,
    userId: number,
    kind: TcKind,
    delta: number,
    after: number,
    entry: LedgerEntry,
  ): Promise<void> {
    await q.query(
      `INSERT INTO tc_ledger (user_id, kind, delta, balance_after, reason, reference, idempotency_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
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
