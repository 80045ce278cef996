import { VIDEO_CODEC } from '../constants';
import { stillImageRefreshMs } from './still-image.rule';
import { streamFeed, type Camera, type StreamFeed, type WatchInfo } from './station-info.entity';

/** jpg: still images refreshed by polling; rtc: two receive-only WebRTC sessions. */
export type StreamType = 'jpg' | 'rtc';

/**
 * The stream state [R4.2-1]. isBrowsing: the station page is in the foreground (the refresh cadence
 * follows it, R9-8). feed: the feed of the current (or last) stream; null before the first start.
 */
export interface StreamState {
  readonly type: StreamType;
  readonly isStreaming: boolean;
  /** Waiting for the first picture of this stream. */
  readonly isReloading: boolean;
  readonly stoppedStream: boolean;
  readonly isBrowsing: boolean;
  readonly isSignalingError: boolean;
  /** Which camera the player looks through. */
  readonly view: Camera;
  readonly feed: StreamFeed | null;
}

export const INITIAL_STREAM_STATE: StreamState = {
  type: 'jpg',
  isStreaming: false,
  isReloading: false,
  stoppedStream: false,
  isBrowsing: true,
  isSignalingError: false,
  view: 'front',
  feed: null,
};

/** Something an adapter does for the reducer. */
export type StreamEffect =
  | {
      readonly type: 'connectRtc';
      readonly camera: Camera;
      readonly url: string;
      readonly channel: string;
      readonly role: 'recvonly';
      readonly codec: typeof VIDEO_CODEC;
      readonly video: true;
      readonly audio: false;
    }
  | { readonly type: 'pauseRtc' }
  | { readonly type: 'disconnectAll' }
  | { readonly type: 'removeVideoElement'; readonly camera: Camera }
  | { readonly type: 'insertStillImages'; readonly urls: Readonly<Record<Camera, string>> }
  | { readonly type: 'removeStillImages' }
  | { readonly type: 'showStillImages' }
  | { readonly type: 'hideStillImage'; readonly camera: Camera }
  | { readonly type: 'showStillImage'; readonly camera: Camera }
  | { readonly type: 'startImageRefresh'; readonly intervalMs: number }
  | { readonly type: 'stopImageRefresh' }
  /** Fetch one fresh frame of each still image now. */
  | { readonly type: 'refreshImages' };

export type StreamEvent =
  | { readonly type: 'start'; readonly mode: StreamType; readonly watch: WatchInfo }
  /** One rtc session delivered its video. */
  | { readonly type: 'rtcConnected'; readonly camera: Camera }
  /** One rtc session failed (signaling, ICE, abnormal end). */
  | { readonly type: 'rtcFailed'; readonly camera: Camera }
  /** A still frame arrived. */
  | { readonly type: 'frameLoaded' }
  | { readonly type: 'stop' }
  | { readonly type: 'trackRemoved'; readonly camera: Camera }
  | { readonly type: 'switchView'; readonly view: Camera }
  | { readonly type: 'browsingChanged'; readonly isBrowsing: boolean };

export interface StreamTransition {
  readonly state: StreamState;
  readonly effects: readonly StreamEffect[];
}

const CAMERAS: readonly Camera[] = ['front', 'side'];
const removeVideos: readonly StreamEffect[] = CAMERAS.map((camera) => ({ type: 'removeVideoElement', camera }));

/**
 * The stream as a pure reducer [R4.2-1…R4.2-10]: the next state and the effects to run, in order.
 * - start: reset the previous stream (if any), build the feed (default channels), insert the two
 *   still images and start their refresh, streaming and reloading true, stopped false; in rtc mode
 *   connect front and side receive-only, video only, VP8, no audio.
 * - rtcConnected: hide that camera's still image (rtc success); in jpg mode stills stay shown.
 * - rtcFailed (either session): disconnect both, fall back to jpg, signaling error, remove the
 *   video elements, show and refresh the still images. Ignored when no rtc stream is running
 *   (the second session's failure after the fallback, or a late event after stop).
 * - stop: streaming and reloading false, stopped true; rtc paused and disconnected; stills refreshed once.
 * - trackRemoved: remove that camera's video element; its still picture shows again (the stills
 *   keep refreshing in rtc mode), so the camera is never blank.
 */
export function streamReducer(state: StreamState, event: StreamEvent): StreamTransition {
  switch (event.type) {
    case 'start': {
      const reset: readonly StreamEffect[] =
        state.feed === null
          ? []
          : [{ type: 'stopImageRefresh' }, { type: 'disconnectAll' }, ...removeVideos, { type: 'removeStillImages' }];
      const feed = streamFeed(event.watch);
      const connect: readonly StreamEffect[] =
        event.mode === 'rtc'
          ? CAMERAS.map((camera) => ({
              type: 'connectRtc',
              camera,
              url: feed.rtcUrl,
              channel: feed.channels[camera],
              role: 'recvonly',
              codec: VIDEO_CODEC,
              video: true,
              audio: false,
            }))
          : [];
      return {
        state: {
          ...state,
          type: event.mode,
          isStreaming: true,
          isReloading: true,
          stoppedStream: false,
          isSignalingError: false,
          feed,
        },
        effects: [
          ...reset,
          { type: 'insertStillImages', urls: feed.stillImages },
          { type: 'startImageRefresh', intervalMs: stillImageRefreshMs(state.isBrowsing) },
          ...connect,
        ],
      };
    }
    case 'rtcConnected':
      if (state.type !== 'rtc' || !state.isStreaming) return { state, effects: [] };
      return { state: { ...state, isReloading: false }, effects: [{ type: 'hideStillImage', camera: event.camera }] };
    case 'rtcFailed':
      if (state.type !== 'rtc' || !state.isStreaming) return { state, effects: [] };
      return {
        state: { ...state, type: 'jpg', isSignalingError: true },
        effects: [{ type: 'disconnectAll' }, ...removeVideos, { type: 'showStillImages' }, { type: 'refreshImages' }],
      };
    case 'frameLoaded':
      return state.isReloading && state.type === 'jpg'
        ? { state: { ...state, isReloading: false }, effects: [] }
        : { state, effects: [] };
    case 'stop': {
      if (!state.isStreaming) return { state, effects: [] };
      const rtc: readonly StreamEffect[] =
        state.type === 'rtc' ? [{ type: 'pauseRtc' }, { type: 'disconnectAll' }] : [];
      return {
        state: { ...state, isStreaming: false, isReloading: false, stoppedStream: true },
        effects: [{ type: 'stopImageRefresh' }, ...rtc, { type: 'refreshImages' }],
      };
    }
    case 'trackRemoved':
      return {
        state,
        effects: [
          { type: 'removeVideoElement', camera: event.camera },
          { type: 'showStillImage', camera: event.camera },
        ],
      };
    case 'switchView':
      return { state: state.view === event.view ? state : { ...state, view: event.view }, effects: [] };
    case 'browsingChanged': {
      if (state.isBrowsing === event.isBrowsing) return { state, effects: [] };
      const next = { ...state, isBrowsing: event.isBrowsing };
      return {
        state: next,
        effects: state.isStreaming
          ? [{ type: 'startImageRefresh', intervalMs: stillImageRefreshMs(event.isBrowsing) }]
          : [],
      };
    }
  }
}
