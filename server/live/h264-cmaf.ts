import generator, { type MuxSample, type MuxVideoTrack } from 'mux.js/cjs/mp4/mp4-generator.js';
import h264 from 'mux.js/cjs/codecs/h264.js';

/**
 * A publisher's H.264 pictures written as CMAF (fragmented MP4) without decoding them: the init
 * segment from its SPS and PPS (an `avc1` sample entry), and each part a `moof` + `mdat` of whole
 * pictures with their decode times. The boxes are written by mux.js (videojs' transmuxer, what
 * video.js plays HLS with); this module only feeds it. Time is the RTP clock's: 90 kHz.
 */

export const CMAF_TIMESCALE = 90_000;

/** One picture: its NAL units (no start codes), its duration in 90 kHz ticks, whether it is an IDR. */
export interface CmafSample {
  readonly units: readonly Buffer[];
  readonly duration: number;
  readonly keyframe: boolean;
}

/** The picture size and profile an SPS declares (null: not an SPS mux.js can read). */
export function readSps(sps: Buffer): MuxVideoTrack | null {
  const stream = new h264.H264Stream();
  let track: MuxVideoTrack | null = null;
  stream.on('data', (nal) => {
    if (nal.config)
      track = {
        id: 1,
        type: 'video',
        ...nal.config,
        sps: [],
        pps: [],
      };
  });
  try {
    // The reader emits a unit when the next start code comes: one follows the SPS.
    const start = Buffer.from([0, 0, 0, 1]);
    stream.push({ type: 'video', trackId: 1, pts: 0, dts: 0, data: Buffer.concat([start, sps, start]) });
    stream.flush();
  } catch {
    return null;
  }
  const read = track as MuxVideoTrack | null;
  if (!read || read.width <= 0 || read.height <= 0 || read.width > 8192 || read.height > 8192) return null;
  return read;
}

export class H264CmafWriter {
  private readonly track: MuxVideoTrack;
  private sequence = 1;

  /** Throws when the SPS cannot be read. */
  constructor(
    readonly sps: Buffer,
    readonly pps: Buffer,
  ) {
    const track = readSps(sps);
    if (!track) throw new Error('an SPS that cannot be read');
    this.track = { ...track, sps: [sps], pps: [pps] };
  }

  get width(): number {
    return this.track.width;
  }

  get height(): number {
    return this.track.height;
  }

  /** ftyp + moov: one video track, 90 kHz, no samples (they come in fragments). */
  init(): Buffer {
    return Buffer.from(generator.initSegment([{ ...this.track }]));
  }

  /** One fragment (a part): moof + mdat of the samples, the first decoded at `decodeTime`. */
  fragment(decodeTime: number, samples: readonly CmafSample[]): Buffer {
    // Each NAL unit prefixed with its 4-byte length (avcC's lengthSizeMinusOne is 3).
    const payloads = samples.map((sample) =>
      Buffer.concat(
        sample.units.flatMap((unit) => {
          const length = Buffer.alloc(4);
          length.writeUInt32BE(unit.length);
          return [length, unit];
        }),
      ),
    );
    const described: MuxSample[] = samples.map((sample, i) => ({
      duration: sample.duration,
      size: payloads[i]!.length,
      compositionTimeOffset: 0,
      flags: {
        isLeading: 0,
        dependsOn: sample.keyframe ? 2 : 1,
        isDependedOn: 0,
        hasRedundancy: 0,
        paddingValue: 0,
        isNonSyncSample: sample.keyframe ? 0 : 1,
        degradationPriority: 0,
      },
    }));
    const moof = generator.moof(this.sequence, [
      { ...this.track, baseMediaDecodeTime: decodeTime, samples: described },
    ]);
    this.sequence += 1;
    return Buffer.concat([moof, generator.mdat(Buffer.concat(payloads))]);
  }
}
