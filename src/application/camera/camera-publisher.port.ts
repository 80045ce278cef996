import type { Observable } from 'rxjs';
import type { Camera } from '../../domain';

/** Where a camera publishes: its station's WHIP endpoint and the station's key (Bearer). */
export interface CameraPublishTarget {
  readonly stationId: number;
  readonly camera: Camera;
  readonly key: string;
}

/** Why publishing stopped or could not start. */
export type CameraPublishFailure =
  /** The person or the browser refused the camera. */
  | 'camera-denied'
  /** No camera, or the browser cannot capture one here (not a secure page). */
  | 'no-camera'
  /** The key was not accepted (wrong, revoked, expired). */
  | 'bad-key'
  /** The key is for other stations. */
  | 'other-station'
  /** The endpoint refused the offer (it says why in `info`) or is unreachable. */
  | 'refused'
  /** The media connection failed after it was up, or never came up. */
  | 'connection-failed';

/** What a publishing camera reports, in order: its preview, its connection, its numbers every second. */
export type CameraPublishEvent =
  | { readonly type: 'preview'; readonly stream: unknown; readonly label: string }
  | { readonly type: 'connection'; readonly state: 'connecting' | 'connected' | 'disconnected' }
  | {
      readonly type: 'stats';
      readonly kbps: number;
      readonly fps: number | null;
      readonly codec: string | null;
      readonly width: number | null;
      readonly height: number | null;
    }
  | { readonly type: 'failed'; readonly failure: CameraPublishFailure; readonly info: string | null };

/**
 * A device camera published over WHIP (docs/live-feed.md "The camera page"): while subscribed, the
 * camera is open and sent to the station's WHIP endpoint; unsubscribing ends the session (DELETE)
 * and closes the camera. Never errors: a failure is a 'failed' event, after which nothing runs.
 */
export interface CameraPublisherPort {
  publish(target: CameraPublishTarget): Observable<CameraPublishEvent>;
}
