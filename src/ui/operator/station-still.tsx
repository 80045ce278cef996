import { stillImageUrl } from '../../domain';
import { useNow } from '../hooks/use-now';
import { useOnScreen } from '../hooks/use-on-screen';
import { OP } from './operator.messages';

/** How often the feed thumbnails are fetched again. */
export const STILL_REFRESH_MS = 2_000;

/**
 * The front camera's still, fetched again every STILL_REFRESH_MS while it is on screen (its own
 * tick: the card does not re-render). A floor of 36 stations fetched all of them every 2 s (about
 * 18 requests a second, issue 46); only the few in view are now, and none while the tab is hidden.
 */
export function StationStill({ url, name }: { url: string; name: string }) {
  const [onScreen, ref] = useOnScreen();
  const now = useNow(onScreen, STILL_REFRESH_MS);
  return (
    <img
      ref={ref}
      data-refreshing={onScreen ? 'true' : 'false'}
      className="op-station__still"
      src={stillImageUrl(url, Math.floor(now / STILL_REFRESH_MS) * STILL_REFRESH_MS)}
      alt={OP.floor.still(name)}
      width={320}
      height={240}
      loading="lazy"
    />
  );
}
