import type { StationType } from '../catalogue/prize.entity';
import {
  DAY_MS,
  NORMAL_VIP_LEVEL,
  VIP_EXCLUSIVE_IN_USE_ERROR_CODE,
  VIP_ONLY_ERROR_CODE,
  VIP_PURCHASE_WINDOW_DAYS,
  VIP_REQUIRED_PURCHASE_TC,
  VIP_WEEKLY_LIMIT_ERROR_CODE,
  VIP_WEEKLY_PRIZE_LIMIT,
} from '../constants';
import { DOMAIN_MESSAGES } from '../messages';
import { startOfJstWeek } from '../time/jst';

/** A VIP user has a vip_level above normal [R6-2]. */
export function isVipUser(vip_level: number): boolean {
  return vip_level > NORMAL_VIP_LEVEL;
}

/** The vip_level purchases earn (100,000 TC in 30 days); an operator may grant a higher one. */
export const PURCHASE_VIP_LEVEL = 1;

/**
 * A user's vip_level: the level an operator granted, raised to PURCHASE_VIP_LEVEL while the
 * purchases of the last 30 days qualify [R6-3]. It follows the window: it starts with the purchase
 * that reaches 100,000 TC and ends when purchases slide out of the 30 days.
 */
export function vipLevelOf(grantedLevel: number, purchasesQualify: boolean): number {
  return purchasesQualify ? Math.max(grantedLevel, PURCHASE_VIP_LEVEL) : grantedLevel;
}

/** One TC purchase: how much paid TC, and when (epoch ms). */
export interface TcPurchase {
  readonly toll_tc: number;
  readonly purchasedAtMs: number;
}

/**
 * TC purchased in the rolling window that ends at `nowMs` [R6-3]: purchases at an instant t with
 * now − window < t ≤ now. The window is 30 × 24 hours; Japan has no daylight-saving time, so that
 * is also exactly 30 Japanese calendar days.
 */
export function purchasedTcInWindow(
  purchases: readonly TcPurchase[],
  nowMs: number,
  windowDays: number = VIP_PURCHASE_WINDOW_DAYS,
): number {
  const from = nowMs - windowDays * DAY_MS;
  return purchases.filter((p) => p.purchasedAtMs > from && p.purchasedAtMs <= nowMs).reduce((n, p) => n + p.toll_tc, 0);
}

/** VIP-only stations need at least 100,000 TC purchased in the past 30 days [R6-3]. */
export function qualifiesForVipStations(purchases: readonly TcPurchase[], nowMs: number): boolean {
  return purchasedTcInWindow(purchases, nowMs) >= VIP_REQUIRED_PURCHASE_TC;
}

/**
 * VIP prizes won in the current week [R6-4, R8-3]. The week starts Monday 00:00 Asia/Tokyo (see
 * time/jst.ts for how JST is computed); wins dated after `nowMs` do not count.
 */
export function vipPrizesWonThisWeek(winsAtMs: readonly number[], nowMs: number): number {
  const weekStart = startOfJstWeek(nowMs);
  return winsAtMs.filter((t) => t >= weekStart && t <= nowMs).length;
}

/** Whether the weekly VIP prize limit is reached [R6-4]; the limit is configuration. */
export function hasReachedWeeklyVipLimit(
  winsAtMs: readonly number[],
  nowMs: number,
  limit: number = VIP_WEEKLY_PRIZE_LIMIT,
): boolean {
  return vipPrizesWonThisWeek(winsAtMs, nowMs) >= limit;
}

/** An exclusive VIP station in use blocks every other user [R6-5]; a free one or its own player passes. */
export function isBlockedByExclusivePlay(
  station: { readonly type: StationType },
  occupiedByUserId: number | null,
  userId: number | null,
): boolean {
  return station.type === 'exclusive' && occupiedByUserId !== null && occupiedByUserId !== userId;
}

/** Whether a station is for VIP users only (VIP stations and exclusive VIP stations). */
export function isVipOnlyStation(station: { readonly type: StationType }): boolean {
  return station.type === 'vip' || station.type === 'exclusive';
}

/** What the VIP gate reads. */
export interface VipGateInput {
  readonly station: { readonly type: StationType };
  /** 'view' checks only 569 (the popup says 閲覧・プレイ); 'play' checks all three. */
  readonly action: 'view' | 'play';
  readonly userId: number | null;
  readonly purchases: readonly TcPurchase[];
  readonly vipWinsAtMs: readonly number[];
  /** The user now playing the station, if any. */
  readonly occupiedByUserId: number | null;
  readonly nowMs: number;
  readonly weeklyLimit?: number;
}

/**
 * The VIP gate [R6-3, R6-4, R6-5]: 200 when allowed, otherwise the error code the server answers.
 * Order: 569 (not eligible at all), 570 (already won this week — no point waiting for the station),
 * 571 (the exclusive station is busy). Normal stations always pass. A guest never qualifies.
 */
export function vipGate(
  input: VipGateInput,
): 200 | typeof VIP_ONLY_ERROR_CODE | typeof VIP_WEEKLY_LIMIT_ERROR_CODE | typeof VIP_EXCLUSIVE_IN_USE_ERROR_CODE {
  if (!isVipOnlyStation(input.station)) return 200;
  if (input.userId === null || !qualifiesForVipStations(input.purchases, input.nowMs)) return VIP_ONLY_ERROR_CODE;
  if (input.action === 'view') return 200;
  if (hasReachedWeeklyVipLimit(input.vipWinsAtMs, input.nowMs, input.weeklyLimit)) return VIP_WEEKLY_LIMIT_ERROR_CODE;
  if (isBlockedByExclusivePlay(input.station, input.occupiedByUserId, input.userId))
    return VIP_EXCLUSIVE_IN_USE_ERROR_CODE;
  return 200;
}

/** The popup for a VIP error code [R8-2, R8-3, R8-4]. */
export interface VipOutcome {
  readonly code: 569 | 570 | 571;
  readonly title: string;
  readonly text: string;
  readonly button: { readonly label: string; readonly action: 'becomeVip' | 'close' };
  /** After the button: stay on the page, or go back to the station list (571). */
  readonly then: 'stay' | 'returnToList';
}

/**
 * The popup a VIP error code shows; null for any other code.
 * - 569: 'こちらのステーションの閲覧・プレイはVIP対象のお客様限定です。' with the 100,000 TC / 30 days
 *   text; button 'VIP対象になる' (opens the purchase flow) when logged in, otherwise 'とじる' [R8-2].
 * - 570: '今週のVIP景品を獲得済みです', noting the Monday reset [R8-3].
 * - 571: '他のお客様がVIP独占台をプレイ中です', then back to the list [R8-4].
 */
export function vipOutcome(errorCode: number, signedIn: boolean): VipOutcome | null {
  const close = { label: DOMAIN_MESSAGES.closeButton, action: 'close' } as const;
  switch (errorCode) {
    case VIP_ONLY_ERROR_CODE:
      return {
        code: VIP_ONLY_ERROR_CODE,
        title: DOMAIN_MESSAGES.vipOnlyTitle,
        text: DOMAIN_MESSAGES.vipOnlyText,
        button: signedIn ? { label: DOMAIN_MESSAGES.vipOnlyJoinButton, action: 'becomeVip' } : close,
        then: 'stay',
      };
    case VIP_WEEKLY_LIMIT_ERROR_CODE:
      return {
        code: VIP_WEEKLY_LIMIT_ERROR_CODE,
        title: DOMAIN_MESSAGES.vipWeeklyLimitTitle,
        text: DOMAIN_MESSAGES.vipWeeklyLimitText,
        button: close,
        then: 'stay',
      };
    case VIP_EXCLUSIVE_IN_USE_ERROR_CODE:
      return {
        code: VIP_EXCLUSIVE_IN_USE_ERROR_CODE,
        title: DOMAIN_MESSAGES.vipExclusiveInUseTitle,
        text: DOMAIN_MESSAGES.vipExclusiveInUseText,
        button: close,
        then: 'returnToList',
      };
    default:
      return null;
  }
}
