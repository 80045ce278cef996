import { useRef, useState } from 'react';
import { firstClipCamera, type ClipCamera, type ClipUrls } from '../../domain';
import { CLIP_MESSAGES as C } from './clips.messages';

const CAMERA_NAMES: Record<ClipCamera, string> = { front: C.front, side: C.side };

/**
 * A play's video with its cameras (front, side): one `<video>` with the browser's own controls; a
 * switch of camera goes on from the same moment, playing if it was playing.
 */
export function ClipVideo({ cameras, urls }: { cameras: readonly ClipCamera[]; urls: ClipUrls }) {
  const shown = cameras.filter((c) => urls[c] !== undefined);
  const [camera, setCamera] = useState<ClipCamera | null>(() => firstClipCamera(shown));
  const video = useRef<HTMLVideoElement>(null);
  const resume = useRef<{ time: number; playing: boolean } | null>(null);
  if (camera === null) return null;
  const choose = (next: ClipCamera) => {
    const v = video.current;
    if (next === camera) return;
    resume.current = v ? { time: v.currentTime, playing: !v.paused && !v.ended } : null;
    setCamera(next);
  };
  return (
    <div className="clip-video">
      <video
        ref={video}
        key={camera}
        className="clip-video__video"
        data-testid="clip-video"
        data-camera={camera}
        src={urls[camera]}
        controls
        playsInline
        muted
        preload="metadata"
        aria-label={C.videoLabel(CAMERA_NAMES[camera])}
        onLoadedMetadata={(e) => {
          const r = resume.current;
          resume.current = null;
          if (!r) return;
          e.currentTarget.currentTime = r.time;
          if (r.playing) void e.currentTarget.play().catch(() => undefined);
        }}
      />
      {shown.length > 1 ? (
        <div className="clip-video__cameras" role="group" aria-label={C.cameras}>
          {shown.map((c) => (
            <button
              key={c}
              type="button"
              className="chip"
              aria-pressed={c === camera}
              data-testid={`clip-camera-${c}`}
              onClick={() => choose(c)}
            >
              {CAMERA_NAMES[c]}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
