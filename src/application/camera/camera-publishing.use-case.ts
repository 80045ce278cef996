import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable, type Subscription } from 'rxjs';
import type { Camera } from '../../domain';
import type { CameraPublishEvent, CameraPublishFailure, CameraPublisherPort } from './camera-publisher.port';
import { CAMERA_TOKENS } from './camera-tokens';

/** What the camera page shows. */
export interface CameraPublishingState {
  readonly phase: 'idle' | 'starting' | 'connecting' | 'publishing' | 'interrupted' | 'failed';
  readonly stationId: number | null;
  readonly camera: Camera;
  /** The camera's picture (an opaque MediaStream for the page's preview), while open. */
  readonly preview: unknown;
  readonly deviceLabel: string | null;
  readonly kbps: number | null;
  readonly fps: number | null;
  readonly codec: string | null;
  readonly size: { readonly width: number; readonly height: number } | null;
  readonly failure: CameraPublishFailure | 'invalid-station' | 'invalid-key' | null;
  /** What the endpoint said when it refused (its Japanese error_info), if anything. */
  readonly failureInfo: string | null;
}

/** A station key's shape (docs/security.md "Station keys"); the server checks the rest. */
const KEY_PATTERN = /^onk_sk_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/;

const IDLE: CameraPublishingState = {
  phase: 'idle',
  stationId: null,
  camera: 'front',
  preview: null,
  deviceLabel: null,
  kbps: null,
  fps: null,
  codec: null,
  size: null,
  failure: null,
  failureInfo: null,
};

/**
 * Publishing this device's camera as one of a station's cameras (the camera page): checks the
 * station id and the key's shape, opens the camera, publishes it, and follows the connection and
 * its numbers. One publication at a time; stop() ends it (and the server's session).
 */
@injectable()
export class CameraPublishing {
  private readonly state = new BehaviorSubject<CameraPublishingState>(IDLE);
  private running: Subscription | null = null;
  /** What the page shows (one observable for the use-case's life: a component subscribes to it once). */
  readonly state$: Observable<CameraPublishingState> = this.state.asObservable();

  constructor(@inject(CAMERA_TOKENS.CameraPublisherPort) private readonly publisher: CameraPublisherPort) {}

  get snapshot(): CameraPublishingState {
    return this.state.value;
  }

  /** Starts publishing; answers false (with the reason in the state) when the input is not usable. */
  start(input: { stationId: string; camera: Camera; key: string }): boolean {
    this.stop();
    const station = input.stationId.trim();
    const key = input.key.trim();
    if (!/^[1-9]\d{0,8}$/.test(station)) return this.refuse(input.camera, 'invalid-station');
    if (!KEY_PATTERN.test(key)) return this.refuse(input.camera, 'invalid-key');
    const stationId = Number(station);
    this.state.next({ ...IDLE, phase: 'starting', stationId, camera: input.camera });
    this.running = this.publisher
      .publish({ stationId, camera: input.camera, key })
      .subscribe((event) => this.apply(event));
    return true;
  }

  /** Ends the publication (the server's session is deleted) and closes the camera. */
  stop(): void {
    this.running?.unsubscribe();
    this.running = null;
    const s = this.state.value;
    if (s.phase !== 'idle' && s.phase !== 'failed')
      this.state.next({ ...IDLE, stationId: s.stationId, camera: s.camera });
  }

  dispose(): void {
    this.stop();
    this.state.complete();
  }

  private refuse(camera: Camera, failure: 'invalid-station' | 'invalid-key'): false {
    this.state.next({ ...IDLE, phase: 'failed', camera, failure });
    return false;
  }

  private apply(event: CameraPublishEvent): void {
    const s = this.state.value;
    switch (event.type) {
      case 'preview':
        return this.state.next({ ...s, preview: event.stream, deviceLabel: event.label, phase: 'connecting' });
      case 'connection':
        return this.state.next({
          ...s,
          phase:
            event.state === 'connected' ? 'publishing' : event.state === 'connecting' ? 'connecting' : 'interrupted',
        });
      case 'stats':
        return this.state.next({
          ...s,
          kbps: event.kbps,
          fps: event.fps,
          codec: event.codec,
          size: event.width !== null && event.height !== null ? { width: event.width, height: event.height } : null,
        });
      case 'failed':
        this.running = null;
        return this.state.next({
          ...IDLE,
          phase: 'failed',
          stationId: s.stationId,
          camera: s.camera,
          failure: event.failure,
          failureInfo: event.info,
        });
    }
  }
}
