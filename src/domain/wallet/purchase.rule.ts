/** The first step the purchase modal shows. */
export type PurchaseEntry = 'login' | 'age' | 'top';

/**
 * Opening the purchase modal: a guest is sent to log in [R2.5-4]; a user with no registered birth
 * date sees the age step first [R2.5-5]; everyone else the product list ('top').
 */
export function purchaseModalEntry(input: { readonly signedIn: boolean; readonly registeredBirth: boolean }): PurchaseEntry {
  if (!input.signedIn) return 'login';
  return input.registeredBirth ? 'top' : 'age';
}

/** Something the product may refuse a guest. */
export type GuardedAction = 'buy' | 'seeVirtualCrane' | 'playPractice' | 'viewStation';

/**
 * Guests cannot buy, cannot see the virtual crane, and may look at practice stations but not play
 * them (playing asks them to log in) [R6-1].
 */
export const GUEST_REFUSED_ACTIONS: readonly GuardedAction[] = ['buy', 'seeVirtualCrane', 'playPractice'];

/** Whether a visitor may do `action` [R6-1]: signed-in users may do everything listed. */
export function isActionAllowed(action: GuardedAction, signedIn: boolean): boolean {
  return signedIn || !GUEST_REFUSED_ACTIONS.includes(action);
}
