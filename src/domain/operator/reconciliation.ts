/**
 * The kinds of mismatch the money reconciliation lists (docs/operations.md "Money reconciliation"):
 * the server finds them, the contract carries them, the console names them.
 */
export const RECONCILIATION_MISMATCH_KINDS = [
  'settlement_not_credited',
  'credit_without_settlement',
  'completed_not_paid',
  'paid_not_completed',
  'delivery_fee_not_charged',
  'fee_without_delivery',
  'delivery_refund_over_fee',
] as const;
export type ReconciliationMismatchKind = (typeof RECONCILIATION_MISMATCH_KINDS)[number];

/** What a mismatch's amounts count. */
export const RECONCILIATION_UNITS = ['yen', 'tc', 'ticket'] as const;
export type ReconciliationUnit = (typeof RECONCILIATION_UNITS)[number];

/** One thing that does not add up in a day's money, for a person to look at. */
export interface ReconciliationMismatch {
  readonly kind: ReconciliationMismatchKind;
  /** What it is about: a settlement id, a delivery, a ledger entry's reference. */
  readonly reference: string;
  readonly userId: number | null;
  /** The amount the other side says, and the amount found, in `unit`. */
  readonly expected: number;
  readonly found: number;
  readonly unit: ReconciliationUnit;
}

/** A day's money, each source's totals side by side, and every mismatch. */
export interface ReconciliationReport {
  readonly day: string;
  readonly from: string;
  readonly to: string;
  readonly settlements: {
    readonly completed: { count: number; yen: number; tollTc: number; freeTc: number; tickets: number };
    readonly opened: number;
    readonly failed: number;
    readonly cancelled: number;
  };
  readonly provider: { readonly paid: { count: number; yen: number }; readonly unpaid: number };
  readonly ledger: {
    readonly purchaseTollTc: number;
    readonly purchaseFreeTc: number;
    readonly purchaseTickets: number;
    readonly deliveryFeeTc: number;
  };
  readonly deliveries: { readonly requests: number; readonly feeTc: number; readonly refundedTc: number };
  readonly mismatches: readonly ReconciliationMismatch[];
}
