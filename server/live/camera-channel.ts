import { randomInt } from 'node:crypto';
import { RtpHeader, RtpPacket } from 'werift';
import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { AccessUnit } from './h264-rtp';
import { withPlayoutDelay } from './playout-delay';
import { readVp8Descriptor, startsFrame, startsKeyframe, withPictureId } from './vp8-payload';

/**
 * What a viewer is: a person's rtc session (counted as a viewer), or one of the tools that make
 * something of the video for many: the jpg stills' decoder, the LL-HLS encoder, a play's recorder.
 */
export type CameraViewerKind = 'rtc' | 'stills' | 'hls' | 'recording';

/** A viewer of one camera: where its packets go (a peer connection's track, a tool), and what it hears of the camera. */
export interface CameraViewer {
  /** 'rtc' when absent. */
  readonly kind?: CameraViewerKind;
  /** One RTP packet, serialized (the same bytes for every viewer). */
  write(rtp: Buffer): void;
  /** The camera went dark (publisher gone, station down) or came back: the viewer's video track goes or returns. */
  onLive(live: boolean): void;
  /** The camera's source failed for good: the viewer's session ends. */
  onFailed(reason: string): void;
  /** A new source was attached, or the source left (null): tools that read the source itself hear of it. */
  onSource?(source: CameraSource | null): void;
}

/**
 * A source's own H.264 pictures, for whoever remuxes them without decoding (the spectators'
 * LL-HLS): access units as the publisher sent them, and its keyframe requests.
 */
export interface AccessUnitTap {
  /** Each access unit from now on; the returned function stops them. */
  subscribe(listener: (unit: AccessUnit) => void): () => void;
  /** Asks the publisher for an IDR (a PLI). */
  requestKeyframe(): void;
}

/** Where a camera's VP8 comes from: a WHIP publisher, or (until the agents publish) the server's painter. */
export interface CameraSource {
  readonly kind: 'whip';
  /** The codec the source sends (the publisher's, before any transcoding). */
  readonly codec: string;
  /** Asks the source for a keyframe (a PLI to a publisher); sources that cannot make one on demand ignore it. */
  requestKeyframe(): void;
  /** A publisher's H.264 as it came (only for H.264 publishers; the channel itself carries VP8). */
  readonly accessUnits?: AccessUnitTap;
}

/** A camera that sends nothing this long is dark: its viewers are shown the stills [R11-4]. */
export const SILENT_MS = 1_000;
/** How often the channel looks at its source's silence and rolls its rate counters. */
const WATCH_MS = 250;
/**
 * Keyframe requests to a source at most this often, however many viewers join or lose pictures.
 * Above Chromium's own bound: a publishing browser ignores a request within 300 ms of the last one
 * it acted on (libwebrtc's minimum keyframe send interval), so a request at 300 ms could be lost.
 */
const KEYFRAME_REQUEST_MS = 500;
/** While a viewer still waits for its first keyframe, the request is made again this often (one may be ignored). */
const KEYFRAME_RETRY_MS = 1_000;
/** The payload type the viewers' offers name for VP8. */
const VP8_PAYLOAD_TYPE = 96;
/** Input timestamps remembered with their output picture ids (a frame's late packets find their id). */
const REMEMBERED_FRAMES = 64;

/** What the console shows of one camera (docs/live-feed.md "Cameras from WHIP"). */
export interface CameraChannelStats {
  readonly station_id: number;
  readonly camera: CameraName;
  /** Whether a source sends now (a publisher connected, or the painter). */
  readonly publishing: boolean;
  readonly source: 'whip' | null;
  /** The publisher's codec ('VP8', 'H264'), or null without one. */
  readonly codec: string | null;
  /** Received over the last second. */
  readonly kbps: number;
  readonly fps: number;
  /** When the last keyframe arrived (ISO), or null. */
  readonly last_keyframe_at: string | null;
  /** rtc sessions watching (people), not counting the stills decoder. */
  readonly viewers: number;
  /** Whether its jpg stills are being made from the video now. */
  readonly stills: boolean;
  /** Whether its spectators' LL-HLS is being encoded now (docs/spectators.md). */
  readonly hls: boolean;
  readonly live: boolean;
  /** Whether a play's recording takes its video now (docs/clips.md). */
  readonly recording: boolean;
  /** Why its last recording failed or fell short (or why none can run here), else null. */
  readonly recording_error: string | null;
}

interface ViewerState {
  /** The viewer has had a keyframe: every packet goes to it from then on. */
  synced: boolean;
}

const newer = (a: number, b: number): boolean => a !== b && ((a - b) & 0xffff) < 0x8000;

/**
 * One station camera's video on its way to the viewers (SFU style: nothing encoded per viewer).
 * A source's RTP packets are written again into the channel's own numbering (one SSRC, sequence
 * numbers, timestamps and 15-bit picture ids that run on across a change of publisher), and each
 * packet goes to every viewer that has had a keyframe. A joining viewer waits for the next keyframe
 * and asks the source for one (PLI). A source silent for SILENT_MS makes the camera dark: its
 * viewers' tracks go off (they show the stills) until packets come again.
 */
export class CameraChannel {
  private readonly viewers = new Map<CameraViewer, ViewerState>();
  private source: CameraSource | null = null;
  private attachedAt = 0;
  private lastPacketAt = 0;
  /** Set by the source itself (the painter's dimmed station); a silent source is dark by the watchdog. */
  private sourceDark = false;
  /** The station is down (a maintenance status): its cameras are dark whatever their publisher sends. */
  private stationDown = false;
  private live = false;
  /** Asks waiting for the camera's video (a still asked of a camera its agent starts publishing). */
  private videoWaiters: (() => void)[] = [];
  private watch: ScheduledTask | null = null;
  private lastKeyframeRequest = -Infinity;
  private pendingRequest: ScheduledTask | null = null;
  // The output's numbering.
  private readonly ssrc = randomInt(1, 0xffff_ffff);
  private outSeq = randomInt(0, 0x10000);
  private outTs = randomInt(0, 0xffff_ffff);
  private outPictureId = randomInt(0, 0x8000);
  private outAt = 0;
  // The current input's mapping onto it, set at a keyframe; null: wait for one.
  private mapping: { ssrc: number; seqOffset: number; tsOffset: number; firstSeq: number } | null = null;
  private readonly pictureIds = new Map<number, number>();
  // Rate counters.
  private windowBytes = 0;
  private windowFrames = 0;
  private windowStart = 0;
  private rate = { kbps: 0, fps: 0 };
  private lastKeyframeAt: number | null = null;
  /** Packets written to the viewers (tests and the benchmark read it). */
  packets = 0;
  /** Set by the plays' recorder (server/clips/play-clips.ts): why its last recording failed, or null. */
  recordingError: string | null = null;

  constructor(
    readonly stationId: number,
    readonly camera: CameraName,
    private readonly clock: Clock,
    /** Called when the channel has neither viewers nor a source (its owner drops it). */
    private readonly onIdle: () => void,
    /** Called with the number of viewers whenever it changes (the cameras' demand, camera-demand.ts). */
    private readonly onViewers: (count: number) => void = () => undefined,
  ) {}

  /** The people watching: rtc sessions (the tools are not people). */
  get viewerCount(): number {
    let count = 0;
    for (const viewer of this.viewers.keys()) if ((viewer.kind ?? 'rtc') === 'rtc') count += 1;
    return count;
  }

  /** Whether the camera's stills are being made from its video now. */
  get stillsRunning(): boolean {
    return this.running('stills');
  }

  /** Whether a tool of this kind takes the camera's video now. */
  running(kind: CameraViewerKind): boolean {
    for (const viewer of this.viewers.keys()) if (viewer.kind === kind) return true;
    return false;
  }

  /** Whether video flows now (a source attached, sending, not dark). */
  /**
   * Whether its publisher sends video now (a packet within SILENT_MS), the station up or down: the
   * stills are made from it even while the players' video is dark for a station down [R4.2-10].
   */
  get hasVideo(): boolean {
    return (
      this.source !== null &&
      !this.sourceDark &&
      this.clock.now().getTime() - Math.max(this.lastPacketAt, this.attachedAt) < SILENT_MS
    );
  }

  /** Resolves true once the camera has video (at once if it has), or false if none comes within `ms`. */
  whenVideo(ms: number): Promise<boolean> {
    if (this.hasVideo) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        timer.cancel();
        resolve(true);
      };
      const timer = this.clock.setTimeout(() => {
        this.videoWaiters = this.videoWaiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, ms);
      this.videoWaiters.push(done);
    });
  }

  get isLive(): boolean {
    return this.live;
  }

  get currentSource(): CameraSource | null {
    return this.source;
  }

  /** Adds a viewer: it gets packets from the next keyframe on, which is asked for now. */
  join(viewer: CameraViewer): Promise<void> {
    this.viewers.set(viewer, { synced: false });
    this.onViewers(this.viewers.size);
    this.watching();
    this.keyframeWanted();
    return Promise.resolve();
  }

  leave(viewer: CameraViewer): void {
    if (!this.viewers.delete(viewer)) return;
    this.onViewers(this.viewers.size);
    this.idleCheck();
  }

  /**
   * The viewer's media connection is up: packets written before it were lost (the sender drops them
   * until DTLS is up), so it starts again at the next keyframe, asked for now.
   */
  resync(viewer: CameraViewer): void {
    const state = this.viewers.get(viewer);
    if (!state) return;
    state.synced = false;
    this.keyframeWanted();
  }

  /** A viewer lost a picture (its PLI or FIR): the source is asked for a keyframe. */
  keyframeWanted(): void {
    if (!this.source) return;
    const now = this.clock.now().getTime();
    const wait = this.lastKeyframeRequest + KEYFRAME_REQUEST_MS - now;
    if (wait > 0) {
      // Asked too recently: one more request when the interval ends (a need is never dropped,
      // however many viewers join at once: they all wait for the same keyframe).
      this.pendingRequest ??= this.clock.setTimeout(() => {
        this.pendingRequest = null;
        this.keyframeWanted();
      }, wait);
      return;
    }
    this.lastKeyframeRequest = now;
    this.source.requestKeyframe();
  }

  /** A new source sends from now on (a publisher replacing another, or the painter); its first keyframe starts it. */
  attach(source: CameraSource): void {
    this.source = source;
    this.attachedAt = this.clock.now().getTime();
    this.sourceDark = false;
    this.mapping = null;
    this.lastKeyframeRequest = -Infinity;
    this.watching();
    this.keyframeWanted();
    this.evaluate();
    for (const viewer of [...this.viewers.keys()]) viewer.onSource?.(source);
  }

  /** The source stopped (a publisher left, the painter was stopped): the camera is dark until another comes. */
  detach(source: CameraSource): void {
    if (this.source !== source) return;
    this.source = null;
    this.mapping = null;
    this.evaluate();
    for (const viewer of [...this.viewers.keys()]) viewer.onSource?.(null);
    this.idleCheck();
  }

  /** The painter's station is down (dimmed) or up again. */
  setSourceDark(source: CameraSource, dark: boolean): void {
    if (this.source !== source || this.sourceDark === dark) return;
    this.sourceDark = dark;
    if (dark) this.mapping = null;
    this.evaluate();
  }

  /** The station went down (maintenance) or came back up: the camera is dark meanwhile [R4.2-10]. */
  setStationDown(down: boolean): void {
    if (this.stationDown === down) return;
    this.stationDown = down;
    if (down) this.mapping = null;
    this.evaluate();
  }

  /** The source failed for good: every viewer's session ends. */
  fail(reason: string): void {
    const viewers = [...this.viewers.keys()];
    this.viewers.clear();
    this.source = null;
    this.onViewers(0);
    for (const viewer of viewers) viewer.onFailed(reason);
    this.idleCheck();
  }

  /** Ends the channel: viewers dropped, no callbacks (server shutdown). */
  close(): void {
    this.viewers.clear();
    this.source = null;
    this.watch?.cancel();
    this.watch = null;
    this.pendingRequest?.cancel();
    this.pendingRequest = null;
  }

  /** One RTP packet of VP8 from `source`. */
  push(source: CameraSource, packet: RtpPacket): void {
    if (this.source !== source || this.sourceDark) return;
    if (this.videoWaiters.length > 0) {
      const waiters = this.videoWaiters;
      this.videoWaiters = [];
      for (const waiter of waiters) waiter();
    }
    const descriptor = readVp8Descriptor(packet.payload);
    if (!descriptor) return;
    const now = this.clock.now().getTime();
    this.lastPacketAt = now;
    this.windowBytes += packet.payload.length;
    const { header } = packet;
    const keyframe = startsKeyframe(packet.payload, descriptor);
    if (keyframe) this.lastKeyframeAt = now;
    if (startsFrame(descriptor)) this.windowFrames += 1;
    if (!this.live) this.evaluate();
    // A new input (another publisher, a restarted encoder, another SSRC) joins the output at a keyframe.
    if (this.mapping && this.mapping.ssrc !== header.ssrc) this.mapping = null;
    if (!this.mapping) {
      if (!keyframe) return this.keyframeWanted();
      const gap = Math.max(1, Math.round((now - this.outAt) * 90));
      this.mapping = {
        ssrc: header.ssrc,
        seqOffset: (this.outSeq + 1 - header.sequenceNumber) & 0xffff,
        tsOffset: (this.outTs + gap - header.timestamp) >>> 0,
        firstSeq: header.sequenceNumber,
      };
      this.pictureIds.clear();
    } else if (newer(this.mapping.firstSeq, header.sequenceNumber)) {
      return; // From before the keyframe this input joined at.
    }
    const seq = (header.sequenceNumber + this.mapping.seqOffset) & 0xffff;
    const timestamp = (header.timestamp + this.mapping.tsOffset) >>> 0;
    let pictureId = this.pictureIds.get(header.timestamp);
    if (pictureId === undefined) {
      this.outPictureId = (this.outPictureId + 1) & 0x7fff;
      pictureId = this.outPictureId;
      this.pictureIds.set(header.timestamp, pictureId);
      if (this.pictureIds.size > REMEMBERED_FRAMES) this.pictureIds.delete(this.pictureIds.keys().next().value!);
    }
    if (newer(seq, this.outSeq)) this.outSeq = seq;
    this.outTs = timestamp;
    this.outAt = now;
    const out = withPlayoutDelay(
      new RtpPacket(
        new RtpHeader({
          payloadType: VP8_PAYLOAD_TYPE,
          sequenceNumber: seq,
          timestamp,
          ssrc: this.ssrc,
          marker: header.marker,
        }),
        withPictureId(packet.payload, descriptor, pictureId),
      ),
    );
    this.packets += 1;
    for (const [viewer, state] of this.viewers) {
      // A station down: nothing goes to the players and spectators (their video is dark); the
      // stills and a recording go on.
      if (this.stationDown && (viewer.kind === undefined || viewer.kind === 'rtc' || viewer.kind === 'hls')) continue;
      if (!state.synced) {
        if (!keyframe) continue;
        state.synced = true;
      }
      viewer.write(out);
    }
  }

  stats(): CameraChannelStats {
    return {
      station_id: this.stationId,
      camera: this.camera,
      publishing: this.hasVideo,
      source: this.source?.kind ?? null,
      codec: this.source?.codec ?? null,
      kbps: this.rate.kbps,
      fps: this.rate.fps,
      last_keyframe_at: this.lastKeyframeAt === null ? null : new Date(this.lastKeyframeAt).toISOString(),
      viewers: this.viewerCount,
      stills: this.stillsRunning,
      hls: this.running('hls'),
      live: this.live,
      recording: this.running('recording'),
      recording_error: this.recordingError,
    };
  }

  /** Whether the camera is live now: it has video (see hasVideo) and its station is up. */
  private evaluate(): void {
    const live = this.hasVideo && !this.stationDown;
    if (live === this.live) return;
    this.live = live;
    // Viewers get packets again from the next keyframe.
    if (live) for (const state of this.viewers.values()) state.synced = false;
    for (const viewer of [...this.viewers.keys()]) viewer.onLive(live);
    if (live) this.keyframeWanted();
  }

  private watching(): void {
    if (this.watch) return;
    this.windowStart = this.clock.now().getTime();
    this.watch = repeatEvery(this.clock, WATCH_MS, () => {
      this.evaluate();
      const now = this.clock.now().getTime();
      // A publisher may ignore a request (a browser does within 300 ms of its last keyframe): a
      // viewer still waiting asks again rather than wait for the publisher's own next keyframe.
      if (this.live && now - this.lastKeyframeRequest >= KEYFRAME_RETRY_MS) {
        for (const state of this.viewers.values())
          if (!state.synced) {
            this.keyframeWanted();
            break;
          }
      }
      const span = now - this.windowStart;
      if (span >= 1_000) {
        this.rate = {
          kbps: Math.round((this.windowBytes * 8) / span),
          fps: Math.round((this.windowFrames * 1000) / span),
        };
        this.windowBytes = 0;
        this.windowFrames = 0;
        this.windowStart = now;
      }
    });
  }

  private idleCheck(): void {
    if (this.viewers.size > 0 || this.source) return;
    this.watch?.cancel();
    this.watch = null;
    this.pendingRequest?.cancel();
    this.pendingRequest = null;
    this.onIdle();
  }
}
