import { useRef, useState } from 'react';
import {
  firstClipCamera,
  VIDEO_VIEW_HEIGHT_PERCENT,
  VIDEO_VIEW_ROTATION_DEG,
  type ClipCamera,
  type ClipUrls,
} from '../../domain';
import { useHydrated } from '../ssr/hydration-part';
import { CLIP_MESSAGES as C } from './clips.messages';

const CAMERA_NAMES: Record<ClipCamera, string> = { front: C.front, side: C.side };

const clock = (seconds: number): string => {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * A play's video with its cameras (front, side), framed and turned exactly as the play screen shows
 * the live video [R9-10] (the cameras are mounted on their side). The browser's own controls would
 * turn with the picture, so the controls are the page's: play/pause, the position and the time. A
 * switch of camera goes on from the same moment, playing if it was playing.
 */
export function ClipVideo({ cameras, urls }: { cameras: readonly ClipCamera[]; urls: ClipUrls }) {
  const shown = cameras.filter((c) => urls[c] !== undefined);
  const [camera, setCamera] = useState<ClipCamera | null>(() => firstClipCamera(shown));
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState({ at: 0, length: 0 });
  const video = useRef<HTMLVideoElement>(null);
  const resume = useRef<{ time: number; playing: boolean } | null>(null);
  // The turn is a style attribute: set in the browser only (the CSP refuses it in server markup).
  const hydrated = useHydrated();
  if (camera === null) return null;
  const choose = (next: ClipCamera) => {
    const v = video.current;
    if (next === camera) return;
    const from = v ? { time: v.currentTime, playing: !v.paused && !v.ended } : null;
    resume.current = from;
    // The button shows what the new camera's video will do once loaded (it goes on playing if this
    // one played): a click meanwhile changes that, rather than acting on a video not loaded yet.
    setPlaying(from?.playing ?? false);
    setCamera(next);
  };
  const toggle = () => {
    const v = video.current;
    if (!v) return;
    const pending = resume.current;
    if (pending) {
      pending.playing = !pending.playing;
      setPlaying(pending.playing);
      return;
    }
    if (v.paused || v.ended) void Promise.resolve(v.play()).catch(() => undefined);
    else v.pause();
  };
  return (
    <div className="clip-video">
      <div className="cameras__frame clip-video__frame">
        <div className="cameras__source">
          <video
            ref={video}
            key={camera}
            className="cameras__video"
            data-testid="clip-video"
            data-camera={camera}
            src={urls[camera]}
            playsInline
            muted
            preload="metadata"
            aria-label={C.videoLabel(CAMERA_NAMES[camera])}
            style={
              hydrated
                ? { height: `${VIDEO_VIEW_HEIGHT_PERCENT}%`, transform: `rotate(${VIDEO_VIEW_ROTATION_DEG}deg)` }
                : undefined
            }
            onClick={toggle}
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
            onEnded={() => setPlaying(false)}
            onTimeUpdate={(e) => setTime({ at: e.currentTarget.currentTime, length: e.currentTarget.duration })}
            onDurationChange={(e) => setTime({ at: e.currentTarget.currentTime, length: e.currentTarget.duration })}
            onLoadedMetadata={(e) => {
              const r = resume.current;
              resume.current = null;
              if (!r) return;
              e.currentTarget.currentTime = r.time;
              if (r.playing) void Promise.resolve(e.currentTarget.play()).catch(() => undefined);
            }}
          />
        </div>
      </div>
      <div className="clip-video__controls">
        <button
          type="button"
          className="chip clip-video__play"
          data-testid="clip-play"
          data-playing={playing}
          onClick={toggle}
        >
          {playing ? C.pause : C.play}
        </button>
        <input
          type="range"
          className="clip-video__seek"
          aria-label={C.position}
          min={0}
          max={Number.isFinite(time.length) && time.length > 0 ? time.length : 0}
          step={0.1}
          value={Math.min(time.at, Number.isFinite(time.length) ? time.length : time.at)}
          onChange={(e) => {
            if (video.current) video.current.currentTime = Number(e.target.value);
          }}
        />
        <span className="clip-video__time">
          {clock(time.at)} / {clock(time.length)}
        </span>
      </div>
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
