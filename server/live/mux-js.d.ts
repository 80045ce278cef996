// The parts of mux.js (videojs, Apache-2.0) the spectators' LL-HLS remuxer uses: its fragmented MP4
// box writer and its H.264 SPS reader. The package ships no types.
declare module 'mux.js/cjs/mp4/mp4-generator.js' {
  export interface MuxSampleFlags {
    isLeading: number;
    dependsOn: number;
    isDependedOn: number;
    hasRedundancy: number;
    paddingValue: number;
    isNonSyncSample: number;
    degradationPriority: number;
  }
  export interface MuxSample {
    duration: number;
    size: number;
    compositionTimeOffset: number;
    flags: MuxSampleFlags;
  }
  export interface MuxVideoTrack {
    id: number;
    type: 'video';
    width: number;
    height: number;
    profileIdc: number;
    levelIdc: number;
    profileCompatibility: number;
    sarRatio: [number, number];
    sps: Uint8Array[];
    pps: Uint8Array[];
    duration?: number;
    baseMediaDecodeTime?: number;
    samples?: MuxSample[];
  }
  const generator: {
    initSegment(tracks: MuxVideoTrack[]): Uint8Array;
    moof(sequenceNumber: number, tracks: MuxVideoTrack[]): Uint8Array;
    mdat(data: Uint8Array): Uint8Array;
  };
  export default generator;
}

declare module 'mux.js/cjs/codecs/h264.js' {
  export interface SpsConfig {
    profileIdc: number;
    levelIdc: number;
    profileCompatibility: number;
    width: number;
    height: number;
    sarRatio: [number, number];
  }
  export interface NalEvent {
    nalUnitTypeCode: number;
    data: Uint8Array;
    config?: SpsConfig;
  }
  export interface H264Stream {
    on(event: 'data', listener: (nal: NalEvent) => void): void;
    push(packet: { type: 'video'; trackId: number; pts: number; dts: number; data: Uint8Array }): void;
    flush(): void;
  }
  const h264: { H264Stream: new () => H264Stream };
  export default h264;
}
