import { clipOffer, type PlayClipRef } from '../../domain';
import { CLIP_LINK_MESSAGES as C } from './clip-link.messages';

/**
 * A play's video in a history row [R11-5]: a button that opens it ("動画"; "録画中" while it is
 * written, the modal then waits for it), "動画なし" when it failed or was removed; nothing for a play
 * the server recorded nothing of.
 */
export function ClipLink({
  clip,
  label,
  onOpen,
}: {
  clip: PlayClipRef | null | undefined;
  label: string;
  /** Opens the clip's modal (the caller's `open('playClip', …)`: no modal file imports the modal host). */
  onOpen: () => void;
}) {
  if (!clip) return null;
  const offer = clipOffer(clip);
  // A clip still being written opens too: the modal shows it as soon as it is ready.
  if (offer !== 'gone') {
    const text = offer === 'watch' ? C.watch : C.recordingShort;
    return (
      <button
        type="button"
        className="chip chip--small clip-link"
        data-testid="clip-link"
        data-offer={offer}
        aria-label={C.linkLabel(text, label)}
        onClick={onOpen}
      >
        {text}
      </button>
    );
  }
  return (
    <span className="clip-link clip-link--quiet" data-testid="clip-link-gone">
      {C.goneShort}
    </span>
  );
}
