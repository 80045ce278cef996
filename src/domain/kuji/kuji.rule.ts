import { REMAINING_TIME_FLOOR_SECONDS, SECOND_MS } from '../constants';
import { DOMAIN_MESSAGES } from '../messages';
import {
  isKujiReserveStatus,
  KUJI_ENDED_BOX_STATUSES,
  KUJI_QUEUE_STATUSES,
  type KujiPlayInfo,
  type KujiReserveStatus,
  type KujiTimeLimits,
} from './kuji.entity';

/** The queue shows for firstReserved or confirm [R4.4-1]. */
export function showsKujiQueue(status: KujiPlayInfo['reserve_status']): boolean {
  return isKujiReserveStatus(status) && KUJI_QUEUE_STATUSES.includes(status);
}

/**
 * Remaining time under 10 seconds counts as 0 when no polling runs [R9-4]: without polling nothing
 * would refresh the count, so a last few seconds shown would be a guess.
 */
export function effectiveRemainingSeconds(remaining: number, polling: boolean): number {
  const r = Math.max(0, remaining);
  return !polling && r < REMAINING_TIME_FLOOR_SECONDS ? 0 : r;
}

/**
 * Remaining seconds of a timed kuji status [R4.4-5, R9-4]: the status's maximum minus the whole
 * seconds since play_at, kept within 0…maximum (a play_at ahead of the clock gives the maximum),
 * then under 10 s with no polling counts as 0. null for a status with no maximum (reserve, …).
 */
export function kujiRemainingSeconds(input: {
  readonly status: KujiPlayInfo['reserve_status'];
  readonly playAtMs: number;
  readonly nowMs: number;
  readonly limits: KujiTimeLimits;
  readonly polling: boolean;
}): number | null {
  const max = kujiWindowSeconds(input.status, input.limits);
  if (max === null) return null;
  const elapsed = Math.max(0, Math.floor((input.nowMs - input.playAtMs) / SECOND_MS));
  return effectiveRemainingSeconds(Math.max(0, max - elapsed), input.polling);
}

/**
 * The length in seconds of a holder's window [R4.4-5]: firstReserved to start drawing, confirm to
 * draw again; null for a status with no window (waiting in line, ended).
 */
export function kujiWindowSeconds(status: KujiPlayInfo['reserve_status'], limits: KujiTimeLimits): number | null {
  return status === 'confirm' ? limits.confirm : status === 'firstReserved' ? limits.firstReserved : null;
}

/**
 * When a holder's window lapses (epoch ms), from when its step began: the server ends the
 * reservation then and hands the box to the next in line; a draw at or after it is refused.
 */
export function kujiWindowEndsAtMs(
  status: KujiPlayInfo['reserve_status'],
  playAtMs: number,
  limits: KujiTimeLimits,
): number | null {
  const seconds = kujiWindowSeconds(status, limits);
  return seconds === null ? null : playAtMs + seconds * SECOND_MS;
}

export type KujiEffect =
  | { readonly type: 'stopPolling' }
  | { readonly type: 'resetKujiPlayInfo' }
  | { readonly type: 'showAlert'; readonly alert: 'kujiBoxEnded' | 'kujiReserveNotFound'; readonly message: string };

export type KujiPollDecision =
  | {
      readonly kind: 'continue';
      readonly status: KujiReserveStatus;
      readonly showQueue: boolean;
      /** The server's seconds left (reserve_remaintime) for confirm/firstReserved; null otherwise or without a play_at. */
      readonly remainingSeconds: number | null;
    }
  | {
      readonly kind: 'stop';
      readonly reason: 'boxNotFound' | 'boxEnded' | 'statusEnded';
      readonly effects: readonly KujiEffect[];
    };

/**
 * Decides what one kuji-poll answer means. In this order:
 * 1. no box id → the reserve-not-found alert [R4.4-3]; polling stops and resets too, since
 *    kuji_polling cannot be called without a box;
 * 2. box status ready, endOfSale, outOfStock or deleted → stop, reset, box-ended alert [R4.4-2];
 * 3. reserve status other than reserve, confirm, firstReserved → stop and reset, no alert [R4.4-4];
 * 4. otherwise continue, with queue visibility and the remaining time the server counted from its own
 *    limits (`kujiRemainingSeconds`) [R4.4-1, R4.4-5]; the client counts it down from the answer.
 */
export function decideKujiPoll(info: KujiPlayInfo): KujiPollDecision {
  const stop = (
    reason: 'boxNotFound' | 'boxEnded' | 'statusEnded',
    alert?: 'kujiBoxEnded' | 'kujiReserveNotFound',
  ): KujiPollDecision => ({
    kind: 'stop',
    reason,
    effects: [
      { type: 'stopPolling' },
      { type: 'resetKujiPlayInfo' },
      ...(alert ? [{ type: 'showAlert', alert, message: DOMAIN_MESSAGES[alert] } as const] : []),
    ],
  });
  if (info.box_id === null || info.box_id === undefined) return stop('boxNotFound', 'kujiReserveNotFound');
  if (info.box_status !== null && (KUJI_ENDED_BOX_STATUSES as readonly string[]).includes(info.box_status)) {
    return stop('boxEnded', 'kujiBoxEnded');
  }
  if (!isKujiReserveStatus(info.reserve_status)) return stop('statusEnded');
  const timed = info.reserve_status === 'confirm' || info.reserve_status === 'firstReserved';
  return {
    kind: 'continue',
    status: info.reserve_status,
    showQueue: showsKujiQueue(info.reserve_status),
    // The decision is made on a fresh poll answer, so polling is running.
    remainingSeconds: timed && info.play_at !== null ? effectiveRemainingSeconds(info.reserve_remaintime, true) : null,
  };
}
