import { useRef, useState } from 'react';
import { TOKENS, type ClipChange, type PlayClipViewer } from '../../application';
import { clipDaysLeft, clipShareUrl, type PlayClip } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useNow } from '../hooks/use-now';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { ClipVideo } from './clip-video';
import { CLIP_MESSAGES as C } from './clips.messages';

/**
 * A play's video for its player (docs/clips.md) [R11-5], from the result screen or the play
 * history: both cameras, sharing (a page anyone with the link may open, with a copy button and the
 * device's share sheet where there is one), keeping it past the 30 days, and when it will be removed.
 */
export default function PlayClipModal({ props, close }: ModalComponentProps<{ readonly playId: number }>) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'play-clip-title');
  const viewer = useScopedUseCase(TOKENS.PlayClipViewer, (v) => v.open(props.playId));
  const state = useObservableState(viewer.state$, viewer.snapshot);
  return (
    <div ref={ref} className="modal__body modal__body--scroll clip" data-testid="play-clip" data-state={state.kind}>
      <h2 id="play-clip-title" className="dialog__title">
        {C.title}
      </h2>
      {state.kind === 'loading' || state.kind === 'idle' ? <p role="status">{C.loading}</p> : null}
      {state.kind === 'none' ? <p>{C.none}</p> : null}
      {state.kind === 'error' ? <p role="alert">{state.message}</p> : null}
      {state.kind === 'clip' ? (
        <ClipBody viewer={viewer} clip={state.clip} busy={state.busy} error={state.error} />
      ) : null}
      <button type="button" className="button button--quiet" onClick={close}>
        {C.close}
      </button>
    </div>
  );
}

function ClipBody({
  viewer,
  clip,
  busy,
  error,
}: {
  viewer: PlayClipViewer;
  clip: PlayClip;
  busy: ClipChange | null;
  error: string | null;
}) {
  // A switch shows the value asked for at once (disabled until the service answers; put back on a refusal).
  const shown = (kind: ClipChange['kind'], value: 0 | 1) => (busy?.kind === kind ? busy.to : value === 1);
  const now = useNow(false);
  if (clip.status === 'recording')
    return (
      <p role="status" data-testid="clip-recording">
        {C.recording}
      </p>
    );
  if (clip.status !== 'ready') return <p data-testid="clip-gone">{clip.status === 'failed' ? C.failed : C.removed}</p>;
  const days = clipDaysLeft(clip, now);
  return (
    <>
      <ClipVideo cameras={clip.cameras} urls={clip.urls} />
      <p className="clip__facts" data-testid="clip-facts">
        {C.facts(Math.max(1, Math.round(clip.duration_ms / 1000)), days === null ? C.keptForever : C.keepsUntil(days))}
      </p>
      <ClipSwitch kind="share" text={C.share} checked={shown('share', clip.shared)} busy={busy} viewer={viewer} />
      {clip.share_path ? <ShareLink url={clipShareUrl(clip, window.location.origin) ?? ''} /> : null}
      <ClipSwitch kind="keep" text={C.keep} checked={shown('keep', clip.kept)} busy={busy} viewer={viewer} />
      {error ? <p role="alert">{error}</p> : null}
    </>
  );
}

/** Sharing or keeping: disabled while any change is asked. */
function ClipSwitch({
  kind,
  text,
  checked,
  busy,
  viewer,
}: {
  kind: ClipChange['kind'];
  text: string;
  checked: boolean;
  busy: ClipChange | null;
  viewer: PlayClipViewer;
}) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        data-testid={`clip-${kind}`}
        checked={checked}
        disabled={busy !== null}
        onChange={(e) => (kind === 'share' ? viewer.share(e.target.checked) : viewer.keep(e.target.checked))}
      />
      <span>{text}</span>
    </label>
  );
}

/** The shared page's link: shown whole, copied with a button, or handed to the device's share sheet. */
function ShareLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  return (
    <div className="clip__share">
      <label className="clip__link">
        <span>{C.shareLink}</span>
        <input type="url" readOnly value={url} data-testid="clip-share-url" onFocus={(e) => e.currentTarget.select()} />
      </label>
      <div className="panel__actions">
        <button
          type="button"
          className="button button--quiet"
          data-testid="clip-copy"
          onClick={() =>
            void navigator.clipboard?.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? C.copied : C.copy}
        </button>
        {canShare ? (
          <button
            type="button"
            className="button button--quiet"
            onClick={() => void navigator.share({ url }).catch(() => undefined)}
          >
            {C.shareVia}
          </button>
        ) : null}
      </div>
    </div>
  );
}
