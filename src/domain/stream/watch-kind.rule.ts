import type { StreamState } from './stream.reducer';

/**
 * What a page shows of a station's cameras, as the console counts its spectators (issue 44,
 * docs/spectators.md "Counting spectators"): the spectators' LL-HLS, the real-time rtc sessions, or
 * the jpg stills.
 */
export const WATCH_KINDS = ['hls', 'rtc', 'jpg'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/**
 * The kind a stream shows now, or null while it is stopped. A spectator's HLS counts as 'hls' (also
 * while a move to rtc is under way: the picture is the HLS until the rtc one plays); otherwise the
 * stream's mode, which an rtc failure has already turned to 'jpg'.
 */
export function watchKind(stream: Pick<StreamState, 'isStreaming' | 'spectating' | 'type'>): WatchKind | null {
  if (!stream.isStreaming) return null;
  return stream.spectating ? 'hls' : stream.type;
}
