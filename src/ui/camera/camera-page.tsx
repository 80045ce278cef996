import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMediaStream } from '../hooks/use-media-stream';
import type { Container } from 'inversify';
import { CAMERA_TOKENS } from '../../application/camera';
import type { Camera } from '../../domain';
import { ContainerProvider, useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { CAMERA_PAGE as C } from './camera.messages';

/** Where the page keeps what was typed (the key only for this tab's session). */
export interface CameraPageMemory {
  read(name: 'station' | 'camera' | 'codec' | 'key'): string | null;
  write(name: 'station' | 'camera' | 'codec' | 'key', value: string): void;
}

/** The camera page at /camera: publish this device's camera as one of a station's cameras over WHIP. */
export function CameraPageApp({
  container,
  memory,
  codec,
}: {
  container: Container;
  memory: CameraPageMemory;
  codec: { get(): 'VP8' | 'H264'; set(codec: 'VP8' | 'H264'): void };
}) {
  return (
    <ContainerProvider container={container}>
      <CameraPage memory={memory} codec={codec} />
    </ContainerProvider>
  );
}

function CameraPage({
  memory,
  codec,
}: {
  memory: CameraPageMemory;
  codec: { get(): 'VP8' | 'H264'; set(codec: 'VP8' | 'H264'): void };
}) {
  const publishing = useInjection(CAMERA_TOKENS.CameraPublishing);
  const state = useObservableState(publishing.state$, publishing.snapshot);
  const id = useId();
  const [station, setStation] = useState(() => memory.read('station') ?? '');
  const [camera, setCamera] = useState<Camera>(() => (memory.read('camera') === 'side' ? 'side' : 'front'));
  const [key, setKey] = useState(() => memory.read('key') ?? '');
  const [format, setFormat] = useState<'VP8' | 'H264'>(() => (memory.read('codec') === 'H264' ? 'H264' : 'VP8'));
  useEffect(() => {
    document.title = C.title;
    return () => publishing.stop();
  }, [publishing]);
  const live = state.phase !== 'idle' && state.phase !== 'failed';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (live) return publishing.stop();
    memory.write('station', station.trim());
    memory.write('camera', camera);
    memory.write('key', key.trim());
    memory.write('codec', format);
    codec.set(format);
    publishing.start({ stationId: station, camera, key });
  };
  return (
    <main className="cam" id="main">
      <h1 className="cam__title">{C.heading}</h1>
      <p className="cam__lead">{C.lead}</p>
      <div className="cam__layout">
        <figure className="cam__preview">
          {state.preview ? <Preview stream={state.preview} /> : <div className="cam__empty">{C.noPreview}</div>}
          <figcaption className="cam__caption">{C.preview}</figcaption>
        </figure>
        <div className="cam__side">
          <form className="cam__form" onSubmit={submit}>
            <label htmlFor={`${id}-station`}>{C.station}</label>
            <input
              id={`${id}-station`}
              inputMode="numeric"
              autoComplete="off"
              value={station}
              disabled={live}
              onChange={(e) => setStation(e.target.value)}
            />
            <fieldset className="cam__cameras" disabled={live}>
              <legend>{C.camera}</legend>
              {(['front', 'side'] as const).map((name) => (
                <label key={name}>
                  <input
                    type="radio"
                    name={`${id}-camera`}
                    value={name}
                    checked={camera === name}
                    onChange={() => setCamera(name)}
                  />
                  {C.cameras[name]}
                </label>
              ))}
            </fieldset>
            <label htmlFor={`${id}-key`}>{C.key}</label>
            <input
              id={`${id}-key`}
              type="password"
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${id}-key-hint`}
              value={key}
              disabled={live}
              onChange={(e) => setKey(e.target.value)}
            />
            <p className="cam__hint" id={`${id}-key-hint`}>
              {C.keyHint}
            </p>
            <label htmlFor={`${id}-codec`}>{C.codec}</label>
            <select
              id={`${id}-codec`}
              value={format}
              disabled={live}
              onChange={(e) => setFormat(e.target.value === 'H264' ? 'H264' : 'VP8')}
            >
              <option value="VP8">{C.codecs.VP8}</option>
              <option value="H264">{C.codecs.H264}</option>
            </select>
            <button type="submit" className={live ? 'cam__button cam__button--stop' : 'cam__button'}>
              {live ? C.stop : C.start}
            </button>
          </form>
          <section className="cam__status" aria-labelledby={`${id}-status`}>
            <h2 id={`${id}-status`}>{C.status}</h2>
            <p
              role="status"
              data-testid="camera-phase"
              data-phase={state.phase}
              className={`cam__phase cam__phase--${state.phase}`}
            >
              {C.phases[state.phase]}
            </p>
            {state.failure ? (
              <p role="alert" className="cam__error" data-testid="camera-failure">
                {C.failures[state.failure]}
                {state.failureInfo ? C.failureInfo(state.failureInfo) : null}
              </p>
            ) : null}
            <dl className="cam__numbers">
              <dt>{C.bitrate}</dt>
              <dd data-testid="camera-kbps">{state.kbps === null ? C.none : C.kbps(state.kbps)}</dd>
              <dt>{C.frameRate}</dt>
              <dd data-testid="camera-fps">{state.fps === null ? C.none : C.fps(state.fps)}</dd>
              <dt>{C.format}</dt>
              <dd data-testid="camera-codec">
                {state.codec ?? C.none}
                {state.size ? ` ${C.size(state.size.width, state.size.height)}` : ''}
              </dd>
              <dt>{C.device}</dt>
              <dd>{state.deviceLabel || C.none}</dd>
            </dl>
          </section>
        </div>
      </div>
    </main>
  );
}

function Preview({ stream }: { stream: unknown }) {
  const ref = useMediaStream(stream);
  return (
    <video
      ref={ref}
      className="cam__video"
      aria-label={C.preview}
      autoPlay
      muted
      playsInline
      data-testid="camera-preview"
    />
  );
}
