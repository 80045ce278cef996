import { DAY_MS, STORAGE_NOTICE_DAYS } from '../constants';
import { startOfJstWeek } from '../time/jst';
import { deadlineStep, nextDeadlineEventAt, type DeadlineStep } from '../time/deadline-notice.rule';
import type { Flag } from '../catalogue/prize.entity';
import { deliveryCharge, type DeliveryCharge } from './delivery-fee.rule';
import { isOrderMadeDeliveryFlagged } from './delivery.rule';
import {
  PRIZE_STATE_GROUP,
  type DeliveryGroup,
  type DeliveryLine,
  type PrizeDeliveryStatus,
  type WonPrize,
} from './delivery.entity';

/** The prize box list of a prize state [R4.5-1]; a state this client does not know counts as invalid. */
export function prizeGroup(status: PrizeDeliveryStatus | string): DeliveryGroup {
  return (PRIZE_STATE_GROUP as Readonly<Record<string, DeliveryGroup>>)[status] ?? 'invalid';
}

/**
 * The prize box's lists [R4.5-1]: before (not requested yet), after (requested, on its way or
 * arrived; a digital prize is there from the start) and invalid (expired, cancelled, returned).
 */
export function groupPrizes<T extends Pick<WonPrize, 'delivery_status' | 'prize_type'>>(
  prizes: readonly T[],
): Readonly<Record<DeliveryGroup, readonly T[]>> {
  const groupOf = (p: T): DeliveryGroup =>
    p.prize_type === 'digital' && p.delivery_status === 'not_requested' ? 'after' : prizeGroup(p.delivery_status);
  return {
    before: prizes.filter((p) => groupOf(p) === 'before'),
    after: prizes.filter((p) => groupOf(p) === 'after'),
    invalid: prizes.filter((p) => groupOf(p) === 'invalid'),
  };
}

/** Whether the player may ask to ship the prize now: not requested yet, not expired, not digital. */
export function isDeliverable(prize: Pick<WonPrize, 'delivery_status' | 'prize_type'>): boolean {
  return prize.delivery_status === 'not_requested' && prize.prize_type !== 'digital';
}

/**
 * The fee lines of some prizes [R9-1]: crane and virtual-crane prizes count as (normal) cranes,
 * order-made prizes one each, kuji prizes by their prize_count (15 to a parcel).
 */
export function deliveryLinesOf(
  prizes: readonly Pick<WonPrize, 'prize_kind' | 'prize_count'>[],
): readonly DeliveryLine[] {
  const count = (kinds: readonly WonPrize['prize_kind'][], by: (p: (typeof prizes)[number]) => number) =>
    prizes.filter((p) => kinds.includes(p.prize_kind)).reduce((n, p) => n + by(p), 0);
  return [
    { kind: 'crane', count: count(['crane', 'virtual'], () => 1) },
    { kind: 'orderMade', count: count(['order_made'], () => 1) },
    { kind: 'kuji', count: count(['kuji'], (p) => p.prize_count) },
  ];
}

/** The charge to ship these prizes [R9-1, R5-3]: one delivery ticket waives it when cranes are among them. */
export function chargeOfPrizes(
  prizes: readonly Pick<WonPrize, 'prize_kind' | 'prize_count'>[],
  hasDeliveryTicket: boolean,
): DeliveryCharge {
  return deliveryCharge(deliveryLinesOf(prizes), hasDeliveryTicket);
}

/** An order-made item the player would leave partly behind [R5-4]. */
export interface OrderMadeShortfall {
  readonly product_name: string;
  readonly unsent: number;
  readonly chosen: number;
}

/**
 * The order-made delivery check [R5-4], per item (product_name): flagged when the item's unsent
 * list is longer than the count chosen for this request, so the player is told before confirming.
 * Items none of which is chosen are not flagged (the player is not shipping that item now).
 */
export function orderMadeShortfalls(
  unsent: readonly Pick<WonPrize, 'play_history_id' | 'prize_kind' | 'product_name'>[],
  chosenIds: ReadonlySet<number>,
): readonly OrderMadeShortfall[] {
  const items = new Map<string, { unsent: number[]; chosen: number }>();
  for (const p of unsent) {
    if (p.prize_kind !== 'order_made') continue;
    const item = items.get(p.product_name) ?? { unsent: [], chosen: 0 };
    item.unsent.push(p.play_history_id);
    if (chosenIds.has(p.play_history_id)) item.chosen += 1;
    items.set(p.product_name, item);
  }
  return [...items]
    .filter(([, i]) => i.chosen > 0 && isOrderMadeDeliveryFlagged(i.unsent, i.chosen))
    .map(([product_name, i]) => ({ product_name, unsent: i.unsent.length, chosen: i.chosen }));
}

// ---- storage period [R10-5] --------------------------------------------------------------------

/** The end of a prize's storage period: `days` after it was won [R10-5]. */
export function storageDeadline(wonAtMs: number, days: number): number {
  return wonAtMs + days * DAY_MS;
}

/** Whole days left before the storage period ends, rounded up (0 once it has ended). */
export function storageDaysLeft(keepUntilMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((keepUntilMs - nowMs) / DAY_MS));
}

/** What the storage deadline asks of a prize now. */
export type StorageStep = DeadlineStep<(typeof STORAGE_NOTICE_DAYS)[number]>;

/**
 * The storage step due for a prize not yet requested [R10-5]: at the end, the lapse; before it, the
 * nearest notice (7 days, then 1 day before) not yet given (deadlineStep).
 */
export function storageStep(keepUntilMs: number, nowMs: number, noticesGiven: readonly number[]): StorageStep {
  return deadlineStep(keepUntilMs, nowMs, noticesGiven, STORAGE_NOTICE_DAYS);
}

/** The next instant the storage deadline asks something of a prize (a notice or the lapse) [R10-5]. */
export function nextStorageEventAt(keepUntilMs: number, noticesGiven: readonly number[]): number {
  return nextDeadlineEventAt(keepUntilMs, noticesGiven, STORAGE_NOTICE_DAYS);
}

/**
 * What happens to prizes whose storage period ended [R10-5]: they are requested to the main
 * address when one is complete and the charge can be met (a free-delivery ticket waives it, or the
 * TC balance covers it); otherwise they become invalid.
 */
export function lapseOutcome(input: {
  readonly mainAddressComplete: boolean;
  readonly charge: DeliveryCharge;
  readonly tcBalance: number;
}): 'request' | 'expire' {
  if (!input.mainAddressComplete) return 'expire';
  return input.charge.feeTc <= input.tcBalance ? 'request' : 'expire';
}

// ---- the weekly free-delivery ticket [R10-6] ---------------------------------------------------

/** Monday 00:00 Asia/Tokyo of the week that contains `nowMs`: the week's grant instant [R10-6]. */
export function deliveryTicketWeek(nowMs: number): number {
  return startOfJstWeek(nowMs);
}

/**
 * Whether this week's free-delivery ticket is due [R10-6]: one per week, granted at Monday 00:00
 * JST, and only when the player held none at that moment (at most one is held).
 */
export function weeklyTicketDue(input: {
  readonly grantedThisWeek: boolean;
  readonly heldAtWeekStart: boolean;
}): boolean {
  return !input.grantedThisWeek && !input.heldAtWeekStart;
}

/** Whether the prize box has something new (prize, kuji, order-made, digital or direct unread flags). */
export function hasUnreadPrize(unread: {
  readonly prize: Flag;
  readonly kuji: Flag;
  readonly order_made_prize: Flag;
  readonly digital: Flag;
  readonly direct: Flag;
}): boolean {
  return [unread.prize, unread.kuji, unread.order_made_prize, unread.digital, unread.direct].some((f) => f === 1);
}
