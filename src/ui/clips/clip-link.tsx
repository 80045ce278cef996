import { clipOffer, type PlayClipRef } from '../../domain';
import { useModals } from '../modals/modal-host';
import { CLIP_MESSAGES as C } from './clips.messages';

/**
 * A play's video in a history row [R11-5]: a button that opens it when ready, "録画中" while it is
 * written, "動画なし" when it failed or was removed; nothing for a play the server recorded nothing of.
 */
export function ClipLink({ clip, playId, label }: { clip: PlayClipRef | null | undefined; playId: number; label: string }) {
  const { open } = useModals();
  if (!clip) return null;
  const offer = clipOffer(clip);
  if (offer === 'watch')
    return (
      <button
        type="button"
        className="chip chip--small clip-link"
        data-testid="clip-link"
        aria-label={`${label} ${C.watch}`}
        onClick={() => open('playClip', { playId })}
      >
        {C.watch}
      </button>
    );
  return (
    <span className="clip-link clip-link--quiet" data-testid="clip-link-state">
      {offer === 'wait' ? C.recordingShort : C.goneShort}
    </span>
  );
}
