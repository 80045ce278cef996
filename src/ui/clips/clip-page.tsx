import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { TOKENS, type SharedClipSnapshot } from '../../application';
import { clipPageHead, formatJstDateTime, type PublicClip } from '../../domain';
import { Picture, PICTURE_LAYOUTS } from '../components/picture';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { useMarkNotFound, usePreloaded } from '../ssr/preload';
import { ClipVideo } from './clip-video';
import { CLIP_MESSAGES as C } from './clips.messages';

/**
 * A shared clip's page, `/clip/{clip_id}` (issue 44) [R11-5]: anyone may open it, signed in or not.
 * It names the station and the prize, when and how the play ended, and plays both cameras; nothing
 * about the player. A clip not shared (or no longer), removed or unknown is one answer: a 404 page
 * that says the video cannot be seen. The server writes its title and link-preview tags (the
 * route's `head`) and lets no cache keep it (`noStore`): unsharing works at once.
 */
export function ClipPage() {
  const preloaded = usePreloaded<SharedClipSnapshot>();
  const shared = useScopedUseCase(TOKENS.SharedClip, (s) => preloaded && s.adopt(preloaded));
  const state = useObservableState(shared.state$, shared.snapshot);
  const { clipId = '' } = useParams();
  useEffect(() => shared.open(clipId), [shared, clipId]);
  const title = state.kind === 'clip' ? clipPageHead(state.clip).title : null;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  if (state.kind === 'loading')
    return (
      <p className="page-status" role="status">
        {C.loading}
      </p>
    );
  if (state.kind === 'notFound') return <ClipNotFound />;
  if (state.kind === 'error')
    return (
      <div className="page-status page-status--error" role="alert">
        <p>{state.message}</p>
        <button type="button" className="button" onClick={() => shared.open(clipId)}>
          {C.retry}
        </button>
      </div>
    );
  return <SharedClipView clip={state.clip} />;
}

function SharedClipView({ clip }: { clip: PublicClip }) {
  const when = formatJstDateTime(Date.parse(clip.played_at));
  return (
    <article className="clip-page" data-testid="clip-page" aria-labelledby="clip-page-title">
      <h1 id="clip-page-title" className="clip-page__title">
        {C.pageHeading(clip.prize_name)}
      </h1>
      <p className="clip-page__meta">
        {clip.result ? (
          <span
            className={`chip chip--small clip-page__result clip-page__result--${clip.result}`}
            data-testid="clip-result"
          >
            {C.result[clip.result]}
          </span>
        ) : null}
        <span>
          {C.station} {clip.station_name}
        </span>
        <time dateTime={clip.played_at}>{C.playedAt(when)}</time>
      </p>
      <ClipVideo cameras={clip.cameras} urls={clip.urls} />
      <div className="clip-page__prize">
        {clip.img_url ? (
          <Picture
            className="clip-page__picture"
            src={clip.img_url}
            alt={clip.prize_name}
            width={120}
            height={120}
            layout={PICTURE_LAYOUTS.detail}
          />
        ) : null}
        <div>
          <p className="clip-page__prize-name">{clip.prize_name}</p>
          <Link className="button" to={`/game/${clip.station_id}`} data-testid="clip-play-station">
            {C.playThis}
          </Link>
        </div>
      </div>
    </article>
  );
}

function ClipNotFound() {
  useMarkNotFound();
  return (
    <div className="error-page" data-testid="clip-not-found">
      <h1 className="error-page__heading">{C.notFound}</h1>
      <p>{C.notFoundBody}</p>
      <Link className="button" to="/">
        {C.toTop}
      </Link>
    </div>
  );
}
