import { inject, injectable } from 'inversify';
import {
  EMPTY,
  Subject,
  catchError,
  defer,
  distinctUntilChanged,
  map,
  merge,
  of,
  startWith,
  switchMap,
  type Observable,
} from 'rxjs';
import { isVipUser, type AuthIdentity, type UserData } from '../../domain';
import type { AccountPort } from '../ports/account.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

/**
 * What the app knows about the signed-in user:
 * - idle: nothing asked yet (nobody has subscribed to user$, isVip$ or view$);
 * - guest: nobody is signed in;
 * - loading: a user is signed in and their data is on its way;
 * - ready: the signed-in user's data;
 * - failed: the data could not be read (logged); shown like a guest, never as an error screen.
 */
export type CurrentUserState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'guest' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly user: UserData }
  | { readonly kind: 'failed' };

const sameIdentity = (a: AuthIdentity | null, b: AuthIdentity | null) =>
  a?.user_id === b?.user_id && a?.access_token === b?.access_token;

/**
 * The signed-in user's data (spec §3 "User data") for every screen: the header's VIP logo
 * [R2.6-4, R6-2], the crane item list, balances. Follows the session: a sign-in loads the new user's
 * data (the previous user's is dropped at once, never shown to the next), a sign-out answers null.
 * A failure is logged and leaves null (the guest logo); it never reaches the UI as an error.
 *
 * Lazy and app-lifetime (one per container): the constructor opens nothing, the first subscription
 * to `user$`, `isVip$` or `view$` starts following the session, so a server render asks for nothing.
 */
@injectable()
export class CurrentUser extends StateStore<CurrentUserState> {
  private readonly reloads = new Subject<void>();
  private started = false;

  /** Every state, starting with the current one; subscribing starts following the session. */
  readonly view$: Observable<CurrentUserState>;
  /** The signed-in user's data; null for a guest, while loading, and after a failed load. */
  readonly user$: Observable<UserData | null>;
  /** Whether the signed-in user is a VIP user (vip_level above normal) [R6-2]; false for a guest. */
  readonly isVip$: Observable<boolean>;

  constructor(
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'identity$'>,
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'userData'>,
  ) {
    super({ kind: 'idle' });
    // The current state first, then start: the subscriber sees every step (loading, then the answer).
    this.view$ = merge(
      this.state$,
      defer(() => {
        this.start();
        return EMPTY;
      }),
    );
    this.user$ = this.view$.pipe(
      map((s) => (s.kind === 'ready' ? s.user : null)),
      distinctUntilChanged(),
    );
    this.isVip$ = this.user$.pipe(
      map((u) => u !== null && isVipUser(u.login_info.vip_level)),
      distinctUntilChanged(),
    );
    this.own(() => this.reloads.complete());
  }

  /** The signed-in user's data now (null unless ready). */
  get user(): UserData | null {
    return this.snapshot.kind === 'ready' ? this.snapshot.user : null;
  }

  /**
   * Reads the signed-in user's data again (after a play, a purchase, a settings change). The data
   * shown stays until the fresh answer replaces it; if the refresh fails it stays (and is logged).
   */
  reload(): void {
    this.start();
    this.reloads.next();
  }

  private start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    this.own(
      this.session.identity$
        .pipe(
          distinctUntilChanged(sameIdentity),
          switchMap((identity): Observable<CurrentUserState> =>
            identity === null ? of<CurrentUserState>({ kind: 'guest' }) : this.follow(),
          ),
          this.untilDisposed(),
        )
        .subscribe((state) => this.setState(state)),
    );
  }

  /** One signed-in user: loading, then the answer; each reload asks again and keeps what is shown until then. */
  private follow(): Observable<CurrentUserState> {
    return this.reloads.pipe(
      startWith(undefined),
      switchMap(() =>
        this.account.userData().pipe(
          map((user): CurrentUserState => ({ kind: 'ready', user })),
          catchError((error: unknown) => {
            // Only the message: a failed call's detail holds the request body, which carries the token.
            console.warn(
              `onkure: the user data could not be read (${error instanceof Error ? error.message : String(error)})`,
            );
            // A failed refresh keeps the same user's data on screen; a failed first read shows a guest.
            return of<CurrentUserState>(this.snapshot.kind === 'ready' ? this.snapshot : { kind: 'failed' });
          }),
        ),
      ),
      startWith<CurrentUserState>({ kind: 'loading' }),
    );
  }
}
