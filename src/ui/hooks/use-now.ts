import { useEffect, useState } from 'react';
import { TOKENS } from '../../application';
import { useInjection } from '../di/container-context';

/**
 * The time a countdown shows: the container's clock read every `stepMs` while `active`, so a page
 * shows whole seconds left of a server window without its use-case ticking. The display tick
 * lives here, in the page; the use-cases only keep when their data arrived.
 *
 * @example
 * const now = useNow(play !== null);
 * const secondsLeft = countdownSeconds(play.window_ms_left, receivedAt, now);
 */
export function useNow(active: boolean, stepMs = 250): number {
  const clock = useInjection(TOKENS.ClockPort);
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    if (!active) return undefined;
    let task = clock.setTimeout(function step() {
      setNow(clock.now());
      task = clock.setTimeout(step, stepMs);
    }, 0);
    return () => task.cancel();
  }, [clock, active, stepMs]);
  return now;
}
