import type { AddressRecord, Flag } from '../../domain';
import type { PayMethodId, PrizeDeliveryStatus, UnreadKind, WonPrize } from '../../contract';
import type { InMemoryBackend } from './in-memory-backend';

/** A stored address: the wire record plus its owner. */
export interface StoredAddress extends AddressRecord {
  readonly user_id: number;
}

export interface StoredCode {
  readonly id: number;
  readonly user_id: number;
  readonly purpose: 'email' | 'tel';
  readonly target: string;
  readonly code: string;
  readonly created_at: number;
  readonly expires_at: number;
  used: boolean;
}

export interface OutboxRow {
  readonly message_id: number;
  readonly user_id: number;
  readonly channel: 'email' | 'sms';
  readonly recipient: string;
  readonly subject: string;
  readonly body: string;
  readonly created_at: string;
}

export interface PresentCodeRow {
  readonly code: string;
  readonly kind: 'tc_free' | 'ticket';
  readonly amount: number;
  readonly starts_at: string;
  readonly ends_at: string;
}

export interface TcProductRow {
  readonly product_id: number;
  readonly product_name: string;
  readonly price: number;
  readonly toll_tc: number;
  readonly free_tc: number;
  readonly bonus_ticket: number;
  readonly is_sale: boolean;
}

export interface SettlementRow {
  readonly product_settlement_id: string;
  readonly user_id: number;
  readonly product_id: number;
  readonly pay_method: PayMethodId;
  readonly price: number;
  readonly toll_tc: number;
  readonly free_tc: number;
  readonly request_id: string | null;
  readonly status: 'completed';
  readonly created_at: string;
  readonly completed_at: string;
}

/** A won prize and, once requested, its delivery (the address copied onto the request). */
export interface StoredPrize {
  readonly user_id: number;
  readonly prize: Omit<WonPrize, 'delivery_status'>;
  delivery: {
    status: Exclude<PrizeDeliveryStatus, 'not_requested'>;
    address: { first_name: string; last_name: string; zip: string; address1: string; address2: string; address3: string; tel: string; email: string | null };
    contact_number: string | null;
    shipped_at: string | null;
  } | null;
}

/** The seed's present codes (server/store/migrations/011_wallet.sql). */
export const SEED_PRESENT_CODES: readonly PresentCodeRow[] = [
  { code: 'WELCOME500', kind: 'tc_free', amount: 500, starts_at: '2024-01-01T00:00:00+09:00', ends_at: '2099-12-31T23:59:59+09:00' },
  { code: 'TICKET3', kind: 'ticket', amount: 3, starts_at: '2024-01-01T00:00:00+09:00', ends_at: '2099-12-31T23:59:59+09:00' },
  { code: 'EXPIRED100', kind: 'tc_free', amount: 100, starts_at: '2020-01-01T00:00:00+09:00', ends_at: '2020-12-31T23:59:59+09:00' },
];

/** The seed's TC products (server/store/migrations/011_wallet.sql), in display order. */
export const SEED_TC_PRODUCTS: readonly TcProductRow[] = [
  { product_id: 1, product_name: '500TC', price: 500, toll_tc: 500, free_tc: 0, bonus_ticket: 0, is_sale: false },
  { product_id: 2, product_name: '1,000TC', price: 1000, toll_tc: 1000, free_tc: 50, bonus_ticket: 0, is_sale: false },
  { product_id: 3, product_name: '3,000TC', price: 3000, toll_tc: 3000, free_tc: 300, bonus_ticket: 0, is_sale: false },
  { product_id: 4, product_name: '5,000TC', price: 5000, toll_tc: 5000, free_tc: 750, bonus_ticket: 1, is_sale: false },
  { product_id: 5, product_name: '10,000TC', price: 10000, toll_tc: 10000, free_tc: 2000, bonus_ticket: 2, is_sale: true },
  { product_id: 6, product_name: '30,000TC', price: 30000, toll_tc: 30000, free_tc: 7500, bonus_ticket: 5, is_sale: false },
  { product_id: 7, product_name: '50,000TC', price: 50000, toll_tc: 50000, free_tc: 15000, bonus_ticket: 10, is_sale: false },
];

/**
 * The state of the account, auth, wallet and delivery fakes, kept per backend (so every container
 * over one backend sees the same data, as every client of one server does).
 */
export class AccountState {
  readonly addresses: StoredAddress[] = [];
  readonly codes: StoredCode[] = [];
  readonly outbox: OutboxRow[] = [];
  readonly presentCodes: PresentCodeRow[] = [...SEED_PRESENT_CODES];
  readonly redemptions = new Set<string>();
  readonly ticketLedger: { readonly user_id: number; readonly amount: number; readonly reason: string }[] = [];
  readonly inviteCodes = new Map<number, string>();
  readonly products: TcProductRow[] = [...SEED_TC_PRODUCTS];
  readonly settlements: SettlementRow[] = [];
  readonly prizes: StoredPrize[] = [];
  readonly additionals = new Map<number, Record<'tutorial_top' | 'tutorial_play', Flag>>();
  readonly unread = new Map<number, Set<UnreadKind>>();
  readonly debugUsers = new Map<string, number>();
  /** Failed attempts per key (login e-mail, code per user and purpose), as epoch ms. */
  readonly failures = new Map<string, number[]>();
  private sequence = 0;

  nextId(): number {
    this.sequence += 1;
    return this.sequence;
  }

  tickets(userId: number): number {
    return this.ticketLedger.filter((r) => r.user_id === userId).reduce((sum, r) => sum + r.amount, 0);
  }

  creditTickets(userId: number, amount: number, reason: string): void {
    this.ticketLedger.push({ user_id: userId, amount, reason });
  }

  /** True when `key` has `max` failures within the last `windowMs` (the server's AttemptLimiter). */
  isBlocked(key: string, max: number, windowMs: number, now: number): boolean {
    return (this.failures.get(key) ?? []).filter((t) => t > now - windowMs).length >= max;
  }

  recordFailure(key: string, now: number): void {
    this.failures.set(key, [...(this.failures.get(key) ?? []), now]);
  }

  resetFailures(key: string): void {
    this.failures.delete(key);
  }
}

const states = new WeakMap<InMemoryBackend, AccountState>();

/** The account state of a backend, made on first use. */
export function accountStateOf(backend: InMemoryBackend): AccountState {
  let state = states.get(backend);
  if (!state) {
    state = new AccountState();
    states.set(backend, state);
  }
  return state;
}
