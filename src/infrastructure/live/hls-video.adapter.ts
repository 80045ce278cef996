import { Observable } from 'rxjs';
import type { HlsSessionEvent, HlsSource, HlsVideoPort } from '../../application';
import type { Camera } from '../../domain';

/**
 * The part of hls.js this adapter uses. hls.js is an optional peer of the package (loaded on first
 * use, its light build); the public types name only this much of it, so a consumer that never
 * plays HLS needs neither hls.js nor its types.
 */
export interface HlsPlayer {
  on(event: string, listener: (event: string, data: { fatal: boolean; type: string; details: string }) => void): void;
  loadSource(url: string): void;
  attachMedia(media: HTMLMediaElement): void;
  destroy(): void;
}
export interface HlsPlayerModule {
  readonly default: {
    new (config: Record<string, unknown>): HlsPlayer;
    isSupported(): boolean;
    readonly Events: { readonly ERROR: string };
  };
}

/** hls.js for a live LL-HLS stream: follow the live edge at PART-HOLD-BACK, catch up a little faster when behind. */
const HLS_CONFIG = {
  lowLatencyMode: true,
  backBufferLength: 4,
  maxLiveSyncPlaybackRate: 1.5,
  // A spectator's picture matters more than a fast start: wait a little longer for a playlist.
  manifestLoadingMaxRetry: 6,
} as const;

/**
 * The spectators' LL-HLS of a camera (issue 44): Safari plays HLS natively; every other browser
 * through hls.js (its light build, loaded on first use: not in the page's first chunk) over Media
 * Source Extensions. 'ready' hands the page a source to attach its video element to; 'playing'
 * comes once, when the first picture shows; a fatal error (or a browser that can play neither way)
 * is 'failed'.
 */
export class HlsJsVideo implements HlsVideoPort {
  constructor(
    private readonly origin: string,
    private readonly loadHls: () => Promise<HlsPlayerModule> = () => import('hls.js/light'),
  ) {}

  connect(session: { readonly camera: Camera; readonly url: string }): Observable<HlsSessionEvent> {
    return new Observable<HlsSessionEvent>((subscriber) => {
      let closed = false;
      let played = false;
      let detach: (() => void) | null = null;
      const url = new URL(session.url, this.origin).toString();
      const fail = (reason: string) => {
        if (!closed) subscriber.next({ type: 'failed', reason });
      };
      void this.loadHls().then(
        ({ default: Hls }) => {
          if (closed) return;
          const source: HlsSource = {
            attach: (element) => {
              detach?.();
              const video = element as HTMLVideoElement;
              const onPlaying = () => {
                if (closed || played) return;
                played = true;
                subscriber.next({ type: 'playing' });
              };
              video.addEventListener('playing', onPlaying);
              const native =
                video.canPlayType('application/vnd.apple.mpegurl') !== '' &&
                (!Hls.isSupported() || /Apple/.test(globalThis.navigator?.vendor ?? ''));
              let hls: HlsPlayer | null = null;
              if (native) {
                video.src = url;
                video.addEventListener('error', onNativeError);
              } else if (Hls.isSupported()) {
                hls = new Hls(HLS_CONFIG);
                hls.on(Hls.Events.ERROR, (_event, data) => {
                  if (data.fatal) fail(`${data.type}: ${data.details}`);
                });
                hls.loadSource(url);
                hls.attachMedia(video);
              } else {
                fail('this browser plays no HLS');
              }
              // Muted, so autoplay is allowed; a refusal leaves the still showing. A browser whose
              // play() answers no promise (older ones, jsdom) must not throw in the page's effect.
              if (native || hls) void Promise.resolve(video.play()).catch(() => undefined);
              function onNativeError() {
                fail(`native HLS: ${video.error?.message ?? video.error?.code ?? 'error'}`);
              }
              const taken = () => {
                video.removeEventListener('playing', onPlaying);
                video.removeEventListener('error', onNativeError);
                hls?.destroy();
                hls = null;
                if (native) {
                  video.removeAttribute('src');
                  video.load();
                }
              };
              detach = taken;
              return () => {
                if (detach === taken) detach = null;
                taken();
              };
            },
          };
          subscriber.next({ type: 'ready', source });
        },
        (error: unknown) => fail(`hls.js did not load: ${String(error)}`),
      );
      return () => {
        closed = true;
        detach?.();
        detach = null;
      };
    });
  }
}
