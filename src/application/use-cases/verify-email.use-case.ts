import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import { emailValidGuard, parseServiceTime, refusalText } from '../../domain';
import type { AuthPort } from '../ports/auth.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export type VerifyEmailState =
  | { readonly kind: 'checking' }
  /** The /emailvalid guard turned the visitor away [R2.2-2]. */
  | { readonly kind: 'redirect'; readonly to: string }
  /** Admitted: the address to send a code to ('' when none yet), and after sending, where and until when. */
  | {
      readonly kind: 'form';
      readonly email: string;
      readonly sentTo: string | null;
      readonly expiresAt: string | null;
      readonly busy: boolean;
      /** The service's Japanese refusal of the last step, if any. */
      readonly error: string | null;
    }
  | { readonly kind: 'verified'; readonly email: string }
  | { readonly kind: 'error'; readonly message: string };

/**
 * The e-mail verification page (§2.1 /emailvalid, §2.2): checks the guard — signed in, e-mail not
 * verified, account created after the cutoff — with the domain's rule over the service's answer,
 * then sends a one-time code to the address and verifies it. Page-scoped.
 */
@injectable()
export class VerifyEmail extends StateStore<VerifyEmailState> {
  constructor(
    @inject(TOKENS.AuthPort) private readonly auth: Pick<AuthPort, 'emailStatus' | 'sendEmailCode' | 'verifyEmail'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
  ) {
    super({ kind: 'checking' });
  }

  /** Runs the guard. A guest is turned away without asking the service. */
  async start(): Promise<void> {
    if (this.session.current() === null) {
      const decision = emailValidGuard({ signedIn: false, emailVerified: false, createdAtMs: null, cutoffMs: 0 });
      if (decision.kind === 'redirect') this.setState({ kind: 'redirect', to: decision.to });
      return;
    }
    try {
      const status = await firstValueFrom(this.auth.emailStatus());
      const decision = emailValidGuard({
        signedIn: true,
        emailVerified: status.verified,
        createdAtMs: parseServiceTime(status.createdAt),
        cutoffMs: parseServiceTime(status.cutoff) ?? Number.POSITIVE_INFINITY,
      });
      this.setState(
        decision.kind === 'redirect'
          ? { kind: 'redirect', to: decision.to }
          : { kind: 'form', email: status.email ?? '', sentTo: null, expiresAt: null, busy: false, error: null },
      );
    } catch (error) {
      this.setState({ kind: 'error', message: refusalText(error) });
    }
  }

  /** Sends a code to `email` (the registered address when blank). */
  async sendCode(email: string): Promise<void> {
    const form = this.form();
    if (!form || form.busy) return;
    const to = email.trim();
    this.setState({ ...form, email: to, busy: true, error: null });
    try {
      const sent = await firstValueFrom(this.auth.sendEmailCode(to === '' ? undefined : to));
      this.setState({ ...form, email: to, sentTo: to, expiresAt: sent.expiresAt, busy: false, error: null });
    } catch (error) {
      this.setState({ ...form, email: to, busy: false, error: refusalText(error) });
    }
  }

  /**
   * The code sign-up already sent to the registered address: the page asks for it at once instead
   * of sending another (codes are limited per hour).
   */
  codeSentAtSignUp(): void {
    const form = this.form();
    if (form && form.sentTo === null && form.email !== '') this.setState({ ...form, sentTo: form.email });
  }

  /** Verifies the code the player received. */
  async verify(code: string): Promise<void> {
    const form = this.form();
    if (!form || form.busy) return;
    this.setState({ ...form, busy: true, error: null });
    try {
      const done = await firstValueFrom(this.auth.verifyEmail(code.trim()));
      this.setState({ kind: 'verified', email: done.email });
    } catch (error) {
      this.setState({ ...form, busy: false, error: refusalText(error) });
    }
  }

  private form(): Extract<VerifyEmailState, { kind: 'form' }> | null {
    return this.snapshot.kind === 'form' ? this.snapshot : null;
  }
}
