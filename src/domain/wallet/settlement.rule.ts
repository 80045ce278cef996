import type { SettlementStatus } from './wallet.entity';

/** How the payment provider says a payment ended (its signed callback) [R10-2]. */
export type ProviderOutcome = 'paid' | 'declined' | 'failed' | 'cancelled';

/** What a provider outcome does to a settlement. */
export type SettlementStep =
  /** pending → completed: credit the TC (and bonus tickets) now, once. */
  | { readonly kind: 'complete' }
  /** pending → failed or cancelled: nothing is credited. */
  | { readonly kind: 'close'; readonly status: 'failed' | 'cancelled' }
  /** The same outcome again (a repeated callback): nothing changes, the provider is told it is done. */
  | { readonly kind: 'repeat' }
  /** An outcome that contradicts how the settlement ended (paid after it expired): nothing changes. */
  | { readonly kind: 'conflict' };

const ENDED_BY: Record<ProviderOutcome, Exclude<SettlementStatus, 'pending'>> = {
  paid: 'completed',
  declined: 'failed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/**
 * A provider callback applied to a settlement in `status` [R10-2]: only a pending settlement moves,
 * and only `paid` credits, so a repeated or late callback can never credit twice. A paid callback
 * for a settlement that already expired (cancelled) is a conflict: nothing is credited and the
 * provider must refund it.
 */
export function settlementStep(status: SettlementStatus, outcome: ProviderOutcome): SettlementStep {
  if (status === 'pending')
    return outcome === 'paid'
      ? { kind: 'complete' }
      : { kind: 'close', status: ENDED_BY[outcome] as 'failed' | 'cancelled' };
  return ENDED_BY[outcome] === status ? { kind: 'repeat' } : { kind: 'conflict' };
}
