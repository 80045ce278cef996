import { Observable } from 'rxjs';
import type { RtcSessionEvent, RtcVideoPort } from '../../application';
import { PACKET_LOSS_SAMPLE_MS, VIDEO_CODEC, VIDEO_SERVICE_DEFAULTS, type Camera } from '../../domain';

import type Sora from 'sora-js-sdk';

type SoraModule = { readonly default: typeof Sora };

/** A webrtc_url that is a path is resolved against the page's origin, ws: or wss: by its scheme. */
export function signalingUrl(url: string, origin: string): string {
  const resolved = new URL(url, origin);
  if (resolved.protocol === 'http:') resolved.protocol = 'ws:';
  if (resolved.protocol === 'https:') resolved.protocol = 'wss:';
  return resolved.toString();
}

/**
 * Receive-only video sessions with sora-js-sdk [R4.2-6, R7-8, R9-12]: one per camera, video only,
 * VP8, no audio, the video service's timeouts. The SDK is loaded on first use (it is not in the
 * page's first chunk). A failure of any kind (signaling, ICE, abnormal end) is a 'failed' event;
 * a packet-loss monitor samples every 2000 ms and only logs [R9-11].
 */
export class SoraRtcVideo implements RtcVideoPort {
  constructor(
    private readonly origin: string,
    private readonly loadSdk: () => Promise<SoraModule> = () => import('sora-js-sdk'),
  ) {}

  connect(session: {
    readonly camera: Camera;
    readonly url: string;
    readonly channel: string;
  }): Observable<RtcSessionEvent> {
    return new Observable<RtcSessionEvent>((subscriber) => {
      let closed = false;
      let monitor: ReturnType<typeof setInterval> | null = null;
      let connection: { disconnect(): Promise<void>; pc: RTCPeerConnection | null } | null = null;
      const fail = (reason: string) => {
        if (!closed) subscriber.next({ type: 'failed', reason });
      };
      void (async () => {
        const { default: Sora } = await this.loadSdk();
        if (closed) return;
        const sora = Sora.connection(signalingUrl(session.url, this.origin), false);
        const recvonly = sora.recvonly(session.channel, null, {
          audio: false,
          video: true,
          videoCodecType: VIDEO_CODEC,
          connectionTimeout: VIDEO_SERVICE_DEFAULTS.connectionTimeoutMs,
          disconnectWaitTimeout: VIDEO_SERVICE_DEFAULTS.disconnectWaitMs,
          signalingCandidateTimeout: VIDEO_SERVICE_DEFAULTS.signalingCandidateTimeoutMs,
        });
        connection = recvonly;
        recvonly.on('track', (event: RTCTrackEvent) => {
          if (!closed && event.track.kind === 'video')
            subscriber.next({ type: 'connected', stream: event.streams[0] ?? new MediaStream([event.track]) });
        });
        recvonly.on('removetrack', () => {
          if (!closed) subscriber.next({ type: 'trackRemoved' });
        });
        recvonly.on('disconnect', (event: { type?: string; reason?: string }) =>
          fail(event.reason ?? event.type ?? 'disconnected'),
        );
        await recvonly.connect();
        // The SDK's own timeouts, read back from the connection [R9-12] (its ICE-disconnected
        // timeout is fixed at 10000 ms inside the SDK).
        const set = recvonly as unknown as Record<
          'connectionTimeout' | 'disconnectWaitTimeout' | 'signalingCandidateTimeout',
          number | undefined
        >;
        console.info(
          `onkure: ${session.camera} video connected (${session.channel}; connection timeout ${set.connectionTimeout} ms, disconnect wait ${set.disconnectWaitTimeout} ms, signaling candidate timeout ${set.signalingCandidateTimeout} ms)`,
        );
        let lost = 0;
        monitor = setInterval(() => {
          void recvonly.pc?.getStats().then((stats) => {
            stats.forEach((report: { type: string; kind?: string; packetsLost?: number; packetsReceived?: number }) => {
              if (report.type !== 'inbound-rtp' || report.kind !== 'video') return;
              const now = report.packetsLost ?? 0;
              if (now > lost)
                console.info(
                  `onkure: ${session.camera} video lost ${now - lost} packets (${report.packetsReceived ?? 0} received)`,
                );
              lost = now;
            });
          });
        }, PACKET_LOSS_SAMPLE_MS);
      })().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
      return () => {
        closed = true;
        if (monitor) clearInterval(monitor);
        void connection?.disconnect().catch(() => undefined);
      };
    });
  }
}
