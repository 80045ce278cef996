import type { Observable } from 'rxjs';
import type { AuthPort, CodeSent, DebugSignedIn, EmailStatus, OutboxMessage, SessionPort, SignedIn } from '../../application';
import { emailValidGuard } from '../../domain';
import { authCalls, signingIn, signingOut } from '../http/ky-auth.adapter';
import { accountStateOf, type AccountState } from './in-memory-account-state';
import { InMemoryRefusal, type InMemoryBackend, type InMemoryUser } from './in-memory-backend';
import type { InMemoryCaller } from './in-memory-call';

/** As the server: tokens live 30 days; accounts created after the cutoff must verify their e-mail. */
const TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The reference server's default EMAIL_VERIFY_CUTOFF. */
export const EMAIL_VERIFICATION_CUTOFF = new Date('2025-04-01T00:00:00+09:00');
const DEBUG_WELCOME_TC = 10_000;
const CODE_TTL_MS = 30 * 60 * 1000;
const MAX_CODES_PER_HOUR = 5;
const MAX_CODE_FAILURES = 5;
const MAX_LOGIN_FAILURES = 10;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const LOGIN_FAILED = 'メールアドレスまたはパスワードが正しくありません。';
const INVALID_USER_INFO = 'このアカウントは現在ご利用いただけません。お問い合わせください。';

/** The one-time codes of the e-mail and phone checks, "sent" to the dev outbox as the server does. */
export class InMemoryVerification {
  constructor(private readonly backend: InMemoryBackend, private readonly state: AccountState) {}

  send(user: InMemoryUser, purpose: 'email' | 'tel', target: string): { expires_at: string } {
    const now = this.backend.now().getTime();
    const recent = this.state.codes.filter((c) => c.user_id === user.user_id && c.purpose === purpose && c.created_at > now - 3_600_000);
    if (recent.length >= MAX_CODES_PER_HOUR) throw new InMemoryRefusal(429, '認証コードの送信回数が上限に達しました。しばらくしてからお試しください。');
    if (purpose === 'email') this.assertEmailFree(user.user_id, target);
    const code = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
    const expires = now + CODE_TTL_MS;
    this.state.codes.push({ id: this.state.nextId(), user_id: user.user_id, purpose, target, code, created_at: now, expires_at: expires, used: false });
    const message = purpose === 'email'
      ? { channel: 'email' as const, subject: '【オンクレ】メールアドレス確認コード', body: `認証コード: ${code}\n30分以内に画面へ入力してください。お心当たりのない場合はこのメールを破棄してください。` }
      : { channel: 'sms' as const, subject: 'SMS認証', body: `【オンクレ】認証コード: ${code}（30分間有効）` };
    this.state.outbox.push({ message_id: this.state.nextId(), user_id: user.user_id, recipient: target, created_at: new Date(now).toISOString(), ...message });
    return { expires_at: new Date(expires).toISOString() };
  }

  verify(user: InMemoryUser, purpose: 'email' | 'tel', code: string): { target: string; verified_at: string } {
    const key = `${purpose}:${user.user_id}`;
    const now = this.backend.now().getTime();
    if (this.state.isBlocked(key, MAX_CODE_FAILURES, FAILURE_WINDOW_MS, now)) {
      throw new InMemoryRefusal(429, '認証コードの入力回数が上限に達しました。しばらくしてから新しいコードでお試しください。');
    }
    const live = this.state.codes
      .filter((c) => c.user_id === user.user_id && c.purpose === purpose && !c.used && c.expires_at > now)
      .sort((a, b) => b.created_at - a.created_at || b.id - a.id)[0];
    if (!live || live.code !== code) {
      this.state.recordFailure(key, now);
      throw new InMemoryRefusal(400, '認証コードが正しくないか、有効期限が切れています。');
    }
    if (purpose === 'email') this.assertEmailFree(user.user_id, live.target);
    live.used = true;
    const verifiedAt = new Date(now).toISOString();
    if (purpose === 'email') {
      user.email = live.target;
      user.email_verified_at = verifiedAt;
    } else {
      user.tel = live.target;
      user.tel_verified_at = verifiedAt;
    }
    this.state.resetFailures(key);
    return { target: live.target, verified_at: verifiedAt };
  }

  private assertEmailFree(userId: number, email: string): void {
    if ([...this.backend.users.values()].some((u) => u.email === email && u.user_id !== userId)) {
      throw new InMemoryRefusal(409, 'このメールアドレスはすでに使われています。');
    }
  }
}

/** AuthPort in memory: accounts and tokens in the shared backend, the same refusals as the server. */
export class InMemoryAuth implements AuthPort {
  private readonly state: AccountState;
  private readonly verification: InMemoryVerification;

  constructor(private readonly caller: InMemoryCaller, private readonly session: SessionPort) {
    this.state = accountStateOf(caller.backend);
    this.verification = new InMemoryVerification(caller.backend, this.state);
  }

  private get backend(): InMemoryBackend {
    return this.caller.backend;
  }

  private session_(userId: number) {
    const { access_token } = this.backend.issueToken(userId);
    return { user_id: userId, access_token, expires_at: new Date(this.backend.now().getTime() + TOKEN_TTL_MS).toISOString() };
  }

  signUp(email: string, password: string): Observable<SignedIn> {
    return this.caller.servePublic(authCalls.signUp(email, password), (body) => {
      if ([...this.backend.users.values()].some((u) => u.email === body.email)) throw new InMemoryRefusal(409, 'このメールアドレスはすでに登録されています。');
      const user = this.backend.createUser({ email: body.email, password: body.password });
      const answer = this.session_(user.user_id);
      this.verification.send(user, 'email', body.email);
      return answer;
    }).pipe(signingIn(this.session));
  }

  logIn(email: string, password: string): Observable<SignedIn> {
    return this.caller.servePublic(authCalls.logIn(email, password), (body) => {
      const now = this.backend.now().getTime();
      if (this.state.isBlocked(body.email, MAX_LOGIN_FAILURES, FAILURE_WINDOW_MS, now)) {
        throw new InMemoryRefusal(429, 'ログインの失敗が続いたため、しばらくログインできません。時間をおいてお試しください。');
      }
      const user = [...this.backend.users.values()].find((u) => u.email === body.email);
      if (!user || user.password === null || user.password !== body.password) {
        this.state.recordFailure(body.email, now);
        throw new InMemoryRefusal(401, LOGIN_FAILED);
      }
      if (user.status === 2) throw new InMemoryRefusal(9002, INVALID_USER_INFO);
      this.state.resetFailures(body.email);
      return this.session_(user.user_id);
    }).pipe(signingIn(this.session));
  }

  logOut(): Observable<void> {
    return this.caller.serve(authCalls.logOut(), (body) => {
      this.backend.revokeToken(body.access_token);
      return {};
    }).pipe(signingOut(this.session));
  }

  debugLogIn(name?: string): Observable<DebugSignedIn> {
    return this.caller.servePublic(authCalls.debugLogIn(name), (body) => {
      const debugName = body.name ?? 'debug';
      const existing = this.state.debugUsers.get(debugName);
      let userId = existing;
      if (userId === undefined) {
        const user = this.backend.createUser({ is_debug: true, nickname: `デバッグ${debugName}`.slice(0, 16) });
        userId = user.user_id;
        this.state.debugUsers.set(debugName, userId);
        this.backend.credit(userId, 'free', DEBUG_WELCOME_TC, 'debug_grant', debugName);
      }
      return { ...this.session_(userId), created: existing === undefined ? 1 : 0 };
    }).pipe(signingIn(this.session));
  }

  emailStatus(): Observable<EmailStatus> {
    return this.caller.serve(authCalls.emailStatus(), (_body, user) => {
      const created = new Date(user.created_at);
      return {
        email: user.email,
        email_verified: user.email_verified_at ? 1 : 0,
        email_verified_at: user.email_verified_at,
        created_at: created.toISOString(),
        verification_required: emailValidGuard({ signedIn: true, emailVerified: Boolean(user.email_verified_at), createdAtMs: created.getTime(), cutoffMs: EMAIL_VERIFICATION_CUTOFF.getTime() }).kind === 'admit' ? 1 : 0,
        cutoff: EMAIL_VERIFICATION_CUTOFF.toISOString(),
      };
    });
  }

  sendEmailCode(email?: string): Observable<CodeSent> {
    return this.caller.serve(authCalls.sendEmailCode(email), (body, user) => {
      const target = body.email_verify.email ?? user.email;
      if (!target) throw new InMemoryRefusal(400, 'メールアドレスを入力してください。');
      return this.verification.send(user, 'email', target);
    });
  }

  verifyEmail(code: string): Observable<{ readonly email: string; readonly verifiedAt: string }> {
    return this.caller.serve(authCalls.verifyEmail(code), (body, user) => {
      const done = this.verification.verify(user, 'email', body.email_verify.code);
      return { email: done.target, email_verified_at: done.verified_at };
    });
  }

  devOutbox(): Observable<readonly OutboxMessage[]> {
    return this.caller.serve(authCalls.devOutbox(), (_body, user) => ({
      list: this.state.outbox.filter((m) => m.user_id === user.user_id).sort((a, b) => b.message_id - a.message_id).slice(0, 50)
        .map(({ user_id: _u, ...m }) => m),
    }));
  }
}
