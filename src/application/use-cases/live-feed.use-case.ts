import { inject, injectable } from 'inversify';
import type { Subscription } from 'rxjs';
import {
  INITIAL_STREAM_STATE,
  luminanceFilter,
  stillImageUrl,
  streamReducer,
  type Camera,
  type LuminanceFilter,
  type StationInfo,
  type StreamEffect,
  type StreamEvent,
  type StreamState,
  type StreamType,
  type WatchRole,
} from '../../domain';
import type { ScheduledTask, ClockPort } from '../ports/clock.port';
import type { HlsSource, HlsVideoPort, RtcVideoPort, StillFrame, StillFramePort } from '../ports/live-feed.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

const CAMERAS: readonly Camera[] = ['front', 'side'];

/** What the page renders for one camera: the still picture and/or the video, and its filter. */
export interface CameraView {
  /** The current still picture (an object URL), or null before the first. */
  readonly still: string | null;
  /** Whether the still is shown (hidden once that camera's video plays) [R4.2-8]. */
  readonly stillVisible: boolean;
  /** The machine tick the still shows. */
  readonly stillTick: number;
  /** The video stream of an rtc session (a MediaStream in the browser), or null. */
  readonly video: unknown;
  /** The spectator HLS to show in a video element (under the rtc video while both exist), or null. */
  readonly hls: HlsSource | null;
  /** Luminance as a display filter [R9-9]. */
  readonly filter: LuminanceFilter;
}

export interface LiveFeedState {
  readonly stream: StreamState;
  readonly cameras: Readonly<Record<Camera, CameraView>>;
  /** Stills received per second over the last second, per camera. */
  readonly fps: Readonly<Record<Camera, number>>;
}

const NO_FILTER: LuminanceFilter = {
  brightness: 1,
  saturate: 1,
  contrast: 1,
  css: 'brightness(1) saturate(1) contrast(1)',
};
const emptyCamera: CameraView = {
  still: null,
  stillVisible: true,
  stillTick: 0,
  video: null,
  hls: null,
  filter: NO_FILTER,
};

/** A still frame's arrival, for latency measurement. */
export interface FrameArrival {
  readonly camera: Camera;
  readonly tick: number;
  readonly receivedAt: number;
}

/**
 * The live feed of spec §4.2 [R4.2-1…R4.2-10]: the domain's stream reducer decides, this use-case
 * carries out its effects as state React renders (no DOM here). jpg: each camera's still is
 * fetched, shown, and fetched again STILL_IMAGE_REFRESH_MS after it arrived (rate 2 when the page
 * is hidden) [R9-8, R7-9]; a request is never started while the previous one is in flight, and each
 * picture's object URL is released when the next replaces it or the feed stops. rtc: two
 * receive-only sessions (front, side) in parallel; a failure of either falls back to jpg with the
 * signaling-error flag [R4.2-6, R4.2-7].
 */
@injectable()
export class LiveFeed extends StateStore<LiveFeedState> {
  private rtc = new Map<Camera, Subscription>();
  private hls = new Map<Camera, Subscription>();
  private loops = new Map<Camera, { timer: ScheduledTask | null; request: Subscription | null }>();
  private frames = new Map<Camera, StillFrame>();
  private intervalMs = 0;
  private refreshing = false;
  private readonly arrivals: number[][] = [[], []];
  private readonly arrivalListeners = new Set<(arrival: FrameArrival) => void>();

  constructor(
    @inject(TOKENS.StillFramePort) private readonly stills: StillFramePort,
    @inject(TOKENS.RtcVideoPort) private readonly video: RtcVideoPort,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
    @inject(TOKENS.HlsVideoPort) private readonly spectate: HlsVideoPort,
  ) {
    super({
      stream: INITIAL_STREAM_STATE,
      cameras: { front: emptyCamera, side: emptyCamera },
      fps: { front: 0, side: 0 },
    });
    this.own(() => this.teardown());
  }

  /**
   * Starts (or restarts) the feed of a station [R4.2-2…R4.2-6]; `role` says who watches (a
   * spectator watches the station's HLS, issue 44), else the last role told.
   */
  start(info: StationInfo, mode: StreamType, role?: WatchRole): void {
    this.setState((s) => ({
      ...s,
      cameras: {
        front: { ...s.cameras.front, filter: luminanceFilter(info, 'front') },
        side: { ...s.cameras.side, filter: luminanceFilter(info, 'side') },
      },
    }));
    this.dispatch({ type: 'start', mode, watch: info.watch_info, ...(role ? { role } : {}) });
  }

  /** The page's rtc video of a camera shows its first picture (the move from HLS completes). */
  rtcPlaying(camera: Camera): void {
    this.dispatch({ type: 'rtcPlaying', camera });
  }

  /** The viewer became a spectator or a player: the picture moves between HLS and real time without a gap. */
  setRole(role: WatchRole): void {
    this.dispatch({ type: 'setRole', role });
  }

  /** Stops the feed [R4.2-9]. */
  stop(): void {
    this.dispatch({ type: 'stop' });
  }

  switchView(view: Camera): void {
    this.dispatch({ type: 'switchView', view });
  }

  /** The page went to the background or came back: the refresh rate follows [R9-8]. */
  setBrowsing(isBrowsing: boolean): void {
    this.dispatch({ type: 'browsingChanged', isBrowsing });
  }

  /** Calls `listener` with every still that arrives (the play screen measures latency with it). */
  onFrame(listener: (arrival: FrameArrival) => void): () => void {
    this.arrivalListeners.add(listener);
    return () => this.arrivalListeners.delete(listener);
  }

  private dispatch(event: StreamEvent): void {
    if (this.disposed) return;
    const { state, effects } = streamReducer(this.snapshot.stream, event);
    this.setState((s) => ({ ...s, stream: state }));
    for (const effect of effects) this.run(effect);
  }

  private patchCamera(camera: Camera, patch: Partial<CameraView>): void {
    this.setState((s) => ({ ...s, cameras: { ...s.cameras, [camera]: { ...s.cameras[camera], ...patch } } }));
  }

  private run(effect: StreamEffect): void {
    switch (effect.type) {
      case 'connectRtc':
        this.rtc.get(effect.camera)?.unsubscribe();
        this.rtc.set(
          effect.camera,
          this.video.connect({ camera: effect.camera, url: effect.url, channel: effect.channel }).subscribe((e) => {
            if (e.type === 'connected') {
              this.patchCamera(effect.camera, { video: e.stream });
              this.dispatch({ type: 'rtcConnected', camera: effect.camera });
            } else if (e.type === 'failed') {
              // Stream errors are only logged, with the fallback to stills [R8-10].
              console.warn(`onkure: live video (${effect.camera}) failed: ${e.reason}; showing still pictures`);
              this.dispatch({ type: 'rtcFailed', camera: effect.camera });
            } else {
              this.dispatch({ type: 'trackRemoved', camera: effect.camera });
            }
          }),
        );
        return;
      case 'disconnectRtc':
        this.rtc.get(effect.camera)?.unsubscribe();
        this.rtc.delete(effect.camera);
        return;
      case 'connectHls':
        this.hls.get(effect.camera)?.unsubscribe();
        this.hls.set(
          effect.camera,
          this.spectate.connect({ camera: effect.camera, url: effect.url }).subscribe((e) => {
            if (e.type === 'ready') this.patchCamera(effect.camera, { hls: e.source });
            else if (e.type === 'playing') this.dispatch({ type: 'hlsPlaying', camera: effect.camera });
            else {
              console.warn(`onkure: spectator video (${effect.camera}) failed: ${e.reason}; watching live instead`);
              this.dispatch({ type: 'hlsFailed', camera: effect.camera });
            }
          }),
        );
        return;
      case 'disconnectHls':
        this.hls.get(effect.camera)?.unsubscribe();
        this.hls.delete(effect.camera);
        this.patchCamera(effect.camera, { hls: null });
        return;
      case 'pauseRtc':
        for (const sub of this.rtc.values()) sub.unsubscribe();
        this.rtc.clear();
        return;
      case 'disconnectAll':
        for (const sub of this.rtc.values()) sub.unsubscribe();
        this.rtc.clear();
        for (const camera of [...this.hls.keys()]) this.run({ type: 'disconnectHls', camera });
        return;
      case 'removeVideoElement':
        this.patchCamera(effect.camera, { video: null });
        return;
      case 'insertStillImages':
        for (const camera of CAMERAS) this.patchCamera(camera, { stillVisible: true });
        return;
      case 'removeStillImages':
        this.stopLoops();
        this.releaseFrames();
        for (const camera of CAMERAS) this.patchCamera(camera, { still: null, stillTick: 0 });
        return;
      case 'showStillImages':
        for (const camera of CAMERAS) this.patchCamera(camera, { stillVisible: true });
        return;
      case 'hideStillImage':
        this.patchCamera(effect.camera, { stillVisible: false });
        return;
      case 'showStillImage':
        this.patchCamera(effect.camera, { stillVisible: true });
        if (this.refreshing && !this.loops.get(effect.camera)?.request) this.fetchNow(effect.camera);
        return;
      case 'startImageRefresh':
        this.intervalMs = effect.intervalMs;
        this.refreshing = true;
        for (const camera of CAMERAS) if (!this.loops.get(camera)?.request) this.fetchNow(camera);
        return;
      case 'stopImageRefresh':
        this.refreshing = false;
        this.stopLoops();
        return;
      case 'refreshImages':
        for (const camera of CAMERAS) if (!this.loops.get(camera)?.request) this.fetchNow(camera);
        return;
    }
  }

  private stopLoops(): void {
    for (const loop of this.loops.values()) {
      loop.timer?.cancel();
      loop.request?.unsubscribe();
    }
    this.loops.clear();
  }

  private releaseFrames(): void {
    for (const frame of this.frames.values()) frame.release();
    this.frames.clear();
  }

  /**
   * Fetches one still now; when refreshing, the next one follows after the interval. A camera
   * whose video plays (its still hidden) skips the fetch and only keeps the beat, so rtc viewers
   * do not also download pictures nobody sees; an explicit refresh always fetches.
   */
  private fetchNow(camera: Camera, onBeat = false): void {
    const feed = this.snapshot.stream.feed;
    if (!feed || this.disposed) return;
    const loop = this.loops.get(camera) ?? { timer: null, request: null };
    this.loops.set(camera, loop);
    loop.timer?.cancel();
    loop.timer = null;
    if (onBeat && !this.snapshot.cameras[camera].stillVisible) {
      this.scheduleNext(camera, loop);
      return;
    }
    const url = stillImageUrl(feed.stillImages[camera], this.clock.now());
    loop.request = this.stills.fetchFrame(url).subscribe({
      next: (frame) => this.showFrame(camera, frame),
      error: () => this.scheduleNext(camera, loop),
      complete: () => this.scheduleNext(camera, loop),
    });
  }

  private scheduleNext(camera: Camera, loop: { timer: ScheduledTask | null; request: Subscription | null }): void {
    loop.request = null;
    if (!this.refreshing || this.disposed || this.loops.get(camera) !== loop) return;
    loop.timer = this.clock.setTimeout(() => this.fetchNow(camera, true), this.intervalMs);
  }

  private showFrame(camera: Camera, frame: StillFrame): void {
    if (this.disposed) {
      frame.release();
      return;
    }
    this.frames.get(camera)?.release();
    this.frames.set(camera, frame);
    const now = this.clock.now();
    const times = this.arrivals[camera === 'front' ? 0 : 1]!;
    times.push(now);
    while (times.length > 0 && now - times[0]! > 1000) times.shift();
    this.setState((s) => ({
      ...s,
      cameras: { ...s.cameras, [camera]: { ...s.cameras[camera], still: frame.url, stillTick: frame.tick } },
      fps: { ...s.fps, [camera]: times.length },
    }));
    this.dispatch({ type: 'frameLoaded' });
    for (const listener of this.arrivalListeners) listener({ camera, tick: frame.tick, receivedAt: now });
  }

  private teardown(): void {
    this.refreshing = false;
    for (const sub of this.rtc.values()) sub.unsubscribe();
    this.rtc.clear();
    for (const sub of this.hls.values()) sub.unsubscribe();
    this.hls.clear();
    this.stopLoops();
    this.releaseFrames();
    this.arrivalListeners.clear();
  }
}
