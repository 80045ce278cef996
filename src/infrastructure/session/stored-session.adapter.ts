import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';
import type { SessionPort } from '../../application';
import type { AuthIdentity } from '../../domain';

/** Optional persistence for a session: the browser's localStorage, or nothing. */
export interface SessionStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const KEY = 'onkure.session';

function restore(storage: SessionStorageLike | null): AuthIdentity | null {
  if (!storage) return null;
  try {
    const raw = storage.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<AuthIdentity>;
    if (
      typeof value.user_id === 'number' &&
      Number.isSafeInteger(value.user_id) &&
      typeof value.access_token === 'string' &&
      value.access_token.length > 0
    ) {
      return { user_id: value.user_id, access_token: value.access_token };
    }
  } catch {
    // A damaged entry is the same as none.
  }
  storage.removeItem(KEY);
  return null;
}

/**
 * The signed-in identity, kept in memory and, when given a storage (localStorage in the browser),
 * across reloads. The token is the user's bearer secret: it is never logged or sent anywhere but
 * the service API.
 */
export class StoredSession implements SessionPort {
  private readonly identity: BehaviorSubject<AuthIdentity | null>;
  readonly identity$: Observable<AuthIdentity | null>;

  constructor(private readonly storage: SessionStorageLike | null = null) {
    this.identity = new BehaviorSubject(restore(storage));
    this.identity$ = this.identity.pipe(
      distinctUntilChanged((a, b) => a?.user_id === b?.user_id && a?.access_token === b?.access_token),
    );
  }

  current(): AuthIdentity | null {
    return this.identity.value;
  }

  signIn(identity: AuthIdentity): void {
    this.storage?.setItem(KEY, JSON.stringify({ user_id: identity.user_id, access_token: identity.access_token }));
    this.identity.next({ user_id: identity.user_id, access_token: identity.access_token });
  }

  signOut(): void {
    this.storage?.removeItem(KEY);
    this.identity.next(null);
  }
}
