import { TOKENS, type AccountFlagsView } from '../../application';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';

/** The signed-in player's account flags (null for a guest and until read). */
export function useAccountFlags(): AccountFlagsView | null {
  const flags = useInjection(TOKENS.AccountFlags);
  return useObservableState(flags.flags$, null);
}
