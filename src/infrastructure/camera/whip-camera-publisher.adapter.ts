import { Observable } from 'rxjs';
import { WHIPClient } from 'whip-whep/whip.js';
import type {
  CameraPublishEvent,
  CameraPublishFailure,
  CameraPublishTarget,
  CameraPublisherPort,
} from '../../application/camera';

export interface WhipCameraPublisherOptions {
  /** The WHIP endpoints' origin (absolute: the client resolves the session's Location against it): POST {base}/whip/{station}/{camera}. */
  readonly base: string;
  /** The codec to prefer: VP8 is forwarded as it is; H.264 is transcoded once on the server. */
  readonly codec: () => 'VP8' | 'H264';
  /** How often the numbers are read (getStats). */
  readonly statsEveryMs?: number;
}

/** The camera as the page asks for it: 640×480 at 30 fps where the device can, no audio. */
const CAPTURE: MediaStreamConstraints = {
  video: { width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 30 } },
  audio: false,
};
const MAX_BITRATE = 1_200_000;

function failureOf(error: unknown): { failure: CameraPublishFailure; info: string | null } {
  const message = error instanceof Error ? error.message : String(error);
  const status = /status (\d{3})/.exec(message)?.[1];
  if (status === '401') return { failure: 'bad-key', info: null };
  if (status === '403') return { failure: 'other-station', info: null };
  // Not an HTTP refusal: the browser's own words (an answer it could not use, a network error).
  return { failure: 'refused', info: status ? `HTTP ${status}` : message.slice(0, 160) || null };
}

/**
 * The camera page's publisher: getUserMedia, one sendonly RTCPeerConnection, and the WHIP client of
 * the WHIP specification's author (whip-whep, Medooze) for the exchange: POST the offer with the
 * station's key as Bearer, trickle candidates by PATCH, DELETE on stop. The numbers come from the
 * connection's outbound-rtp statistics.
 */
export class WhipCameraPublisher implements CameraPublisherPort {
  constructor(private readonly options: WhipCameraPublisherOptions) {}

  publish(target: CameraPublishTarget): Observable<CameraPublishEvent> {
    return new Observable<CameraPublishEvent>((subscriber) => {
      let closed = false;
      let stream: MediaStream | null = null;
      let pc: RTCPeerConnection | null = null;
      let client: WHIPClient | null = null;
      let timer: ReturnType<typeof setInterval> | null = null;
      const end = () => {
        if (timer !== null) clearInterval(timer);
        timer = null;
        for (const track of stream?.getTracks() ?? []) track.stop();
        stream = null;
        if (client) void client.stop().catch(() => undefined);
        else pc?.close();
        client = null;
        pc = null;
      };
      const fail = (failure: CameraPublishFailure, info: string | null) => {
        if (closed) return;
        closed = true;
        end();
        subscriber.next({ type: 'failed', failure, info });
        subscriber.complete();
      };
      void (async () => {
        const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
        if (!media?.getUserMedia) return fail('no-camera', null);
        try {
          stream = await media.getUserMedia(CAPTURE);
        } catch (error) {
          const name = error instanceof DOMException ? error.name : '';
          return fail(name === 'NotAllowedError' || name === 'SecurityError' ? 'camera-denied' : 'no-camera', null);
        }
        if (closed) return end();
        const track = stream.getVideoTracks()[0];
        if (!track) return fail('no-camera', null);
        subscriber.next({ type: 'preview', stream, label: track.label });
        pc = new RTCPeerConnection({ bundlePolicy: 'max-bundle' });
        const transceiver = pc.addTransceiver(track, {
          direction: 'sendonly',
          streams: [stream],
          sendEncodings: [{ maxBitrate: MAX_BITRATE }],
        });
        // Only the chosen codec is offered (with the browser's repair formats): the server takes VP8
        // whenever it is offered, so an H.264 choice would never be used otherwise.
        const preferred = this.options.codec();
        const codecs = RTCRtpSender.getCapabilities?.('video')?.codecs ?? [];
        const chosen = codecs.filter((c) => c.mimeType.toUpperCase() === `VIDEO/${preferred}`);
        const repair = codecs.filter((c) => /\/(rtx|red|ulpfec)$/i.test(c.mimeType));
        if (chosen.length > 0 && transceiver.setCodecPreferences)
          transceiver.setCodecPreferences([...chosen, ...repair]);
        const peer = pc;
        peer.addEventListener('connectionstatechange', () => {
          if (closed) return;
          const state = peer.connectionState;
          if (state === 'failed') fail('connection-failed', null);
          else if (state === 'connected' || state === 'disconnected') subscriber.next({ type: 'connection', state });
        });
        subscriber.next({ type: 'connection', state: 'connecting' });
        const publisher = new WHIPClient();
        try {
          await publisher.publish(peer, `${this.options.base}/whip/${target.stationId}/${target.camera}`, target.key);
        } catch (error) {
          const { failure, info } = failureOf(error);
          // Not yet a session: closing the connection is all there is to end.
          return fail(failure, info);
        }
        if (closed) {
          void publisher.stop().catch(() => undefined);
          return;
        }
        client = publisher;
        let last: { bytes: number; at: number } | null = null;
        timer = setInterval(() => {
          void transceiver.sender.getStats().then((report) => {
            if (closed) return;
            let outbound: (RTCOutboundRtpStreamStats & { frameWidth?: number; frameHeight?: number }) | null = null;
            const codecs = new Map<string, string>();
            report.forEach((entry: { type: string; id: string; mimeType?: string }) => {
              if (entry.type === 'outbound-rtp') outbound = entry as unknown as typeof outbound;
              if (entry.type === 'codec' && entry.mimeType) codecs.set(entry.id, entry.mimeType);
            });
            const out = outbound as (RTCOutboundRtpStreamStats & { frameWidth?: number; frameHeight?: number }) | null;
            if (!out) return;
            const now = performance.now();
            const bytes = out.bytesSent ?? 0;
            const kbps = last && now > last.at ? Math.round(((bytes - last.bytes) * 8) / (now - last.at)) : 0;
            last = { bytes, at: now };
            const mime = out.codecId ? codecs.get(out.codecId) : undefined;
            subscriber.next({
              type: 'stats',
              kbps: Math.max(0, kbps),
              fps: out.framesPerSecond ?? null,
              codec: mime ? mime.replace(/^video\//i, '') : null,
              width: out.frameWidth ?? null,
              height: out.frameHeight ?? null,
            });
          });
        }, this.options.statsEveryMs ?? 1_000);
      })();
      return () => {
        closed = true;
        end();
      };
    });
  }
}
