/**
 * The VP8 RTP payload descriptor (RFC 7741 §4.2), read and rewritten on the way from a publisher to
 * the viewers. The descriptor's first byte is |X|R|N|S|R|PID(3)|; with X, a second byte |I|L|T|K|…|
 * says which of a picture id (7 or 15 bits), TL0PICIDX and TID/KEYIDX follow. The VP8 payload header
 * after it starts with the frame tag, whose bit 0 is 0 on a keyframe (RFC 6386 §9.1).
 */
export interface Vp8Descriptor {
  /** Bytes of the descriptor (where the VP8 data starts). */
  readonly length: number;
  /** S: the packet starts a VP8 partition. */
  readonly start: boolean;
  /** PID: the partition index (0 for the first partition). */
  readonly partition: number;
  /** The picture id as sent (7 or 15 bits), or null when the sender left it out. */
  readonly pictureId: number | null;
}

/** Reads a packet's descriptor; null for a payload too short to hold one and some VP8 data. */
export function readVp8Descriptor(payload: Buffer): Vp8Descriptor | null {
  const first = payload[0];
  if (first === undefined) return null;
  let at = 1;
  let pictureId: number | null = null;
  if (first & 0x80) {
    const flags = payload[1];
    if (flags === undefined) return null;
    at = 2;
    if (flags & 0x80) {
      const high = payload[at];
      if (high === undefined) return null;
      if (high & 0x80) {
        const low = payload[at + 1];
        if (low === undefined) return null;
        pictureId = ((high & 0x7f) << 8) | low;
        at += 2;
      } else {
        pictureId = high;
        at += 1;
      }
    }
    if (flags & 0x40) at += 1;
    if (flags & 0x30) at += 1;
  }
  if (payload.length <= at) return null;
  return { length: at, start: (first & 0x10) !== 0, partition: first & 0x07, pictureId };
}

/** Whether the packet starts a keyframe: the first packet of partition 0 whose frame tag says key. */
export function startsKeyframe(payload: Buffer, descriptor: Vp8Descriptor): boolean {
  return descriptor.start && descriptor.partition === 0 && ((payload[descriptor.length] ?? 1) & 0x01) === 0;
}

/** Whether the packet starts a frame (any kind): the first packet of partition 0. */
export function startsFrame(descriptor: Vp8Descriptor): boolean {
  return descriptor.start && descriptor.partition === 0;
}

/**
 * The payload with its descriptor written again: X and I set, a 15-bit picture id, N, S and PID
 * kept; TL0PICIDX, TID and KEYIDX dropped (no viewer needs temporal layers: every frame is sent).
 * Chromium reads picture ids as 15-bit numbers, so a 7-bit id that wraps every 128 frames would
 * look like a frame from the past (docs/live-feed.md "Picture ids").
 */
export function withPictureId(payload: Buffer, descriptor: Vp8Descriptor, pictureId: number): Buffer {
  const head = Buffer.from([
    0x80 | ((payload[0] ?? 0) & 0x37),
    0x80,
    0x80 | ((pictureId >> 8) & 0x7f),
    pictureId & 0xff,
  ]);
  return Buffer.concat([head, payload.subarray(descriptor.length)]);
}
