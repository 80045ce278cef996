import type { Observable } from 'rxjs';
import type { PlayClip, PublicClip } from '../../domain';

/**
 * Videos of plays (docs/clips.md) [R11-5]. Cold observables that emit once and complete; refusals
 * error with their error_code and Japanese error_info (404: not the caller's or no such clip, 409:
 * too many kept clips).
 */
export interface ClipPort {
  /** The caller's clip of one of their plays (with addresses of its files for about an hour). */
  ofPlay(playId: number): Observable<PlayClip>;
  /** Shares the clip (anyone with its page's address may watch it) or stops sharing it. */
  share(clipId: string, shared: boolean): Observable<PlayClip>;
  /** Keeps the clip past its 30 days, or lets it go. */
  keep(clipId: string, kept: boolean): Observable<PlayClip>;
  /** A shared clip as anyone sees it (no sign-in); null when there is none to see (unknown, unshared, removed). */
  publicView(clipId: string): Observable<PublicClip | null>;
}
