import { DEFAULT_FRONT_CHANNEL, DEFAULT_LUMINANCE, DEFAULT_SIDE_CHANNEL } from '../constants';

/** Where a station's feeds are (spec §3 station info) [R3-2]. Channels may be absent. */
export interface WatchInfo {
  readonly webrtc_url: string;
  readonly webrtc_channel_front: string | null;
  readonly webrtc_channel_side: string | null;
  readonly motion_jpeg_front: string;
  readonly motion_jpeg_side: string;
  /** Beyond the spec: each camera's LL-HLS playlist for spectators, where the service makes one. */
  readonly hls_front?: string;
  readonly hls_side?: string;
}

/** Luminance of the front camera, in percent; absent values count as 100 [R3-2]. */
export interface LuminanceFront {
  readonly brightness_front?: number | null;
  readonly saturate_front?: number | null;
  readonly contrast_front?: number | null;
}

/** Luminance of the side camera, in percent; absent values count as 100 [R3-2]. */
export interface LuminanceSide {
  readonly brightness_side?: number | null;
  readonly saturate_side?: number | null;
  readonly contrast_side?: number | null;
}

/** Station stream settings (spec §3 "station info") [R3-2]. */
export interface StationInfo {
  readonly watch_info: WatchInfo;
  readonly luminance_front: LuminanceFront;
  readonly luminance_side: LuminanceSide;
}

export type Camera = 'front' | 'side';

/** The feed addresses a stream start uses [R4.2-3]. */
export interface StreamFeed {
  readonly rtcUrl: string;
  readonly channels: Readonly<Record<Camera, string>>;
  readonly stillImages: Readonly<Record<Camera, string>>;
  /** The spectators' HLS playlists, or null when the service offers none. */
  readonly hls: Readonly<Record<Camera, string>> | null;
}

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/** The feed of a station, with 'default_front_channel' / 'default_side_channel' for absent channels [R4.2-3]. */
export function streamFeed(watch: WatchInfo): StreamFeed {
  return {
    rtcUrl: watch.webrtc_url,
    channels: {
      front: present(watch.webrtc_channel_front) ? watch.webrtc_channel_front : DEFAULT_FRONT_CHANNEL,
      side: present(watch.webrtc_channel_side) ? watch.webrtc_channel_side : DEFAULT_SIDE_CHANNEL,
    },
    stillImages: { front: watch.motion_jpeg_front, side: watch.motion_jpeg_side },
    hls: present(watch.hls_front) && present(watch.hls_side) ? { front: watch.hls_front, side: watch.hls_side } : null,
  };
}

/** Each camera's still address in a station's feed (its latest picture), or null when it has none. */
export function stationPosters(info: Pick<StationInfo, 'watch_info'>): Readonly<Record<Camera, string>> | null {
  const { stillImages } = streamFeed(info.watch_info);
  return present(stillImages.front) && present(stillImages.side) ? stillImages : null;
}

/** Brightness, saturation and contrast of one camera as filter factors (1 = unchanged). */
export interface LuminanceFilter {
  readonly brightness: number;
  readonly saturate: number;
  readonly contrast: number;
  /** The same as a CSS filter value, e.g. 'brightness(1.1) saturate(1) contrast(0.9)'. */
  readonly css: string;
}

/** A percentage as a filter factor: value × 0.01; absent, non-finite or negative → the default 100 [R9-9]. */
export function luminanceFactor(value: number | null | undefined): number {
  const v = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_LUMINANCE;
  // value / 100 is value × 0.01 without binary rounding noise (110 × 0.01 = 1.1000000000000001).
  return v / 100;
}

/** The display filter of one camera [R9-9, R3-2]. */
export function luminanceFilter(
  info: Pick<StationInfo, 'luminance_front' | 'luminance_side'>,
  camera: Camera,
): LuminanceFilter {
  const raw =
    camera === 'front'
      ? {
          b: info.luminance_front.brightness_front,
          s: info.luminance_front.saturate_front,
          c: info.luminance_front.contrast_front,
        }
      : {
          b: info.luminance_side.brightness_side,
          s: info.luminance_side.saturate_side,
          c: info.luminance_side.contrast_side,
        };
  const brightness = luminanceFactor(raw.b);
  const saturate = luminanceFactor(raw.s);
  const contrast = luminanceFactor(raw.c);
  return {
    brightness,
    saturate,
    contrast,
    css: `brightness(${brightness}) saturate(${saturate}) contrast(${contrast})`,
  };
}
