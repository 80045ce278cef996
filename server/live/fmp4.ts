/**
 * Just enough ISO BMFF (ISO/IEC 14496-12) to cut a fragmented MP4 stream into HLS parts: the
 * top-level boxes as they arrive, the video track's timescale from the init segment, and per
 * fragment its decode time, duration and whether it starts with a sync sample. ffmpeg writes the
 * stream; nothing here rewrites a byte of it.
 */

/** One top-level box: its type and all its bytes (header included). */
export interface Mp4Box {
  readonly type: string;
  readonly bytes: Buffer;
}

/** The largest top-level box accepted (a fragment of one camera's video is tens of KB). */
const MAX_BOX_BYTES = 16 * 1024 * 1024;

/** Splits a byte stream into its top-level boxes. */
export class Mp4BoxSplitter {
  private pending: Buffer = Buffer.alloc(0);

  /** The boxes completed by this chunk; throws on a stream that is not MP4 (or a box too large). */
  push(chunk: Buffer): Mp4Box[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const boxes: Mp4Box[] = [];
    for (;;) {
      if (this.pending.length < 8) break;
      let size = this.pending.readUInt32BE(0);
      const type = this.pending.toString('latin1', 4, 8);
      if (size === 1) {
        if (this.pending.length < 16) break;
        size = Number(this.pending.readBigUInt64BE(8));
      }
      if (size < 8 || size > MAX_BOX_BYTES || !/^[\x20-\x7e]{4}$/.test(type))
        throw new Error(`not an MP4 box: ${JSON.stringify(type)} of ${size} bytes`);
      if (this.pending.length < size) break;
      boxes.push({ type, bytes: Buffer.from(this.pending.subarray(0, size)) });
      this.pending = this.pending.subarray(size);
    }
    return boxes;
  }
}

/** The children of a container box's payload (`bytes` from its first child on). */
function* children(bytes: Buffer): Generator<{ type: string; body: Buffer }> {
  let at = 0;
  while (at + 8 <= bytes.length) {
    const size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (size < 8 || at + size > bytes.length) return;
    yield { type, body: bytes.subarray(at + 8, at + size) };
    at += size;
  }
}

function child(bytes: Buffer, path: readonly string[]): Buffer | null {
  let current: Buffer | null = bytes;
  for (const type of path) {
    let found: Buffer | null = null;
    for (const box of children(current)) {
      if (box.type === type) {
        found = box.body;
        break;
      }
    }
    if (!found) return null;
    current = found;
  }
  return current;
}

/** The video track's timescale (units per second) from an init segment's `moov` box, or null. */
export function videoTimescale(moov: Buffer): number | null {
  // moov > trak > mdia > mdhd (version 0: 4 flags, 4 created, 4 modified, 4 timescale; version 1: 8, 8).
  const mdhd = child(moov.subarray(8), ['trak', 'mdia', 'mdhd']);
  if (!mdhd || mdhd.length < 20) return null;
  return mdhd[0] === 1 ? mdhd.readUInt32BE(20) : mdhd.readUInt32BE(12);
}

/** What a fragment (`moof` box) says of its samples. */
export interface FragmentInfo {
  /** The first sample's decode time, in the track's timescale. */
  readonly decodeTime: number;
  /** The sum of its samples' durations, in the track's timescale. */
  readonly duration: number;
  /** Whether its first sample is a sync sample (a keyframe): a part a player may start at. */
  readonly independent: boolean;
}

/** Reads a `moof` box (one track): decode time, duration, and whether it starts at a keyframe. */
export function readFragment(moof: Buffer): FragmentInfo | null {
  const traf = child(moof.subarray(8), ['traf']);
  if (!traf) return null;
  const tfhd = child(traf, ['tfhd']);
  const tfdt = child(traf, ['tfdt']);
  const trun = child(traf, ['trun']);
  if (!tfhd || !tfdt || !trun || trun.length < 8) return null;
  const decodeTime = tfdt[0] === 1 ? Number(tfdt.readBigUInt64BE(4)) : tfdt.readUInt32BE(4);

  // tfhd: flags, track id, then the optional fields its flags name, in order.
  const tfhdFlags = tfhd.readUInt32BE(0) & 0xffffff;
  let at = 8;
  if (tfhdFlags & 0x01) at += 8; // base data offset
  if (tfhdFlags & 0x02) at += 4; // sample description index
  let defaultDuration = 0;
  if (tfhdFlags & 0x08) {
    defaultDuration = tfhd.readUInt32BE(at);
    at += 4;
  }
  if (tfhdFlags & 0x10) at += 4; // default sample size
  let defaultFlags = 0;
  if (tfhdFlags & 0x20) defaultFlags = tfhd.readUInt32BE(at);

  // trun: flags, sample count, [data offset], [first sample flags], then per sample its fields.
  const trunFlags = trun.readUInt32BE(0) & 0xffffff;
  const count = trun.readUInt32BE(4);
  at = 8;
  if (trunFlags & 0x001) at += 4;
  let firstFlags: number | null = null;
  if (trunFlags & 0x004) {
    firstFlags = trun.readUInt32BE(at);
    at += 4;
  }
  const fields = [0x100, 0x200, 0x400, 0x800].filter((bit) => trunFlags & bit);
  const stride = fields.length * 4;
  if (count === 0 || trun.length < at + stride * count) return null;
  let duration = 0;
  let sampleFlags0: number | null = null;
  for (let i = 0; i < count; i += 1) {
    let field = at + i * stride;
    duration += trunFlags & 0x100 ? trun.readUInt32BE(field) : defaultDuration;
    if (trunFlags & 0x100) field += 4;
    if (trunFlags & 0x200) field += 4;
    if (i === 0 && trunFlags & 0x400) sampleFlags0 = trun.readUInt32BE(field);
  }
  const flags = firstFlags ?? sampleFlags0 ?? defaultFlags;
  // sample_is_non_sync_sample is bit 16 of the sample flags.
  return { decodeTime, duration, independent: (flags & 0x10000) === 0 };
}
