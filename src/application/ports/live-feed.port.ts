import type { Observable } from 'rxjs';
import type { Camera } from '../../domain';

/** One still picture, held until released (an object URL the adapter revokes on release). */
export interface StillFrame {
  readonly url: string;
  /** The machine tick it shows (the server's frame header); 0 when unknown. */
  readonly tick: number;
  release(): void;
}

/** Fetches the stills of the jpg feed [R7-9]. */
export interface StillFramePort {
  /** Fetches `url` once (the caller adds the cache-busting query); emits the frame and completes. */
  fetchFrame(url: string): Observable<StillFrame>;
}

/** What one receive-only video session reports. */
export type RtcSessionEvent =
  | { readonly type: 'connected'; readonly stream: unknown }
  | { readonly type: 'failed'; readonly reason: string }
  | { readonly type: 'trackRemoved' };

/** Receive-only WebRTC sessions of the rtc feed (sora-js-sdk) [R4.2-6, R7-8, R9-12]. */
export interface RtcVideoPort {
  /**
   * Connects one camera's session (video only, VP8, no audio) while subscribed; unsubscribing
   * disconnects it. Errors never: a failure is a 'failed' event.
   */
  connect(session: {
    readonly camera: Camera;
    readonly url: string;
    readonly channel: string;
  }): Observable<RtcSessionEvent>;
}

/**
 * A spectator stream ready to show: the page's video element is given to it (`attach`), and the
 * returned function takes it back. The element is `unknown` here (no DOM in the application layer).
 */
export interface HlsSource {
  attach(element: unknown): () => void;
}

/** What one camera's spectator HLS reports. */
export type HlsSessionEvent =
  | { readonly type: 'ready'; readonly source: HlsSource }
  /** Its first picture is on screen (once per session). */
  | { readonly type: 'playing' }
  | { readonly type: 'failed'; readonly reason: string };

/** The spectators' LL-HLS of a camera (issue 44): hls.js where the browser needs it, native HLS on Safari. */
export interface HlsVideoPort {
  /** Plays `url` while subscribed; unsubscribing stops it. Errors never: a failure is a 'failed' event. */
  connect(session: { readonly camera: Camera; readonly url: string }): Observable<HlsSessionEvent>;
}

/** Browser notifications, where the player permitted them. */
export interface NotificationPort {
  /** Asks for permission if it was never asked (from a user gesture); answers whether granted. */
  requestPermission(): Promise<boolean>;
  /** Shows a notification when permitted; answers whether it was shown. */
  notify(title: string, body: string): boolean;
}
