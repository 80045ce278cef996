import type { Clock } from '../clock';
import type { AccessUnitTap, CameraSource } from './camera-channel';
import type { AccessUnit } from './h264-rtp';
import { CMAF_TIMESCALE, H264CmafWriter, type CmafSample } from './h264-cmaf';
import { PART_TARGET_S, SEGMENT_TARGET_S, type LlHlsStream } from './ll-hls';

/** A part is at most this long (90 kHz ticks). */
const PART_TICKS = Math.round(PART_TARGET_S * CMAF_TIMESCALE);
/**
 * The longest step from one picture to the next in the stream's time. A publisher that stalls
 * (a network cut, a busy camera) leaves a gap in its RTP time; the stream closes it up to this,
 * so that a part never exceeds PART_TICKS and players are not asked to wait through a hole
 * (what the encoded path does for gaps over 1 s, camera-hls.ts).
 */
const MAX_STEP_TICKS = Math.round(0.25 * CMAF_TIMESCALE);
/** A source's pictures' duration when nothing follows them (a publisher gone): one frame at 30 fps. */
const LAST_STEP_TICKS = CMAF_TIMESCALE / 30;
/** Keyframe requests to the publisher at most this often. */
const KEYFRAME_ASK_MS = 500;
/** Pictures out of decode order within this many are a stream with B-frames: it cannot be remuxed. */
const REORDER_WINDOW = 60;
const REORDERS_TO_REFUSE = 3;

const nalType = (unit: Buffer) => (unit[0] ?? 0) & 0x1f;

interface Pending {
  readonly units: readonly Buffer[];
  readonly dts: number;
  readonly keyframe: boolean;
}

export interface RemuxerEvents {
  /** The publisher's pictures come out of decode order (B-frames): their decode times are unknown. */
  notRemuxable(reason: string): void;
  /** The picture changed (a new SPS or PPS: another size or profile): the init segment no longer fits. */
  changed(reason: string): void;
}

/**
 * A publisher's H.264 remuxed into the camera's LL-HLS, never decoded (docs/spectators.md): its
 * access units become CMAF samples with their RTP times (90 kHz, as the MP4's timescale), gathered
 * into parts of at most PART_TARGET_S. A part is cut before a keyframe once the segment is long
 * enough to close, so segments start at the publisher's keyframes; when one is due the publisher
 * is asked for a keyframe (a PLI: browsers and GStreamer answer at once; OBS and ffmpeg send theirs
 * on their own interval, and a segment that reaches its limit without one closes anyway, the next
 * starting mid-GOP). The time runs on across publishers that send the same picture format.
 */
export class H264HlsRemuxer {
  readonly mode = 'remux';
  readonly pid = undefined;
  private unsubscribe: (() => void) | null = null;
  private tap: AccessUnitTap | null = null;
  private writer: H264CmafWriter | null = null;
  private sps: Buffer | null = null;
  private pps: Buffer | null = null;
  /** From a new source (or the start): nothing is taken before its first IDR. */
  private waitingForKeyframe = true;
  private pending: Pending[] = [];
  private lastRtp = 0;
  /** Where the next source's first picture goes in the stream's time. */
  private resumeDts = 0;
  private lastDts = 0;
  private lastKeyframeAsk = -Infinity;
  private readonly reorders: number[] = [];
  private pictures = 0;
  private stopped = false;

  constructor(
    tap: AccessUnitTap,
    private readonly stream: LlHlsStream,
    private readonly clock: Clock,
    private readonly events: RemuxerEvents,
  ) {
    this.listen(tap);
  }

  write(): void {}

  /** Another source: its access units from its first IDR on; a VP8 source never reaches here (camera-hls.ts). */
  follow(source: CameraSource | null): void {
    this.closePending();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.tap = null;
    if (source?.accessUnits) this.listen(source.accessUnits);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private listen(tap: AccessUnitTap): void {
    this.tap = tap;
    this.waitingForKeyframe = true;
    this.unsubscribe = tap.subscribe((unit) => this.take(unit));
    this.askKeyframe();
  }

  private askKeyframe(): void {
    const now = this.clock.now().getTime();
    if (now - this.lastKeyframeAsk < KEYFRAME_ASK_MS) return;
    this.lastKeyframeAsk = now;
    this.tap?.requestKeyframe();
  }

  private take(unit: AccessUnit): void {
    if (this.stopped) return;
    for (const nal of unit.units) {
      if (nalType(nal) === 7) this.sps = nal;
      else if (nalType(nal) === 8) this.pps = nal;
    }
    if (this.waitingForKeyframe) {
      this.begin(unit);
      return;
    }
    this.pictures += 1;
    const step = (unit.rtpTimestamp - this.lastRtp) | 0;
    if (step === 0) {
      // More of the same picture (a publisher that sets the marker bit on each slice).
      this.joinLast(unit);
      return;
    }
    if (step < 0) {
      this.reordered();
      return;
    }
    this.lastRtp = unit.rtpTimestamp;
    const dts = this.lastDts + Math.min(step, MAX_STEP_TICKS);
    const partStart = this.pending[0]?.dts ?? dts;
    const segmentS = this.stream.openSegmentS + (dts - partStart) / CMAF_TIMESCALE;
    const segmentDue = segmentS >= SEGMENT_TARGET_S - 0.1;
    // The keyframe that will close the segment is asked for (the publisher's own next one may be far).
    if (segmentDue && !unit.keyframe) this.askKeyframe();
    if (unit.keyframe && this.writer && (!this.writer.sps.equals(this.sps!) || !this.writer.pps.equals(this.pps!))) {
      this.events.changed('the picture changed (a new SPS or PPS)');
      return;
    }
    if (dts - partStart > PART_TICKS) {
      // The last picture would take the part past its target: it starts the next one.
      const last = this.pending.pop()!;
      this.flush(this.pending, last.dts);
      this.pending = [last];
    }
    if ((unit.keyframe && segmentDue) || dts - (this.pending[0]?.dts ?? dts) >= PART_TICKS) {
      this.flush(this.pending, dts);
      this.pending = [];
    }
    this.pending.push({ units: unit.units, dts, keyframe: unit.keyframe });
    this.lastDts = dts;
  }

  private joinLast(unit: AccessUnit): void {
    const last = this.pending.pop();
    if (!last) return;
    this.pending.push({
      units: [...last.units, ...unit.units],
      dts: last.dts,
      keyframe: last.keyframe || unit.keyframe,
    });
  }

  /** The first IDR of a source (the stream's first, or one that takes over): the parts start here. */
  private begin(unit: AccessUnit): void {
    if (!unit.keyframe || !this.sps || !this.pps) {
      this.askKeyframe();
      return;
    }
    if (!this.writer) {
      let writer: H264CmafWriter;
      try {
        writer = new H264CmafWriter(this.sps, this.pps);
      } catch {
        this.events.notRemuxable('its SPS cannot be read');
        return;
      }
      this.writer = writer;
      this.stream.setInit(writer.init());
    } else if (!this.writer.sps.equals(this.sps) || !this.writer.pps.equals(this.pps)) {
      this.events.changed('the picture changed (a new SPS or PPS)');
      return;
    }
    this.waitingForKeyframe = false;
    this.lastRtp = unit.rtpTimestamp;
    this.lastDts = this.resumeDts;
    this.pending = [{ units: unit.units, dts: this.resumeDts, keyframe: true }];
  }

  /** A picture older than the one before: dropped; several in a short run are B-frames. */
  private reordered(): void {
    this.reorders.push(this.pictures);
    while (this.reorders.length > 0 && this.reorders[0]! < this.pictures - REORDER_WINDOW) this.reorders.shift();
    if (this.reorders.length >= REORDERS_TO_REFUSE)
      this.events.notRemuxable('its pictures come out of decode order (B-frames)');
  }

  /** The source left: what was gathered becomes a part, its last picture one frame long. */
  private closePending(): void {
    if (this.pending.length === 0) return;
    const end = this.lastDts + LAST_STEP_TICKS;
    this.flush(this.pending, end);
    this.pending = [];
    this.resumeDts = end;
  }

  /** The pictures as one part ending at `end` (each lasts until the next one's decode time). */
  private flush(pictures: readonly Pending[], end: number): void {
    const first = pictures[0];
    if (!first || !this.writer) return;
    const samples: CmafSample[] = pictures.map((picture, i) => ({
      units: picture.units,
      duration: (pictures[i + 1]?.dts ?? end) - picture.dts,
      keyframe: picture.keyframe,
    }));
    this.stream.addPart({
      data: this.writer.fragment(first.dts, samples),
      durationS: (end - first.dts) / CMAF_TIMESCALE,
      independent: first.keyframe,
    });
    this.resumeDts = end;
  }
}
