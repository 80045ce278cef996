import {
  MediaStream,
  type MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RTCRtpHeaderExtensionParameters,
  type RTCRtpSender,
  type RTCRtpTransceiver,
} from 'werift';
import type { Clock } from '../clock';
import { PLAYOUT_DELAY } from './playout-delay';

/** VP8 as the offer names it: payload type 96, 90 kHz, with the feedback Chromium uses. */
const VP8_PAYLOAD_TYPE = 96;

/**
 * The server's side of one receive-only viewer: a peer connection that sends `track` (the camera's
 * VP8) on one sendonly transceiver, the way sora-js-sdk expects a media server to offer it.
 */
export function openFeedPeer(
  track: MediaStreamTrack,
  channelId: string,
  iceHosts: readonly string[],
): { pc: RTCPeerConnection; sender: RTCRtpSender } {
  const pc = new RTCPeerConnection({
    codecs: {
      video: [
        new RTCRtpCodecParameters({
          mimeType: 'video/VP8',
          clockRate: 90_000,
          payloadType: VP8_PAYLOAD_TYPE,
          rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'goog-remb' }],
        }),
      ],
      audio: [],
    },
    headerExtensions: {
      video: [new RTCRtpHeaderExtensionParameters({ id: PLAYOUT_DELAY.id, uri: PLAYOUT_DELAY.uri })],
    },
    // ICE lite, as media servers run it: the server offers its host candidates (and
    // RTC_ICE_HOSTS) and answers the browser's checks; the browser controls. A full agent in
    // werift would also ask a STUN server, and with none configured it falls back to a public
    // one: a DNS lookup and requests out for every viewer, which a burst of connects turned
    // into a queue that starved later offers.
    iceLite: true,
    iceServers: [],
    bundlePolicy: 'max-bundle',
    iceUseIpv6: false,
    iceAdditionalHostAddresses: [...iceHosts],
  });
  // The stream id is neither 'default' nor the connection id, or the SDK ignores the track.
  const stream = new MediaStream({ id: `${channelId}-video` });
  const transceiver = pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
  return { pc, sender: transceiver.sender };
}

/**
 * Creates an offer and waits for ICE gathering (at most `gatherMs` on `clock`), so every server
 * candidate is in its SDP (the SDK ignores trickled server candidates).
 */
export async function gatheredOffer(pc: RTCPeerConnection, clock: Clock, gatherMs: number): Promise<string> {
  await pc.setLocalDescription(await pc.createOffer());
  if (pc.iceGatheringState !== 'complete') {
    await new Promise<void>((resolve) => {
      const timer = clock.setTimeout(resolve, gatherMs);
      pc.iceGatheringStateChange.subscribe((state) => {
        if (state === 'complete') {
          timer.cancel();
          resolve();
        }
      });
    });
  }
  return pc.localDescription?.sdp ?? '';
}

/**
 * Puts the camera's track on (`live`) or off the connection and answers the SDP of the re-offer
 * that says so.
 */
export async function reOffer(pc: RTCPeerConnection, transceiver: RTCRtpTransceiver, live: boolean): Promise<string> {
  // The direction, not removeTrack: werift's removeTrack stops the sender for good, and the
  // direction is what makes the browser remove (inactive) and add (sendonly) the remote track.
  transceiver.setDirection(live ? 'sendonly' : 'inactive');
  await pc.setLocalDescription(await pc.createOffer());
  // werift writes an inactive section with port 0, which rejects it: the browser would tear the
  // transport down. Port 9 (the usual discard port) keeps it, inactive, for the way back.
  return (pc.localDescription?.sdp ?? '').replace(/^m=video 0 /m, 'm=video 9 ');
}

/** The offer and the connection.created notice that follow a connect, as Sora sends them. */
export function offerMessages(offer: {
  readonly sdp: string;
  readonly connectionId: string;
  readonly channelId: string;
  readonly viewers: number;
}): readonly object[] {
  return [
    {
      type: 'offer',
      sdp: offer.sdp,
      client_id: offer.connectionId,
      connection_id: offer.connectionId,
      channel_id: offer.channelId,
      simulcast: false,
      spotlight: false,
      audio: false,
      video: true,
      config: { iceServers: [] },
    },
    {
      type: 'notify',
      event_type: 'connection.created',
      role: 'recvonly',
      client_id: offer.connectionId,
      connection_id: offer.connectionId,
      channel_id: offer.channelId,
      channel_connections: offer.viewers,
      channel_recvonly_connections: offer.viewers,
    },
  ];
}
