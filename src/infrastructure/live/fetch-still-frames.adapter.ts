import { Observable } from 'rxjs';
import type { StillFrame, StillFramePort } from '../../application';
import { FRAME_TICK_HEADER } from '../../contract';

/**
 * Fetches a still picture as an object URL [R7-9]. The request is aborted when unsubscribed; the
 * object URL lives until the frame is released, so the page never holds more than the pictures it
 * shows. The service names a still by its path (`/api/stations/1/camera/front.jpg`): it is resolved
 * against the API's origin, so a page on another origin (a partner's, with the station widget)
 * asks the service and not its own host.
 */
export class FetchStillFrames implements StillFramePort {
  constructor(
    private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
    private readonly urls: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'> = URL,
    private readonly origin?: string,
  ) {}

  fetchFrame(url: string): Observable<StillFrame> {
    return new Observable<StillFrame>((subscriber) => {
      const abort = new AbortController();
      void (async () => {
        const address = this.origin ? new URL(url, this.origin).toString() : url;
        const response = await this.fetchImpl(address, {
          signal: abort.signal,
          cache: 'no-store',
          credentials: 'same-origin',
        });
        if (!response.ok) throw new Error(`still ${url}: HTTP ${response.status}`);
        const tick = Number(response.headers.get(FRAME_TICK_HEADER) ?? 0) || 0;
        const blob = await response.blob();
        if (abort.signal.aborted) return;
        const objectUrl = this.urls.createObjectURL(blob);
        let released = false;
        subscriber.next({
          url: objectUrl,
          tick,
          release: () => {
            if (released) return;
            released = true;
            this.urls.revokeObjectURL(objectUrl);
          },
        });
        subscriber.complete();
      })().catch((error: unknown) => {
        if (!abort.signal.aborted) subscriber.error(error);
      });
      return () => abort.abort();
    });
  }
}
