import type { RtpPacket } from 'werift';

const START_CODE = Buffer.from([0, 0, 0, 1]);

/**
 * Turns a publisher's H.264 RTP packets (RFC 6184, packetization mode 1: single NAL units, STAP-A
 * aggregates and FU-A fragments) back into an Annex B stream for the transcoder. A fragment whose
 * sequence breaks (a packet lost or late) is dropped whole; the decoder conceals the gap until the
 * next IDR.
 */
export class H264Depacketizer {
  private fragments: Buffer[] | null = null;
  private lastSeq: number | null = null;

  /** The Annex B bytes this packet completes (empty while a fragment is still open). */
  push(packet: RtpPacket): Buffer {
    const seq = packet.header.sequenceNumber;
    if (this.lastSeq !== null && seq !== ((this.lastSeq + 1) & 0xffff)) this.fragments = null;
    this.lastSeq = seq;
    const payload = packet.payload;
    const header = payload[0];
    if (header === undefined) return Buffer.alloc(0);
    const type = header & 0x1f;
    if (type >= 1 && type <= 23) return Buffer.concat([START_CODE, payload]);
    if (type === 24) {
      const units: Buffer[] = [];
      let at = 1;
      while (at + 2 <= payload.length) {
        const size = payload.readUInt16BE(at);
        at += 2;
        if (size === 0 || at + size > payload.length) break;
        units.push(START_CODE, payload.subarray(at, at + size));
        at += size;
      }
      return Buffer.concat(units);
    }
    if (type === 28) {
      const fu = payload[1];
      if (fu === undefined) return Buffer.alloc(0);
      if (fu & 0x80) this.fragments = [Buffer.from([(header & 0xe0) | (fu & 0x1f)])];
      if (!this.fragments) return Buffer.alloc(0);
      this.fragments.push(payload.subarray(2));
      if (!(fu & 0x40)) return Buffer.alloc(0);
      const unit = Buffer.concat([START_CODE, ...this.fragments]);
      this.fragments = null;
      return unit;
    }
    return Buffer.alloc(0);
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
