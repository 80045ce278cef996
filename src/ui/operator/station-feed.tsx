import type { StationCameraView, StationFeedView } from '../../application/operator';
import { OP } from './operator.messages';

const V = OP.feed;
const M = OP.machine;
const CAMERAS = ['front', 'side'] as const;

/** A camera's last recording error in words (the server names it in English for its logs). */
export function recordingErrorText(error: string): string {
  if (error === 'no video') return V.recordingErrors.noVideo;
  if (error === 'no file written') return V.recordingErrors.noFile;
  if (error === 'the clips folder cannot be written') return V.recordingErrors.folder;
  if (error.startsWith('no ffmpeg')) return V.recordingErrors.noFfmpeg;
  if (error.startsWith('ffmpeg')) return V.recordingErrors.ffmpeg(error);
  return V.recordingErrors.other(error);
}

/**
 * A station's audience and recordings on its floor card: the pages showing its cameras by kind
 * (what they told the server, summed over every instance), what the origin itself serves per camera
 * (rtc sessions, whether its HLS is encoded and the HLS and still requests reaching it), whether a
 * play is recorded now with each camera's last recording error, and its last plays' clips.
 */
export function StationFeedFacts({
  feed,
  cameras,
  readAt,
}: {
  /** The station's spectators and clips, or null (not read yet, or a station the server did not list). */
  feed: StationFeedView | null;
  /** The station's cameras that are published or watched now. */
  cameras: readonly StationCameraView[];
  readAt: number | null;
}) {
  const recording = cameras.filter((c) => c.recording === true);
  const errors = cameras.filter((c) => c.recording_error);
  return (
    <div className="op-machine__facts">
      <h3 className="op-subtitle">{V.title}</h3>
      <dl className="op-facts" data-testid="op-feed-facts">
        <dt>{V.spectators}</dt>
        <dd data-testid="op-spectators" title={V.spectatorsNote}>
          {feed === null ? V.notRead : <Spectators counts={feed.spectators} />}
        </dd>
        {readAt === null
          ? null
          : CAMERAS.map((name) => {
              const camera = cameras.find((c) => c.camera === name) ?? null;
              return <OriginFacts key={name} name={name} camera={camera} />;
            })}
        <dt>{V.recording}</dt>
        <dd data-testid="op-recording">
          {readAt === null ? (
            V.notRead
          ) : recording.length > 0 ? (
            <>
              <span className="op-badge op-badge--ok">{V.recordingNow}</span>
              {V.recordingCameras(recording.map((c) => M.cameraName[c.camera]!))}
            </>
          ) : (
            V.recordingIdle
          )}
          {errors.map((c) => (
            <span key={c.camera} className="op-badge op-badge--warn" data-testid={`op-recording-error-${c.camera}`}>
              {V.lastRecordingError(M.cameraName[c.camera]!, recordingErrorText(c.recording_error!))}
            </span>
          ))}
        </dd>
        <dt>{V.clips}</dt>
        <dd data-testid="op-clips">{feed === null ? V.notRead : <ClipOutcomes clips={feed.clips} />}</dd>
      </dl>
    </div>
  );
}

function Spectators({ counts }: { counts: StationFeedView['spectators'] }) {
  const total = counts.hls + counts.rtc + counts.jpg;
  return (
    <>
      {(['hls', 'rtc', 'jpg'] as const).map((kind, i) => (
        <span key={kind} data-testid={`op-spectators-${kind}`}>
          {i > 0 ? V.kindSeparator : null}
          {V.kinds[kind]} {OP.count(counts[kind])}
        </span>
      ))}{' '}
      <span className="op-note">{OP.inParens(V.spectatorsTotal(total))}</span>
    </>
  );
}

/** What the origin serves of one camera: rtc sessions, its HLS encoder and requests, its still asks. */
function OriginFacts({ name, camera }: { name: 'front' | 'side'; camera: StationCameraView | null }) {
  return (
    <>
      <dt>{V.origin(M.cameraName[name]!)}</dt>
      <dd data-testid={`op-origin-${name}`}>
        {camera === null
          ? M.cameraUnwatched
          : V.originLine(
              camera.viewers,
              camera.hls === true,
              camera.hls_requests_per_s ?? 0,
              camera.stills_requests_per_s ?? 0,
            )}
      </dd>
    </>
  );
}

function ClipOutcomes({ clips }: { clips: StationFeedView['clips'] }) {
  if (clips.plays === 0) return <>{V.noPlays}</>;
  const failure = clips.last_failure;
  return (
    <>
      <span className={clips.failed > 0 ? 'op-badge op-badge--warn' : undefined}>{V.clipsLine(clips)}</span>
      {failure ? (
        <span className="op-note" data-testid="op-clips-failure">
          {' '}
          {V.lastFailure(
            failure.play_id,
            (failure.reason && V.reasons[failure.reason]) || V.unknownReason,
            OP.at(failure.at),
          )}
        </span>
      ) : null}
    </>
  );
}
