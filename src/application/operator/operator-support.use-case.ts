import { inject, injectable } from 'inversify';
import type { ChatMessage } from '../../domain';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { ContactRecord, OperatorApiPort, SupportThreadSummary } from './ports/operator-api.port';

export interface SupportData {
  readonly contactStatus: 'open' | 'closed';
  readonly contacts: readonly ContactRecord[];
  readonly threads: readonly SupportThreadSummary[];
  /** The open thread: whose, and its messages oldest first. */
  readonly thread: { readonly userId: number; readonly messages: readonly ChatMessage[] } | null;
}

export type SupportActionName = 'closeContact' | 'openThread' | 'reply';

/** Support (right `support`): the contact inbox and closing, the chat threads, a thread, a reply. */
@injectable()
export class OperatorSupport extends OperatorScreen<SupportData, SupportActionName> {
  private replySeq = 0;

  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: OperatorApiPort,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super(session, { contactStatus: 'open', contacts: [], threads: [], thread: null });
  }

  refresh(contactStatus: 'open' | 'closed' = this.snapshot.data.contactStatus): Promise<void> {
    return this.load(async () => {
      const [contacts, threads] = await Promise.all([this.api.contacts(contactStatus), this.api.threads()]);
      return { ...this.snapshot.data, contactStatus, contacts, threads };
    });
  }

  async closeContact(contactId: number): Promise<boolean> {
    const done = await this.act('closeContact', async () => {
      await this.api.closeContact(contactId);
      return { contact_id: contactId };
    });
    if (done) await this.refresh();
    return done !== null;
  }

  async openThread(userId: number): Promise<void> {
    const messages = await this.act('openThread', () => this.api.thread(userId));
    if (messages) this.setState((s) => ({ ...s, data: { ...s.data, thread: { userId, messages } } }));
  }

  closeThread(): void {
    this.setState((s) => ({ ...s, data: { ...s.data, thread: null } }));
  }

  /** Sends a reply; the same attempt resent keeps its client id, so it is stored once. */
  async reply(userId: number, text: string): Promise<boolean> {
    const clientId = `console-${userId}-${Date.now().toString(36)}-${++this.replySeq}`;
    const done = await this.act('reply', async () => {
      await this.api.reply(userId, text.trim(), clientId);
      return this.api.thread(userId);
    });
    if (done) this.setState((s) => ({ ...s, data: { ...s.data, thread: { userId, messages: done } } }));
    return done !== null;
  }
}
