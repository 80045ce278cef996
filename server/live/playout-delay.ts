import type { RtpPacket } from 'werift';

/**
 * The playout-delay RTP header extension: the sender tells the receiver the smallest and largest
 * delay to hold frames for before showing them. Min 0 and max 0 ask Chromium to show each frame
 * as soon as it is decoded (its low-latency rendering), which is what a player steering a claw
 * needs: without it the jitter buffer held frames for hundreds of milliseconds (docs/live-feed.md).
 */
/** Its id: werift numbers the configured extensions from 1 in order, and this is the only one. */
export const PLAYOUT_DELAY = { uri: 'http://www.webrtc.org/experiments/rtp-hdrext/playout-delay', id: 1 } as const;

/** 12-bit minimum and maximum delay in units of 10 ms: both 0. */
const NO_DELAY = Buffer.from([0, 0, 0]);

/** The packet with the playout-delay extension added, serialized (once per packet, before the fan-out). */
export function withPlayoutDelay(rtp: RtpPacket): Buffer {
  rtp.header.extension = true;
  rtp.header.extensions = [
    ...rtp.header.extensions.filter((e) => e.id !== PLAYOUT_DELAY.id),
    { id: PLAYOUT_DELAY.id, payload: NO_DELAY },
  ];
  return rtp.serialize();
}
