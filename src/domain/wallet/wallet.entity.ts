import { formatThousands } from '../text/number-format';
import { DOMAIN_MESSAGES } from '../messages';
import type { PayMethod } from './pay-method.rule';

/** TC balance (spec §3 "TC info"): tc_all = tc_free + tc_toll [R1-2]. */
export interface TcInfo {
  readonly tc_all: number;
  readonly tc_free: number;
  readonly tc_toll: number;
}

/** Free TC that ends at one instant [R11-7]: how much, and when (ISO time; 24:00 JST of its last day). */
export interface FreeTcExpiring {
  readonly amount: number;
  readonly expires_at: string;
}

/** The day's free play as the player holds it [R11-8]. */
export interface DailyFreePlayInfo {
  /** 1 while today's free play is there to use (at a ticket station). */
  readonly available: 0 | 1;
  /** 'YYYY-MM-DD', the Japanese day it belongs to. */
  readonly day: string;
  /** ISO time it ends: 24:00 JST that day. */
  readonly expires_at: string;
}

/** The largest amount one ledger entry may move (a charge larger than this is refused before it is tried). */
export const MAX_LEDGER_AMOUNT = 100_000_000;

/** Tickets, counted apart from TC [R1-2]. */
export interface TicketInfo {
  readonly ticket_all: number;
}

/** The TC balance from its free and paid portions [R1-2]. Throws RangeError for a negative or fractional portion. */
export function tcInfo(tc_free: number, tc_toll: number): TcInfo {
  for (const v of [tc_free, tc_toll]) {
    if (!Number.isSafeInteger(v) || v < 0)
      throw new RangeError(`TC portions are whole, non-negative numbers (got ${v})`);
  }
  return { tc_all: tc_free + tc_toll, tc_free, tc_toll };
}

/** Whether an answer's tc_all agrees with its portions [R1-2]. */
export function isTcInfoConsistent(info: TcInfo): boolean {
  return info.tc_all === info.tc_free + info.tc_toll;
}

/** A TC product (spec §3 "Products"): paid TC plus free bonus TC [R3-11]. */
export interface Product {
  readonly toll_tc: number;
  readonly free_tc: number;
}

/** A product with its derived labels. */
export interface LabelledProduct extends Product {
  /** '1,000ボーナス', or null when the product carries no free TC. */
  readonly bonusLabel: string | null;
}

/** Bonus label: the free TC with thousands separators plus 'ボーナス' [R9-7]; null for no bonus. */
export function bonusLabel(free_tc: number): string | null {
  return free_tc > 0 ? `${formatThousands(free_tc)}${DOMAIN_MESSAGES.bonusSuffix}` : null;
}

/** Adds the derived labels to a product [R3-11]. */
export function labelProduct(product: Product): LabelledProduct {
  return { ...product, bonusLabel: bonusLabel(product.free_tc) };
}

/** A pay method as the service lists it: the domain's PayMethod plus the id a purchase names. */
export interface PayMethodOption extends PayMethod {
  readonly id: string;
}

/** A TC product on sale [R3-11] with its bonus label [R9-7]. */
export interface TcProduct extends LabelledProduct {
  readonly productId: number;
  readonly productName: string;
  /** Price in yen. */
  readonly price: number;
  readonly isSale: boolean;
}

export type SettlementStatus = 'pending' | 'completed' | 'failed' | 'cancelled';

/** One purchase attempt and how it stands. */
export interface Settlement {
  readonly productSettlementId: string;
  readonly productId: number;
  readonly payMethod: string;
  readonly price: number;
  readonly tollTc: number;
  readonly freeTc: number;
  /** Bonus tickets the purchase adds. */
  readonly bonusTicket: number;
  readonly status: SettlementStatus;
  readonly createdAt: string;
  readonly completedAt: string | null;
  /** A pending settlement not paid by then ends as cancelled. */
  readonly expiresAt: string;
  /** The provider's page where the player pays (same origin), while pending; null once ended. */
  readonly paymentUrl: string | null;
  /** Why a failed or cancelled settlement ended so: the provider's or the service's Japanese text. */
  readonly failureInfo: string | null;
}

/** The player's own monthly spending limit and this month's caps (yen) [R10-3]. */
export interface SpendingLimitInfo {
  readonly limitYen: number | null;
  readonly pending: { readonly limitYen: number | null; readonly effectiveAt: string } | null;
  readonly minorLimitYen: number | null;
  readonly capYen: number | null;
  readonly spentYen: number;
  readonly remainingYen: number | null;
}

/** One operation of the TC used history: free and paid TC apart, signed. */
export interface TcHistoryEntry {
  readonly id: string;
  readonly reason: string;
  readonly reference: string | null;
  readonly freeDelta: number;
  readonly tollDelta: number;
  readonly balanceAfter: number;
  readonly createdAt: string;
  /** A free credit's lot end (ISO) [R11-7]; null: it never ends; absent: no free TC credited. */
  readonly freeExpiresAt?: string | null;
}

/** A free TC lot still holding TC [R11-7]. */
export interface FreeTcLot {
  readonly lotId: number;
  /** What it was credited with. */
  readonly amount: number;
  readonly remaining: number;
  /** ISO time of its end (24:00 JST of its last day); null: credited before lots existed, it never ends. */
  readonly expiresAt: string | null;
  /** What credited it (purchase, present_code, refund…). */
  readonly reason: string;
  readonly createdAt: string;
}
