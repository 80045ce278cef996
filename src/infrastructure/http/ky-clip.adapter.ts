import { catchError, map, of, throwError, type Observable } from 'rxjs';
import type { ClipPort } from '../../application';
import { isClipId, type PlayClip, type PublicClip } from '../../domain';
import { CLIP_ENDPOINTS as C, clipResponseSchema, publicClipResponseSchema } from '../../contract';
import { isPostResponseError } from './errors';
import type { KyHttpClient } from './ky-http-client';

/** Videos of plays over HTTP (docs/clips.md) [R11-5]; every answer is checked against the contract. */
export class KyClips implements ClipPort {
  constructor(private readonly http: KyHttpClient) {}

  ofPlay(playId: number): Observable<PlayClip> {
    return this.http
      .post(C.get, { play_id: playId }, clipResponseSchema, 'clip_get', { identity: 'required' })
      .pipe(map((a) => a.clip));
  }

  share(clipId: string, shared: boolean): Observable<PlayClip> {
    return this.http
      .post(C.share, { clip_id: clipId, shared: shared ? 1 : 0 }, clipResponseSchema, 'clip_share', {
        identity: 'required',
      })
      .pipe(map((a) => a.clip));
  }

  keep(clipId: string, kept: boolean): Observable<PlayClip> {
    return this.http
      .post(C.keep, { clip_id: clipId, kept: kept ? 1 : 0 }, clipResponseSchema, 'clip_keep', { identity: 'required' })
      .pipe(map((a) => a.clip));
  }

  publicView(clipId: string): Observable<PublicClip | null> {
    // An id that cannot be one is no clip: nothing to ask (and nothing odd put in a path).
    if (!isClipId(clipId)) return of(null);
    return this.http.get(`${C.view}/${clipId}`, publicClipResponseSchema, 'clip_view', { identity: 'none' }).pipe(
      map((a): PublicClip | null => a.clip),
      // 404 is the answer for every clip a guest may not see: there is none to show.
      catchError((error: unknown) =>
        isPostResponseError(error) && error.code === 404 ? of(null) : throwError(() => error),
      ),
    );
  }
}
