import { useEffect, useRef } from 'react';
import { useMediaStream } from '../hooks/use-media-stream';
import type { HlsSource, StationPlay } from '../../application';
import { VIDEO_VIEW_HEIGHT_PERCENT, VIDEO_VIEW_ROTATION_DEG, type Camera } from '../../domain';
import { useHydrated } from '../ssr/hydration-part';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';

/**
 * Both cameras with a front/side switch; stills in jpg mode, rotated videos in rtc mode [R9-10, R9-9].
 * It follows the feed itself: a new picture (ten a second in jpg mode) renders the cameras only, not
 * the whole play screen.
 */
export function LiveCameras({
  screen,
  latencyMs,
  posters,
}: {
  screen: StationPlay;
  latencyMs: number | null;
  posters: Readonly<Record<Camera, string>> | null;
}) {
  const feed = useObservableState(screen.feed.state$, screen.feed.snapshot);
  const view = feed.stream.view;
  const labels: Record<Camera, string> = { front: MESSAGES.cameraFront, side: MESSAGES.cameraSide };
  // The camera filter is a style attribute: set in the browser only (the CSP blocks it in server markup).
  const hydrated = useHydrated();
  return (
    <div className="cameras">
      <div className="cameras__frame" data-testid="camera" data-camera={view}>
        {(['front', 'side'] as const).map((camera) => {
          const c = feed.cameras[camera];
          return (
            <div
              key={camera}
              className="cameras__layer"
              hidden={camera !== view}
              style={hydrated ? { filter: c.filter.css } : undefined}
            >
              {/* The spectators' HLS under the real-time video: while the picture moves from one to the
                  other (issue 44), the new one starts beneath and the old one ends once it shows. */}
              {c.hls ? (
                <div className="cameras__source">
                  <HlsView source={c.hls} label={MESSAGES.cameraAlt(labels[camera])} />
                </div>
              ) : null}
              {c.video ? (
                <div className="cameras__source">
                  <VideoView
                    stream={c.video}
                    label={MESSAGES.cameraAlt(labels[camera])}
                    onPlaying={() => screen.feed.rtcPlaying(camera)}
                  />
                </div>
              ) : null}
              {c.still && c.stillVisible ? (
                <img
                  className="cameras__still"
                  src={c.still}
                  alt={MESSAGES.cameraAlt(labels[camera])}
                  width={480}
                  height={360}
                  data-tick={c.stillTick}
                />
              ) : null}
              {/* Until the feed shows, the camera's latest picture (in the server's page too: the page's
                  lead picture, issue 27), else a line saying it is connecting. */}
              {c.still || c.video || c.hls ? null : posters && camera === view ? (
                <img
                  className="cameras__still"
                  src={posters[camera]}
                  alt={MESSAGES.cameraAlt(labels[camera])}
                  width={480}
                  height={360}
                  fetchPriority="high"
                  data-testid="camera-poster"
                />
              ) : (
                <p className="cameras__loading">{MESSAGES.feedConnecting}</p>
              )}
            </div>
          );
        })}
        <span
          className="cameras__mode"
          data-testid="feed-mode"
          data-mode={feed.stream.spectating ? 'hls' : feed.stream.type}
        >
          {feed.stream.spectating
            ? MESSAGES.feedModeHls
            : feed.stream.type === 'rtc'
              ? MESSAGES.feedModeRtc
              : MESSAGES.feedModeJpg}
        </span>
        <span className="cameras__latency" data-testid="latency">
          {latencyMs === null ? MESSAGES.latencyPending : MESSAGES.latency(latencyMs)}
        </span>
      </div>
      {feed.stream.isSignalingError ? (
        <p className="cameras__fallback" data-testid="feed-fallback">
          {MESSAGES.feedFallback}
        </p>
      ) : null}
      <div className="cameras__controls">
        <div className="cameras__switch" role="group" aria-label={MESSAGES.cameraSwitch}>
          {(['front', 'side'] as const).map((camera) => (
            <button
              key={camera}
              type="button"
              className="chip"
              aria-pressed={view === camera}
              onClick={() => screen.feed.switchView(camera)}
            >
              {labels[camera]}
            </button>
          ))}
        </div>
        <div className="cameras__switch" role="group" aria-label={MESSAGES.feedModeSwitch}>
          <button
            type="button"
            className="chip"
            data-testid="mode-rtc"
            aria-pressed={!feed.stream.spectating && feed.stream.type === 'rtc'}
            onClick={() => screen.switchFeedMode('rtc')}
          >
            {MESSAGES.feedModeRtcShort}
          </button>
          <button
            type="button"
            className="chip"
            data-testid="mode-jpg"
            aria-pressed={!feed.stream.spectating && feed.stream.type === 'jpg'}
            onClick={() => screen.switchFeedMode('jpg')}
          >
            {MESSAGES.feedModeJpgShort}
          </button>
        </div>
      </div>
    </div>
  );
}

/** A spectator's HLS video, shown as the rtc video is (the same camera, mounted sideways). */
function HlsView({ source, label }: { source: HlsSource; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = ref.current;
    return element ? source.attach(element) : undefined;
  }, [source]);
  return (
    <video
      ref={ref}
      className="cameras__video"
      data-testid="hls-video"
      aria-label={label}
      autoPlay
      muted
      playsInline
      style={{ height: `${VIDEO_VIEW_HEIGHT_PERCENT}%`, transform: `rotate(${VIDEO_VIEW_ROTATION_DEG}deg)` }}
    />
  );
}

/** An rtc video: 75% height, rotated 90 degrees [R9-10], no audio. */
function VideoView({ stream, label, onPlaying }: { stream: unknown; label: string; onPlaying: () => void }) {
  const ref = useMediaStream(stream);
  return (
    <video
      ref={ref}
      onPlaying={onPlaying}
      className="cameras__video"
      aria-label={label}
      autoPlay
      muted
      playsInline
      style={{ height: `${VIDEO_VIEW_HEIGHT_PERCENT}%`, transform: `rotate(${VIDEO_VIEW_ROTATION_DEG}deg)` }}
    />
  );
}
