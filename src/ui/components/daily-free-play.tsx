import { Link } from 'react-router';
import { TOKENS } from '../../application';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';

/** Today's free play of the signed-in player, or null (a guest, or a server that has none) [R11-8]. */
function useDailyFreePlay() {
  const currentUser = useInjection(TOKENS.CurrentUser);
  const user = useObservableState(currentUser.user$, null);
  return user?.daily_free_play ?? null;
}

/**
 * The top page's note of the day's free play [R11-8]: while it is there to use, what it is for and
 * until when, with the way to the ticket stations (`href`: their tab, when the catalogue has one).
 */
export function DailyFreePlayBanner({ href }: { href: string | null }) {
  const free = useDailyFreePlay();
  if (!free || free.available !== 1) return null;
  return (
    <section className="daily-free" aria-labelledby="daily-free-title" data-testid="daily-free-play">
      <h2 id="daily-free-title" className="daily-free__title">
        {MESSAGES.dailyFreeTitle}
      </h2>
      <p className="daily-free__text">{MESSAGES.dailyFreeAvailable}</p>
      {href ? (
        <Link className="daily-free__link" to={href}>
          {MESSAGES.dailyFreeLink}
        </Link>
      ) : null}
    </section>
  );
}

/** A ticket station's note of the day's free play: usable now, or used today [R11-8]. */
export function DailyFreePlayStationNote() {
  const free = useDailyFreePlay();
  if (!free) return null;
  return (
    <p className="panel__note daily-free__note" data-testid="daily-free-station" data-available={free.available}>
      {free.available === 1 ? MESSAGES.dailyFreeAtStation : MESSAGES.dailyFreeUsed}
    </p>
  );
}
