import { inject, injectable } from 'inversify';
import { Subject, catchError, lastValueFrom, map, of, switchMap, type Observable } from 'rxjs';
import { isClipId, refusalCode, refusalText, type PlayClip, type PublicClip } from '../../domain';
import type { ClipPort } from '../ports/clip.port';
import type { ClockPort, ScheduledTask } from '../ports/clock.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

/** How often a clip still being written is asked for again, and for how long at most. */
export const CLIP_POLL_MS = 1_000;
export const CLIP_POLL_LIMIT = 30;

/** A change of a clip the player asked for and the service has not answered yet. */
export interface ClipChange {
  readonly kind: 'share' | 'keep';
  readonly to: boolean;
}

export type PlayClipState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  /**
   * The clip: `busy` while sharing or keeping is asked (with the value asked for, which the screen
   * shows at once); `error` the last refusal's Japanese text.
   */
  | {
      readonly kind: 'clip';
      readonly clip: PlayClip;
      readonly busy: ClipChange | null;
      readonly error: string | null;
    }
  /** The play has no clip the player may see (none was made, or it is not theirs). */
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The player's video of one of their plays (docs/clips.md) [R11-5]: opened from the result screen
 * or the play history. A clip still being written (the 3 s after the result) is asked for again
 * every second until it is ready (at most 30 times); sharing and keeping answer the clip as it now is.
 * Scoped to the modal that shows it.
 */
@injectable()
export class PlayClipViewer extends StateStore<PlayClipState> {
  private readonly loads = new Subject<number>();
  private poll: ScheduledTask | null = null;
  private polls = 0;

  constructor(
    @inject(TOKENS.ClipPort) private readonly clips: ClipPort,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
  ) {
    super({ kind: 'idle' });
    this.own(
      this.loads
        .pipe(
          switchMap((playId) => this.read(playId)),
          this.untilDisposed(),
        )
        .subscribe((state) => this.show(state)),
    );
    this.own(() => this.poll?.cancel());
  }

  /** Shows the clip of the caller's play `playId`. */
  open(playId: number): void {
    this.poll?.cancel();
    this.polls = 0;
    this.setState({ kind: 'loading' });
    this.loads.next(playId);
  }

  /** Shares the clip (its page opens for anyone with the address) or stops sharing it. */
  share(shared: boolean): void {
    this.change({ kind: 'share', to: shared }, (clip) => this.clips.share(clip.clip_id, shared));
  }

  /** Keeps the clip with no expiry, or lets it go (removed 30 days after the play). */
  keep(kept: boolean): void {
    this.change({ kind: 'keep', to: kept }, (clip) => this.clips.keep(clip.clip_id, kept));
  }

  private change(busy: ClipChange, call: (clip: PlayClip) => Observable<PlayClip>): void {
    const s = this.snapshot;
    if (s.kind !== 'clip' || s.busy !== null) return;
    this.setState({ ...s, busy, error: null });
    this.own(
      call(s.clip)
        .pipe(this.untilDisposed())
        .subscribe({
          next: (clip) => this.setState({ kind: 'clip', clip, busy: null, error: null }),
          error: (error: unknown) =>
            this.setState((now) => (now.kind === 'clip' ? { ...now, busy: null, error: refusalText(error) } : now)),
        }),
    );
  }

  private read(playId: number): Observable<PlayClipState & { playId: number }> {
    return this.clips.ofPlay(playId).pipe(
      map((clip) => ({ kind: 'clip' as const, clip, busy: null, error: null, playId })),
      catchError((error: unknown) =>
        of(
          refusalCode(error) === 404
            ? { kind: 'none' as const, playId }
            : { kind: 'error' as const, message: refusalText(error), playId },
        ),
      ),
    );
  }

  private show({ playId, ...state }: PlayClipState & { playId: number }): void {
    this.setState(state as PlayClipState);
    if (state.kind === 'clip' && state.clip.status === 'recording' && this.polls < CLIP_POLL_LIMIT) {
      this.polls += 1;
      this.poll = this.clock.setTimeout(() => this.loads.next(playId), CLIP_POLL_MS);
    }
  }
}

export type SharedClipState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'clip'; readonly clip: PublicClip }
  /** Not shared (or no longer), removed, or no such clip: all the same to a guest. */
  | { readonly kind: 'notFound' }
  | { readonly kind: 'error'; readonly message: string };

/** A shared clip's page loaded by a server render, sent in the page for the browser to adopt. */
export interface SharedClipSnapshot {
  readonly clipId: string;
  readonly state: SharedClipState;
}

/**
 * A shared clip's public page (`/clip/{clip_id}`, no sign-in) [R11-5]: the station and the prize,
 * when, the result and the video; nothing about the player. Page-scoped; a server render's load is
 * adopted so the browser asks nothing again.
 */
@injectable()
export class SharedClip extends StateStore<SharedClipState> {
  private readonly loads = new Subject<string>();

  constructor(@inject(TOKENS.ClipPort) private readonly clips: Pick<ClipPort, 'publicView'>) {
    super({ kind: 'loading' });
    this.own(
      this.loads
        .pipe(
          switchMap((clipId) => this.read(clipId)),
          this.untilDisposed(),
        )
        .subscribe((state) => this.setState(state)),
    );
  }

  /** Shows the clip `clipId` (an id that cannot be one is 'notFound' without asking). */
  open(clipId: string): void {
    if (this.takeAdopted(clipId)) return;
    this.setState({ kind: 'loading' });
    this.loads.next(clipId);
  }

  /** Loads a clip once without showing it (a server render's data). */
  async load(clipId: string): Promise<SharedClipSnapshot> {
    return { clipId, state: await lastValueFrom(this.read(clipId)) };
  }

  /** Shows a clip loaded by `load`; opening the same clip then asks nothing. */
  adopt(snapshot: SharedClipSnapshot): void {
    this.adoptState(snapshot.clipId, snapshot.state);
  }

  private read(clipId: string): Observable<SharedClipState> {
    if (!isClipId(clipId)) return of({ kind: 'notFound' });
    return this.clips.publicView(clipId).pipe(
      map((clip): SharedClipState => (clip ? { kind: 'clip', clip } : { kind: 'notFound' })),
      catchError((error: unknown) => of<SharedClipState>({ kind: 'error', message: refusalText(error) })),
    );
  }
}
