import { inject, injectable } from 'inversify';
import { StateStore } from '../use-cases/state-store';
import { failureInfo, isOperatorCallFailed } from './operator-call-failed';
import { operatorHas } from './operator-rights';
import { OPERATOR_TOKENS } from './operator-tokens';
import type {
  OperatorApiPort,
  OperatorIdentity,
  OperatorRight,
  OperatorTokenStorePort,
} from './ports/operator-api.port';

export interface OperatorSessionState {
  /** checking: a kept token is being confirmed; signingIn: the sign-in call runs. */
  readonly status: 'checking' | 'signedOut' | 'signingIn' | 'signedIn';
  readonly operator: OperatorIdentity | null;
  /** Why the last sign-in (or the session) failed: the server's words, or '' when it gave none. */
  readonly error: string | null;
}

/**
 * The console's operator session (R10-9): sign-in with login ID and password, the token kept in the
 * tab's sessionStorage (never a cookie) and sent by the adapter in the operator header, logout, and
 * the way back to the sign-in screen when the server no longer knows the session: a 403 from any
 * call is checked with `operator/me`; only when that is refused too is the session over (a 403 for a
 * call outside the role leaves the operator signed in).
 */
@injectable()
export class OperatorSession extends StateStore<OperatorSessionState> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: Pick<OperatorApiPort, 'login' | 'logout' | 'me'>,
    @inject(OPERATOR_TOKENS.OperatorTokenStorePort) private readonly tokens: OperatorTokenStorePort,
  ) {
    super({ status: 'checking', operator: null, error: null });
  }

  /** A sign-out under way: the token still stands on the server until its logout call has gone. */
  private ending = false;

  /**
   * Whether the console may read for the operator now: signed in, and no sign-out under way. A
   * screen's read sent while the logout call runs would reach the server after the session ended
   * and be refused (the floor reads again on every live change), so screens read nothing then.
   */
  get active(): boolean {
    return this.snapshot.status === 'signedIn' && !this.ending;
  }

  /** The current session token (the live floor's socket handshake needs it). */
  token(): string | null {
    return this.tokens.read();
  }

  /** Whether the signed-in operator's role holds `right` (the rights the server listed). */
  can(right: OperatorRight): boolean {
    return operatorHas(this.snapshot.operator, right);
  }

  /** Confirms a token kept from before a reload; without one, shows the sign-in screen. */
  async restore(): Promise<void> {
    if (!this.tokens.read()) return this.setState({ status: 'signedOut', operator: null, error: null });
    try {
      const operator = await this.api.me();
      this.setState({ status: 'signedIn', operator, error: null });
    } catch (error) {
      if (isOperatorCallFailed(error) && error.status === 403) this.tokens.clear();
      this.setState({ status: 'signedOut', operator: null, error: failureInfo(error) ?? '' });
    }
  }

  async signIn(login: string, password: string): Promise<boolean> {
    if (this.snapshot.status === 'signingIn') return false;
    this.setState({ status: 'signingIn', operator: null, error: null });
    try {
      const signedIn = await this.api.login(login.trim(), password);
      this.tokens.write(signedIn.token);
      this.setState({ status: 'signedIn', operator: signedIn.operator, error: null });
      return true;
    } catch (error) {
      this.setState({ status: 'signedOut', operator: null, error: failureInfo(error) ?? '' });
      return false;
    }
  }

  /** Ends the session on the server (best effort) and forgets the token. */
  async signOut(): Promise<void> {
    this.ending = true;
    try {
      if (this.tokens.read()) {
        try {
          await this.api.logout();
        } catch {
          // The session may be over already; it is forgotten here either way.
        }
      }
      this.tokens.clear();
      this.setState({ status: 'signedOut', operator: null, error: null });
    } finally {
      this.ending = false;
    }
  }

  /**
   * A call was refused. On a 403, asks the server whether the session still stands: when not, the
   * token is forgotten and the sign-in screen comes back with the server's words.
   */
  async refused(error: unknown): Promise<void> {
    if (!isOperatorCallFailed(error) || error.status !== 403 || this.snapshot.status !== 'signedIn') return;
    try {
      await this.api.me();
    } catch (again) {
      if (isOperatorCallFailed(again) && again.status === 403) {
        this.tokens.clear();
        this.setState({ status: 'signedOut', operator: null, error: again.info ?? '' });
      }
    }
  }
}
