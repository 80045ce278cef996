import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import {
  ACCOUNT_FORM_MESSAGES,
  checkChatText,
  checkContactText,
  CONTACT_CATEGORIES,
  mergeChat,
  refusalText,
  type ChatMessage,
  type ContactCategory,
  type ContactReceipt,
} from '../../domain';
import type { ClockPort } from '../ports/clock.port';
import type { RealtimePort } from '../ports/realtime.port';
import type { SupportPort } from '../ports/support.port';
import { TOKENS } from '../tokens';
import type { CurrentUser } from './current-user.use-case';
import { FormStore } from './form-store';
import { StateStore } from './state-store';
import type { TrackEvent } from './track-event.use-case';

/** support_id of the support_click event [R9-15]: which support entry the player opened. */
export const SUPPORT_IDS = { contact: 1, chat: 2 } as const;

/** The contact form and its done step: category, text, and the recent plays attached on request. */
@injectable()
export class ContactForm extends FormStore<'category' | 'text', ContactReceipt> {
  constructor(
    @inject(TOKENS.SupportPort) private readonly support: Pick<SupportPort, 'sendContact'>,
    @inject(TOKENS.TrackEvent) private readonly tracker: Pick<TrackEvent, 'track'>,
  ) {
    super({});
  }

  /** The player opened the form (the support_click event). */
  start(): void {
    this.tracker.track('support_click', { support_id: SUPPORT_IDS.contact });
  }

  send(input: { category: string; text: string; attachPlay: boolean }): Promise<ContactReceipt | null> {
    const category = (CONTACT_CATEGORIES as readonly string[]).includes(input.category)
      ? { ok: true as const, value: input.category }
      : { ok: false as const, message: ACCOUNT_FORM_MESSAGES.contactCategory };
    return this.submit({ category, text: checkContactText(input.text) }, (v) =>
      this.support.sendContact(v.category as ContactCategory, v.text!, input.attachPlay),
    );
  }
}

export interface SupportChatState {
  readonly status: 'loading' | 'ready' | 'error';
  /** Oldest first, each once. */
  readonly messages: readonly ChatMessage[];
  readonly hasMore: boolean;
  readonly sending: boolean;
  /** A refusal of the last send or load. */
  readonly error: string | null;
  /** The check of the text being written. */
  readonly fieldError: string | null;
}

/**
 * The support chat: the newest page, operator replies by push on the user channel as they come
 * (merged by id: a push that arrives before the page or twice lands once), older pages on demand.
 * Opening it reads the messages, which clears the unread message flag (the user is reloaded).
 * A send that fails keeps its id: sending again cannot store it twice.
 */
@injectable()
export class SupportChat extends StateStore<SupportChatState> {
  private pendingId: string | null = null;
  private seq = 0;

  constructor(
    @inject(TOKENS.SupportPort) private readonly support: SupportPort,
    @inject(TOKENS.RealtimePort) private readonly realtime: Pick<RealtimePort, 'channel'>,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
    @inject(TOKENS.TrackEvent) private readonly tracker: Pick<TrackEvent, 'track'>,
    @inject(TOKENS.ClockPort) private readonly clock: Pick<ClockPort, 'now'>,
  ) {
    super({ status: 'loading', messages: [], hasMore: false, sending: false, error: null, fieldError: null });
  }

  async start(): Promise<void> {
    this.tracker.track('support_click', { support_id: SUPPORT_IDS.chat });
    this.own(
      this.realtime
        .channel({ kind: 'user' })
        .pipe(this.untilDisposed())
        .subscribe((e) => {
          if (e.type === 'chat') this.setState((s) => ({ ...s, messages: mergeChat(s.messages, [e.message]) }));
          // Pushes reach this device from the join on: what came before (a reply while the socket was
          // joining or away) is read again, so nothing falls between the page and the pushes.
          else if (e.type === 'joined') void this.readNewest();
        }),
    );
    await this.readNewest();
  }

  private async readNewest(): Promise<void> {
    try {
      const page = await firstValueFrom(this.support.chatPage().pipe(this.untilDisposed()));
      this.setState((s) => ({
        ...s,
        status: 'ready',
        messages: mergeChat(s.messages, page.messages),
        // Older pages stay as loaded; the newest page says whether more exist only on the first read.
        hasMore: s.status === 'loading' ? page.hasMore : s.hasMore,
      }));
      this.currentUser.reload();
    } catch (error) {
      this.setState((s) => ({ ...s, status: s.status === 'loading' ? 'error' : s.status, error: refusalText(error) }));
    }
  }

  async loadOlder(): Promise<void> {
    const first = this.snapshot.messages[0];
    if (!first || !this.snapshot.hasMore) return;
    try {
      const page = await firstValueFrom(this.support.chatPage(first.messageId).pipe(this.untilDisposed()));
      this.setState((s) => ({ ...s, messages: mergeChat(s.messages, page.messages), hasMore: page.hasMore }));
    } catch (error) {
      this.setState((s) => ({ ...s, error: refusalText(error) }));
    }
  }

  /** Sends `text`; answers true when it was stored (the form may clear). */
  async send(text: string): Promise<boolean> {
    if (this.snapshot.sending) return false;
    const checked = checkChatText(text);
    if (!checked.ok) {
      this.setState((s) => ({ ...s, fieldError: checked.message }));
      return false;
    }
    this.pendingId ??= this.newClientId();
    this.setState((s) => ({ ...s, sending: true, error: null, fieldError: null }));
    try {
      const message = await firstValueFrom(
        this.support.sendChat(checked.value, this.pendingId).pipe(this.untilDisposed()),
      );
      this.pendingId = null;
      this.setState((s) => ({ ...s, sending: false, messages: mergeChat(s.messages, [message]) }));
      return true;
    } catch (error) {
      this.setState((s) => ({ ...s, sending: false, error: refusalText(error) }));
      return false;
    }
  }

  /** The text changed: a failed send's id is for that text only. */
  edited(): void {
    this.pendingId = null;
  }

  private newClientId(): string {
    this.seq += 1;
    return `chat-${this.clock.now().toString(36)}-${this.seq}-${Math.random().toString(36).slice(2, 12)}`;
  }
}
