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
