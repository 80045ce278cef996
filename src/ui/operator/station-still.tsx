import { stillImageUrl } from '../../domain';
import { useNow } from '../hooks/use-now';
import { OP } from './operator.messages';

/** How often the feed thumbnails are fetched again. */
export const STILL_REFRESH_MS = 2_000;

/** The front camera's still, fetched again every STILL_REFRESH_MS (its own tick: the card does not re-render). */
export function StationStill({ url, name }: { url: string; name: string }) {
  const now = useNow(true, STILL_REFRESH_MS);
  return (
    <img
      className="op-station__still"
      src={stillImageUrl(url, Math.floor(now / STILL_REFRESH_MS) * STILL_REFRESH_MS)}
      alt={OP.floor.still(name)}
      width={320}
      height={240}
      loading="lazy"
    />
  );
}
