import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import {
  groupPrizes,
  isDeliverable,
  orderMadeShortfalls,
  refusalText,
  type DeliveryGroup,
  type OrderMadeShortfall,
  type UnreadKind,
  type WonPrize,
} from '../../domain';
import type { AccountPort } from '../ports/account.port';
import type { DeliveryTicketInfo, PrizeDeliveryPort } from '../ports/prize-delivery.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import type { CurrentUser } from './current-user.use-case';
import { StateStore } from './state-store';

export interface PrizeBoxState {
  readonly status: 'loading' | 'signIn' | 'ready' | 'error';
  readonly prizes: readonly WonPrize[];
  readonly ticket: DeliveryTicketInfo | null;
  readonly tab: DeliveryGroup;
  /** Prizes of the before list chosen for a delivery request. */
  readonly selected: ReadonlySet<number>;
  readonly error: string | null;
}

/** The prize box's lists, what is chosen and the order-made check of the choice [R4.5-1, R5-4]. */
export interface PrizeBoxView {
  readonly lists: Readonly<Record<DeliveryGroup, readonly WonPrize[]>>;
  readonly chosen: readonly WonPrize[];
  readonly shortfalls: readonly OrderMadeShortfall[];
}

/** The unread flags the prize box clears when it is seen (digital and direct are cleared by their own modals). */
const SEEN_HERE: readonly UnreadKind[] = ['prize', 'kuji', 'order_made_prize'];

/**
 * The prize box (prize earn history): every won prize in the before / after / invalid lists
 * [R4.5-1], the free-delivery ticket, and the choice of prizes to ship. Opening it clears the
 * prize unread flags (`user/read_info`). Scoped to the modal.
 */
@injectable()
export class PrizeBox extends StateStore<PrizeBoxState> {
  constructor(
    @inject(TOKENS.PrizeDeliveryPort) private readonly delivery: Pick<PrizeDeliveryPort, 'wonPrizes' | 'ticket'>,
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'markRead'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
  ) {
    super({ status: 'loading', prizes: [], ticket: null, tab: 'before', selected: new Set(), error: null });
  }

  /** Loads the prizes and the ticket, and marks the prize flags read. `seen` names more flags to clear. */
  async start(seen: readonly UnreadKind[] = []): Promise<void> {
    if (this.session.current() === null) {
      this.setState((s) => ({ ...s, status: 'signIn' }));
      return;
    }
    await this.reload();
    if (this.snapshot.status !== 'ready') return;
    try {
      for (const kind of [...SEEN_HERE, ...seen]) await firstValueFrom(this.account.markRead(kind));
      this.currentUser.reload();
    } catch {
      // The marks come back next time; the box itself is shown.
    }
  }

  async reload(): Promise<void> {
    this.setState((s) => ({ ...s, status: s.prizes.length > 0 ? s.status : 'loading', error: null }));
    try {
      const [prizes, ticket] = await Promise.all([
        firstValueFrom(this.delivery.wonPrizes()),
        firstValueFrom(this.delivery.ticket()),
      ]);
      const deliverable = new Set(prizes.filter(isDeliverable).map((p) => p.play_history_id));
      this.setState((s) => ({
        ...s,
        status: 'ready',
        prizes,
        ticket,
        selected: new Set([...s.selected].filter((id) => deliverable.has(id))),
      }));
    } catch (error) {
      this.setState((s) => ({ ...s, status: 'error', error: refusalText(error) }));
    }
  }

  showTab(tab: DeliveryGroup): void {
    this.setState((s) => ({ ...s, tab }));
  }

  /** Chooses or un-chooses a prize of the before list. */
  toggle(playHistoryId: number): void {
    const prize = this.snapshot.prizes.find((p) => p.play_history_id === playHistoryId);
    if (!prize || !isDeliverable(prize)) return;
    this.setState((s) => {
      const selected = new Set(s.selected);
      if (selected.has(playHistoryId)) selected.delete(playHistoryId);
      else selected.add(playHistoryId);
      return { ...s, selected };
    });
  }

  /** Chooses every deliverable prize, or none when all are chosen. */
  toggleAll(): void {
    const all = this.snapshot.prizes.filter(isDeliverable).map((p) => p.play_history_id);
    this.setState((s) => ({ ...s, selected: s.selected.size === all.length ? new Set() : new Set(all) }));
  }

  /** The lists and the choice as the screen shows them. */
  view(state: PrizeBoxState = this.snapshot): PrizeBoxView {
    const lists = groupPrizes(state.prizes);
    return {
      lists,
      chosen: state.prizes.filter((p) => state.selected.has(p.play_history_id)),
      shortfalls: orderMadeShortfalls(lists.before, state.selected),
    };
  }
}
