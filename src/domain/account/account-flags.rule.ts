import type { BuildTarget } from '../build-target';
import { DAY_MS, NEW_USER_WINDOW_DAYS } from '../constants';

/** What the new-badge checks [R4.7-1]. */
export interface AccountCompleteness {
  /** address_bool of the address response: 1/true when an address is registered. */
  readonly address_bool: boolean | 0 | 1;
  /** is_sms: 1/true when the phone number is verified. */
  readonly is_sms: boolean | 0 | 1;
  /** The current e-mail; '' when none. */
  readonly email: string;
  readonly sex: number;
  readonly birth: string;
  readonly prefectures: string;
  readonly nickname: string;
}

/** An item the new-badge asks the user to complete. */
export type MissingAccountItem = 'address' | 'phone' | 'email' | 'profile';

const blank = (v: string): boolean => v.trim() === '';

/**
 * The account items still missing [R4.7-1]: address, phone verification, e-mail (web only) and
 * profile (any of sex, birth, prefecture, nickname). In display order.
 */
export function missingAccountItems(account: AccountCompleteness, target: BuildTarget): readonly MissingAccountItem[] {
  const missing: MissingAccountItem[] = [];
  if (!account.address_bool) missing.push('address');
  if (!account.is_sms) missing.push('phone');
  if (target === 'web' && blank(account.email)) missing.push('email');
  if (!account.sex || blank(account.birth) || blank(account.prefectures) || blank(account.nickname))
    missing.push('profile');
  return missing;
}

/** The new-badge shows when any account item is missing [R4.7-1]. */
export function showsNewBadge(account: AccountCompleteness, target: BuildTarget): boolean {
  return missingAccountItems(account, target).length > 0;
}

/**
 * A new user's account was created within the last 7 days [R4.7-2]: now − created ≤ 7 days.
 * An account dated in the future (clock skew) also counts as new.
 */
export function isNewUser(createdAtMs: number, nowMs: number, windowDays: number = NEW_USER_WINDOW_DAYS): boolean {
  return nowMs - createdAtMs <= windowDays * DAY_MS;
}

/** What the first-profile prompt reads [R4.7-3]. */
export interface FirstProfileInput {
  readonly isNewUser: boolean;
  readonly isNicknameUnregistered: boolean;
  readonly sex: number;
  readonly birth: string;
  readonly nickname: string;
}

/** First-profile prompt: (new user or unregistered nickname) and (sex, birth or nickname missing) [R4.7-3]. */
export function showsFirstProfilePrompt(input: FirstProfileInput): boolean {
  const candidate = input.isNewUser || input.isNicknameUnregistered;
  const incomplete = !input.sex || blank(input.birth) || blank(input.nickname);
  return candidate && incomplete;
}
