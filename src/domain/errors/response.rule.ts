import { MAINTENANCE_CODES, SUCCESS_CODE } from '../constants';
import type { BuildTarget } from '../build-target';
import type { ErrorResponse } from '../identity/identity.entity';
import { DOMAIN_MESSAGES } from '../messages';

/** A response is successful when error_code is 200 [R8-1]. */
export function isSuccessResponse(response: Pick<ErrorResponse, 'error_code'>): boolean {
  return response.error_code === SUCCESS_CODE;
}

/** The name of a maintenance code; see MAINTENANCE_CODES for the numbers we chose. */
export type MaintenanceCodeName = keyof typeof MAINTENANCE_CODES;

/** What to do for a cancellation, by target [R4.6-2]. */
export type CancellationAction = 'reloadPage' | 'redirectToYahooTop' | 'resetAuth';

/** Steps a use-case runs when a maintenance code arrives, in this order. */
export type MaintenanceEffect =
  | { readonly type: 'stopSound' }
  | { readonly type: 'resetStream' }
  | { readonly type: 'stopPolling' }
  | { readonly type: 'showMaintenanceScreen'; readonly code: number; readonly info: string }
  | { readonly type: 'showAlert'; readonly alert: 'reloadError'; readonly message: string }
  | { readonly type: 'stopModal' }
  | { readonly type: CancellationAction };

/** The classification of one answer's error_code. */
export type ResponseDecision =
  | { readonly kind: 'success' }
  | { readonly kind: 'maintenance'; readonly code: MaintenanceCodeName; readonly effects: readonly MaintenanceEffect[] }
  | { readonly kind: 'failure'; readonly error_code: number; readonly error_info: string };

/** The target-specific answer to the cancellation code [R4.6-2]. */
export function cancellationAction(target: BuildTarget): CancellationAction {
  if (target === 'yahoo') return 'redirectToYahooTop';
  if (target === 'mobage') return 'resetAuth';
  return 'reloadPage';
}

/**
 * Classifies any response by its error_code [R8-1, R8-5, R8-6, R4.6-1, R4.6-2]:
 * - 200: success.
 * - emergency / invaliduser: stop sound, reset the stream, stop polling, maintenance screen with
 *   the code and error_info.
 * - reloaderror: stop sound, reset the stream, stop polling, the reload-error alert, stop the modal.
 * - cancellation: reload the page (yahoo: its top page; mobage: reset auth).
 * - anything else: an ordinary failure the caller handles (VIP codes, 531, …).
 */
export function classifyResponse(response: ErrorResponse, target: BuildTarget): ResponseDecision {
  const { error_code, error_info } = response;
  if (error_code === SUCCESS_CODE) return { kind: 'success' };
  const halt: readonly MaintenanceEffect[] = [{ type: 'stopSound' }, { type: 'resetStream' }, { type: 'stopPolling' }];
  if (error_code === MAINTENANCE_CODES.emergency || error_code === MAINTENANCE_CODES.invaliduser) {
    return {
      kind: 'maintenance',
      code: error_code === MAINTENANCE_CODES.emergency ? 'emergency' : 'invaliduser',
      effects: [...halt, { type: 'showMaintenanceScreen', code: error_code, info: error_info }],
    };
  }
  if (error_code === MAINTENANCE_CODES.reloaderror) {
    return {
      kind: 'maintenance',
      code: 'reloaderror',
      effects: [
        ...halt,
        { type: 'showAlert', alert: 'reloadError', message: DOMAIN_MESSAGES.reloadError },
        { type: 'stopModal' },
      ],
    };
  }
  if (error_code === MAINTENANCE_CODES.cancellation) {
    return { kind: 'maintenance', code: 'cancellation', effects: [{ type: cancellationAction(target) }] };
  }
  return { kind: 'failure', error_code, error_info };
}

/**
 * The Japanese text to show for a failed call: the answer's error_info when the failure carries
 * one (a refusal), else the reload-error text.
 */
export function refusalText(error: unknown): string {
  const info = typeof error === 'object' && error !== null ? (error as { info?: unknown }).info : undefined;
  return typeof info === 'string' && info !== '' ? info : DOMAIN_MESSAGES.reloadError;
}

/** The error_code a failed call carries (a refusal), else null. */
export function refusalCode(error: unknown): number | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' && code !== 0 ? code : null;
}

/** The error_code of "too little TC" (a 402 answer): the screen offers to buy TC. */
export const NOT_ENOUGH_TC_CODE = 402;
