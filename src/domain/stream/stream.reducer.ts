import { VIDEO_CODEC } from '../constants';
import { stillImageRefreshMs } from './still-image.rule';
import { streamFeed, type Camera, type StreamFeed, type WatchInfo } from './station-info.entity';
import type { WatchRole } from './watch-role.rule';

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
  /** Who watches (issue 44): a spectator watches the station's HLS when it has one; a player their mode. */
  readonly role: WatchRole;
  /** The picture comes from the spectators' HLS now (a spectator, the feed has HLS, and it has not failed). */
  readonly spectating: boolean;
  /** This stream's HLS failed: the spectator watches in the player's mode until the next start. */
  readonly hlsFailed: boolean;
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
  role: 'player',
  spectating: false,
  hlsFailed: false,
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
  /** One camera's rtc session ends (the picture moved to HLS). */
  | { readonly type: 'disconnectRtc'; readonly camera: Camera }
  /** One camera's spectator HLS starts playing (hidden under the current picture until it plays). */
  | { readonly type: 'connectHls'; readonly camera: Camera; readonly url: string }
  /** One camera's HLS ends (the picture moved to rtc or stills). */
  | { readonly type: 'disconnectHls'; readonly camera: Camera }
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
  | { readonly type: 'start'; readonly mode: StreamType; readonly watch: WatchInfo; readonly role?: WatchRole }
  /** The viewer became a spectator or a player (their place in line, their play). */
  | { readonly type: 'setRole'; readonly role: WatchRole }
  /** One camera's rtc video presented its first picture (the page's video element plays). */
  | { readonly type: 'rtcPlaying'; readonly camera: Camera }
  /** One camera's HLS presented its first picture. */
  | { readonly type: 'hlsPlaying'; readonly camera: Camera }
  /** One camera's HLS failed for good (the network, the browser cannot play it). */
  | { readonly type: 'hlsFailed'; readonly camera: Camera }
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
const disconnectHls: readonly StreamEffect[] = CAMERAS.map((camera) => ({ type: 'disconnectHls', camera }));
const connectRtc = (feed: StreamFeed): readonly StreamEffect[] =>
  CAMERAS.map((camera) => ({
    type: 'connectRtc',
    camera,
    url: feed.rtcUrl,
    channel: feed.channels[camera],
    role: 'recvonly',
    codec: VIDEO_CODEC,
    video: true,
    audio: false,
  }));
const connectHls = (hls: Readonly<Record<Camera, string>>): readonly StreamEffect[] =>
  CAMERAS.map((camera) => ({ type: 'connectHls', camera, url: hls[camera] }));

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
 *
 * Spectators (issue 44, beyond the spec): a start as a spectator on a feed with HLS plays each
 * camera's HLS instead of connecting rtc; the still (or poster) shows until it plays. A change of
 * role moves the picture without a gap: the new source starts under the current one, and the old
 * one ends only once the new one shows (rtcPlaying, hlsPlaying: a picture on screen, not merely a
 * connected session). An HLS failure falls back to the
 * player's mode for the rest of this stream.
 */
export function streamReducer(state: StreamState, event: StreamEvent): StreamTransition {
  switch (event.type) {
    case 'start': {
      const reset: readonly StreamEffect[] =
        state.feed === null
          ? []
          : [{ type: 'stopImageRefresh' }, { type: 'disconnectAll' }, ...removeVideos, { type: 'removeStillImages' }];
      const feed = streamFeed(event.watch);
      const role = event.role ?? state.role;
      const spectating = role === 'spectator' && feed.hls !== null;
      const connect: readonly StreamEffect[] = spectating
        ? connectHls(feed.hls!)
        : event.mode === 'rtc'
          ? connectRtc(feed)
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
          role,
          spectating,
          hlsFailed: false,
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
      // A session that connects after the viewer became a spectator is not wanted any more.
      if (state.spectating)
        return {
          state,
          effects: [
            { type: 'disconnectRtc', camera: event.camera },
            { type: 'removeVideoElement', camera: event.camera },
          ],
        };
      return {
        state: { ...state, isReloading: false },
        effects: [
          { type: 'hideStillImage', camera: event.camera },
          // The camera not in view ends its HLS at once (nobody sees the move, and a browser does not
          // play a video out of view, so it would never report one showing).
          ...(event.camera !== state.view && state.feed?.hls
            ? [{ type: 'disconnectHls', camera: event.camera } as const]
            : []),
        ],
      };
    case 'rtcFailed':
      if (state.type !== 'rtc' || !state.isStreaming) return { state, effects: [] };
      // Moving to HLS: the session it replaces ended early; the HLS (or the still) shows.
      if (state.spectating)
        return {
          state,
          effects: [
            { type: 'disconnectRtc', camera: event.camera },
            { type: 'removeVideoElement', camera: event.camera },
          ],
        };
      return {
        state: { ...state, type: 'jpg', isSignalingError: true },
        effects: [{ type: 'disconnectAll' }, ...removeVideos, { type: 'showStillImages' }, { type: 'refreshImages' }],
      };
    case 'setRole': {
      const next = { ...state, role: event.role };
      const hls = state.feed?.hls ?? null;
      if (!state.isStreaming || !state.feed || !hls || state.hlsFailed) return { state: next, effects: [] };
      if (event.role === 'spectator' && !state.spectating) {
        // The camera not in view leaves rtc at once (its HLS will not play out of view to say so).
        const hidden: Camera = state.view === 'front' ? 'side' : 'front';
        const leave: readonly StreamEffect[] =
          state.type === 'rtc'
            ? [
                { type: 'disconnectRtc', camera: hidden },
                { type: 'removeVideoElement', camera: hidden },
                { type: 'showStillImage', camera: hidden },
              ]
            : [];
        return { state: { ...next, spectating: true }, effects: [...connectHls(hls), ...leave] };
      }
      if (event.role === 'player' && state.spectating)
        return {
          state: { ...next, spectating: false },
          // rtc starts under the HLS, which ends camera by camera as each session shows; in jpg
          // mode the stills show again at once.
          effects:
            state.type === 'rtc'
              ? connectRtc(state.feed)
              : [...disconnectHls, { type: 'showStillImages' }, { type: 'refreshImages' }],
        };
      return { state: next, effects: [] };
    }
    case 'rtcPlaying':
      // Moving from HLS: the spectator's picture ends once the real-time one shows.
      if (!state.isStreaming || state.spectating || !state.feed?.hls) return { state, effects: [] };
      return { state, effects: [{ type: 'disconnectHls', camera: event.camera }] };
    case 'hlsPlaying':
      if (!state.isStreaming || !state.spectating) return { state, effects: [] };
      return {
        state: { ...state, isReloading: false },
        effects: [
          { type: 'hideStillImage', camera: event.camera },
          // Moving from rtc: the real-time session ends once the HLS shows.
          { type: 'disconnectRtc', camera: event.camera },
          { type: 'removeVideoElement', camera: event.camera },
        ],
      };
    case 'hlsFailed':
      if (!state.isStreaming || !state.spectating) return { state, effects: [] };
      return {
        state: { ...state, spectating: false, hlsFailed: true },
        effects: [
          ...disconnectHls,
          { type: 'showStillImages' },
          { type: 'refreshImages' },
          ...(state.type === 'rtc' ? connectRtc(state.feed!) : []),
        ],
      };
    case 'frameLoaded':
      return state.isReloading && state.type === 'jpg' && !state.spectating
        ? { state: { ...state, isReloading: false }, effects: [] }
        : { state, effects: [] };
    case 'stop': {
      if (!state.isStreaming) return { state, effects: [] };
      const rtc: readonly StreamEffect[] =
        state.type === 'rtc' || state.spectating ? [{ type: 'pauseRtc' }, { type: 'disconnectAll' }] : [];
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
