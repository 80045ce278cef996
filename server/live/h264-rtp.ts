import type { RtpPacket } from 'werift';

const START_CODE = Buffer.from([0, 0, 0, 1]);

/**
 * Turns a publisher's H.264 RTP packets (RFC 6184, packetization mode 1: single NAL units, STAP-A
 * aggregates and FU-A fragments) back into an Annex B stream for the transcoder. A fragment whose
 * sequence breaks (a packet lost or late) is dropped whole; the decoder conceals the gap until the
 * next IDR.
 */
/** The largest NAL unit put together from FU-A fragments: a fragment whose end never comes is not kept without bound. */
const MAX_UNIT_BYTES = 4 * 1024 * 1024;

export class H264Depacketizer {
  private fragments: Buffer[] | null = null;
  private fragmentBytes = 0;
  private lastSeq: number | null = null;

  /** The Annex B bytes this packet completes (empty while a fragment is still open). */
  push(packet: RtpPacket): Buffer {
    const units = this.units(packet);
    return units.length === 0 ? Buffer.alloc(0) : Buffer.concat(units.flatMap((unit) => [START_CODE, unit]));
  }

  /** The NAL units this packet completes, each without a start code (none while a fragment is open). */
  units(packet: RtpPacket): Buffer[] {
    const seq = packet.header.sequenceNumber;
    if (this.lastSeq !== null && seq !== ((this.lastSeq + 1) & 0xffff)) this.fragments = null;
    this.lastSeq = seq;
    const payload = packet.payload;
    const header = payload[0];
    if (header === undefined) return [];
    const type = header & 0x1f;
    if (type >= 1 && type <= 23) return [payload];
    if (type === 24) {
      const units: Buffer[] = [];
      let at = 1;
      while (at + 2 <= payload.length) {
        const size = payload.readUInt16BE(at);
        at += 2;
        if (size === 0 || at + size > payload.length) break;
        units.push(payload.subarray(at, at + size));
        at += size;
      }
      return units;
    }
    if (type === 28) {
      const fu = payload[1];
      if (fu === undefined) return [];
      if (fu & 0x80) {
        this.fragments = [Buffer.from([(header & 0xe0) | (fu & 0x1f)])];
        this.fragmentBytes = 0;
      }
      if (!this.fragments) return [];
      this.fragments.push(payload.subarray(2));
      this.fragmentBytes += payload.length;
      if (this.fragmentBytes > MAX_UNIT_BYTES) {
        this.fragments = null;
        return [];
      }
      if (!(fu & 0x40)) return [];
      const unit = Buffer.concat(this.fragments);
      this.fragments = null;
      return [unit];
    }
    return [];
  }
}

/** One picture's NAL units as the publisher sent them (RFC 6184: the units of one RTP timestamp). */
export interface AccessUnit {
  /** The RTP timestamp (90 kHz) all its packets carry. */
  readonly rtpTimestamp: number;
  /** Its NAL units, without start codes, in order (parameter sets included). */
  readonly units: readonly Buffer[];
  /** Whether it holds an IDR slice: a decoder can start here. */
  readonly keyframe: boolean;
}

/** The longest access unit put together (bytes): a unit whose end never comes is not kept without bound. */
const MAX_ACCESS_UNIT_BYTES = 4 * 1024 * 1024;

/**
 * Groups a publisher's depacketized NAL units into access units: a unit ends with the RTP marker
 * bit (RFC 6184 §5.1: set on the last packet of an access unit) or when a packet of another
 * timestamp arrives (a lost last packet). Access delimiters (type 9) and filler (12) are left out:
 * MP4 samples do not carry them.
 */
export class H264AccessUnits {
  private readonly depacketizer = new H264Depacketizer();
  private units: Buffer[] = [];
  private bytes = 0;
  private timestamp: number | null = null;

  /** The access units this packet completes (at most two: the one it ended by its timestamp, and its own). */
  push(packet: RtpPacket): AccessUnit[] {
    const done: AccessUnit[] = [];
    const timestamp = packet.header.timestamp;
    if (this.timestamp !== null && timestamp !== this.timestamp) this.flush(done);
    this.timestamp = timestamp;
    for (const unit of this.depacketizer.units(packet)) {
      const type = (unit[0] ?? 0) & 0x1f;
      if (type === 9 || type === 12) continue;
      this.units.push(unit);
      this.bytes += unit.length;
    }
    if (this.bytes > MAX_ACCESS_UNIT_BYTES) {
      this.units = [];
      this.bytes = 0;
    }
    if (packet.header.marker) this.flush(done);
    return done;
  }

  private flush(done: AccessUnit[]): void {
    if (this.units.length > 0 && this.timestamp !== null)
      done.push({
        rtpTimestamp: this.timestamp,
        units: this.units,
        keyframe: this.units.some((unit) => ((unit[0] ?? 0) & 0x1f) === 5),
      });
    this.units = [];
    this.bytes = 0;
    this.timestamp = null;
  }
}

/** Whether an Annex B piece holds an IDR slice (NAL type 5): the decoder can start there. */
export function holdsIdr(annexB: Buffer): boolean {
  for (let at = 0; at + 4 < annexB.length; at += 1) {
    if (annexB[at] === 0 && annexB[at + 1] === 0 && annexB[at + 2] === 1 && ((annexB[at + 3] ?? 0) & 0x1f) === 5)
      return true;
  }
  return false;
}

/** The NAL unit type of an Annex B piece's first unit (after its start code), or null. */
export function nalType(annexB: Buffer): number | null {
  const at = annexB[2] === 1 ? 3 : annexB[3] === 1 ? 4 : -1;
  const header = at < 0 ? undefined : annexB[at];
  return header === undefined ? null : header & 0x1f;
}
