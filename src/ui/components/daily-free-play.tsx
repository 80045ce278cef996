import { Link } from 'react-router';
import { useDailyFreePlay } from '../account/use-current-user';
import { MESSAGES } from '../messages';

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
