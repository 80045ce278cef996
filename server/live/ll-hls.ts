import type { Clock } from '../clock';

/**
 * One camera's Low-Latency HLS stream (RFC 8216bis, "Delivery of Low-Latency Streams"): the CMAF
 * fragments an encoder writes become parts of at most PART_TARGET_S, grouped into segments of about
 * SEGMENT_TARGET_S that start at a keyframe; the media playlist lists a window of segments, the
 * parts of the last few, and a preload hint for the next part. A request for a playlist update or
 * for a part not made yet is held until it exists (blocking reload), so that a cache in front sees
 * one request per part whatever the number of spectators (docs/spectators.md).
 */

/** Every part's duration is at most this (the encoder cuts a fragment every 0.5 s of its 30 fps). */
export const PART_TARGET_S = 0.5;
/** A segment closes at the first keyframe part after this much (the encoder makes a keyframe every second). */
export const SEGMENT_TARGET_S = 2;
/** EXT-X-TARGETDURATION: every segment's duration, rounded, is at most this. */
export const TARGET_DURATION_S = 2;
/**
 * A segment whose next part would take it past this closes there even without a keyframe (a
 * remuxed publisher's keyframes come when it sends them): its duration then still rounds to
 * TARGET_DURATION_S, and the next segment starts with a part that is not independent.
 */
const SEGMENT_MAX_S = TARGET_DURATION_S + 0.45;
/** Segments listed (and kept) behind the live edge. */
const WINDOW_SEGMENTS = 6;
/** Parts are listed for the segments this close to the live edge (three target durations). */
const PART_WINDOW_S = 3 * TARGET_DURATION_S;
/** A held request is answered 503 after this (three target durations, as the RFC has it). */
export const HOLD_MS = 3 * TARGET_DURATION_S * 1_000;

export interface HlsPart {
  readonly data: Buffer;
  readonly durationS: number;
  readonly independent: boolean;
}

interface Segment {
  readonly msn: number;
  /** Whether its first part starts at a keyframe (every segment of an encoded stream does). */
  readonly independent: boolean;
  readonly parts: HlsPart[];
  durationS: number;
  complete: boolean;
  /** When its first part arrived (EXT-X-PROGRAM-DATE-TIME). */
  readonly startedAt: Date;
}

/** A part's or segment's place: media sequence number and part index (null: the whole segment). */
export interface HlsAddress {
  readonly msn: number;
  readonly part: number | null;
}

type Waiter = { readonly ready: () => boolean; readonly done: (ok: boolean) => void };

export class LlHlsStream {
  private init: Buffer | null = null;
  private readonly segments: Segment[] = [];
  private nextMsn = 0;
  private waiters: Waiter[] = [];
  private ended = false;

  constructor(
    /** Names this run of the stream in every URI, so a cache never mixes two runs' parts. */
    readonly epoch: string,
    private readonly clock: Clock,
  ) {}

  get started(): boolean {
    return this.segments.some((s) => s.complete);
  }

  /** The segments listed now, oldest first (numbers only; tests and the console). */
  get window(): readonly { msn: number; parts: number; complete: boolean }[] {
    return this.segments.map((s) => ({ msn: s.msn, parts: s.parts.length, complete: s.complete }));
  }

  setInit(init: Buffer): void {
    this.init = init;
  }

  initSegment(): Buffer | null {
    return this.init;
  }

  /** How long the segment being made is so far (0 when none is open). */
  get openSegmentS(): number {
    const current = this.segments.at(-1);
    return current && !current.complete ? current.durationS : 0;
  }

  /** Whether a part made now would be in the window (the stream has begun at a keyframe). */
  get begun(): boolean {
    return this.segments.length > 0;
  }

  /** A fragment from the encoder: the next part of the current segment, or the first of a new one. */
  addPart(part: HlsPart): void {
    if (this.ended) return;
    let current = this.segments.at(-1);
    if (
      current &&
      !current.complete &&
      ((part.independent && current.durationS >= SEGMENT_TARGET_S - 0.1) ||
        current.durationS + part.durationS > SEGMENT_MAX_S)
    )
      current.complete = true;
    if (!current || current.complete) {
      // The stream starts at a keyframe: parts before the first one are not listed.
      if (!current && !part.independent) return;
      current = {
        msn: this.nextMsn,
        independent: part.independent,
        parts: [],
        durationS: 0,
        complete: false,
        startedAt: this.clock.now(),
      };
      this.nextMsn += 1;
      this.segments.push(current);
      while (this.segments.filter((s) => s.complete).length > WINDOW_SEGMENTS) this.segments.shift();
    }
    current.parts.push(part);
    current.durationS += part.durationS;
    this.wake();
  }

  /** The stream ends (its encoder stopped): held requests are answered at once. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** A part (or a whole segment) by its address, if it is in the window. */
  media(address: HlsAddress): Buffer | null {
    const segment = this.segments.find((s) => s.msn === address.msn);
    if (!segment) return null;
    if (address.part === null) return segment.complete ? Buffer.concat(segment.parts.map((p) => p.data)) : null;
    return segment.parts[address.part]?.data ?? null;
  }

  /** Whether a part or segment not made yet is the next one (the preload hint): it may be waited for. */
  isUpcoming(address: HlsAddress): boolean {
    const last = this.segments.at(-1);
    if (!last) return address.msn === 0;
    if (address.part === null) return address.msn === last.msn && !last.complete;
    const next = this.nextPart();
    return address.msn === next.msn && address.part === next.part;
  }

  /**
   * The address the next part will have (the preload hint). A segment long enough to close does so
   * at its next keyframe part, which the encoder makes every other part (GOP 1 s, parts 0.5 s): that
   * part is the next segment's first, never this one's next. (Hinting `msn.{n}` there names a part
   * that never comes: hls.js, answered 404 for it, went back to the segment's last keyframe part and
   * loaded the same two parts again and again, ~20 requests a second, at every fresh start.) Should
   * the part after all be no keyframe, it joins this segment and the hinted one comes a part later:
   * a request for it is held until then.
   */
  private nextPart(): { msn: number; part: number } {
    const last = this.segments.at(-1);
    if (!last) return { msn: 0, part: 0 };
    if (last.complete || last.durationS >= SEGMENT_TARGET_S - 0.1) return { msn: last.msn + 1, part: 0 };
    return { msn: last.msn, part: last.parts.length };
  }

  /**
   * Whether a playlist answering `_HLS_msn=msn&_HLS_part=part` can be given: it holds that part (or
   * a later one), or, without a part, the complete segment.
   */
  has(address: HlsAddress): boolean {
    const part = address.part;
    return this.segments.some((s) =>
      part === null
        ? s.msn >= address.msn && s.complete
        : (s.msn === address.msn && s.parts.length > part) || (s.msn > address.msn && s.parts.length > 0),
    );
  }

  /** Whether a blocking request asks too far ahead (past the last complete segment plus two, RFC 8216bis 6.2.5.2): 400. */
  tooFarAhead(address: HlsAddress): boolean {
    const lastComplete = this.segments.findLast((s) => s.complete)?.msn ?? -1;
    return address.msn > lastComplete + 2;
  }

  /** Resolves true once `ready()` holds, false when the stream ends or HOLD_MS passes. */
  waitUntil(ready: () => boolean, holdMs = HOLD_MS): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    if (this.ended) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => finish(false), holdMs);
      const waiter: Waiter = { ready, done: (ok) => finish(ok) };
      const finish = (ok: boolean) => {
        timer.cancel();
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(ok);
      };
      this.waiters.push(waiter);
    });
  }

  /** Requests held now (tests, the console). */
  get held(): number {
    return this.waiters.length;
  }

  /** The media playlist as it stands (URIs relative to it). */
  playlist(query = ''): string {
    const uri = (name: string) => `${this.epoch}-${name}${query}`;
    const lines = [
      '#EXTM3U',
      '#EXT-X-VERSION:9',
      `#EXT-X-TARGETDURATION:${TARGET_DURATION_S}`,
      `#EXT-X-PART-INF:PART-TARGET=${PART_TARGET_S.toFixed(3)}`,
      `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${(3 * PART_TARGET_S).toFixed(3)},HOLD-BACK=${(3 * TARGET_DURATION_S).toFixed(3)}`,
      `#EXT-X-MEDIA-SEQUENCE:${this.segments[0]?.msn ?? 0}`,
      // Only while it is true of every segment listed (a remuxed publisher's may not start at a keyframe).
      ...(this.segments.every((s) => s.independent) ? ['#EXT-X-INDEPENDENT-SEGMENTS'] : []),
      `#EXT-X-MAP:URI="${uri('init.mp4')}"`,
    ];
    // Parts are listed for the segments within PART_WINDOW_S of the live edge.
    let fromEdge = 0;
    const withParts = new Set<number>();
    for (const segment of [...this.segments].reverse()) {
      if (fromEdge >= PART_WINDOW_S) break;
      withParts.add(segment.msn);
      fromEdge += segment.durationS;
    }
    for (const segment of this.segments) {
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${segment.startedAt.toISOString()}`);
      if (withParts.has(segment.msn))
        segment.parts.forEach((part, i) =>
          lines.push(
            `#EXT-X-PART:DURATION=${part.durationS.toFixed(5)},URI="${uri(`${segment.msn}.${i}.m4s`)}"${part.independent ? ',INDEPENDENT=YES' : ''}`,
          ),
        );
      if (segment.complete) lines.push(`#EXTINF:${segment.durationS.toFixed(5)},`, uri(`${segment.msn}.m4s`));
    }
    if (this.segments.length > 0 && !this.ended) {
      const next = this.nextPart();
      lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${uri(`${next.msn}.${next.part}.m4s`)}"`);
    }
    return `${lines.join('\n')}\n`;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) {
      const ready = waiter.ready();
      if (ready || this.ended) waiter.done(ready);
    }
  }
}
