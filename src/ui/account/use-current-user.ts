import { TOKENS } from '../../application';
import type { UserData } from '../../domain';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';

/** The signed-in player's account (null for a guest and until read). */
export function useCurrentUser(): UserData | null {
  const currentUser = useInjection(TOKENS.CurrentUser);
  return useObservableState(currentUser.user$, null);
}

/** Today's free play of the signed-in player, or null (a guest, or a server that has none) [R11-8]. */
export function useDailyFreePlay(): UserData['daily_free_play'] | null {
  return useCurrentUser()?.daily_free_play ?? null;
}
