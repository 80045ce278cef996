import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import { refusalText, type AddressForm, type DeliveryView } from '../../domain';
import type { AccountPort } from '../ports/account.port';
import type { PrizeDeliveryPort } from '../ports/prize-delivery.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface DeliveryHistoryState {
  readonly status: 'loading' | 'signIn' | 'ready' | 'error';
  readonly list: readonly DeliveryView[];
  /** The player's addresses, for a change. */
  readonly addresses: readonly AddressForm[];
  readonly busy: boolean;
  readonly error: string | null;
  /** The last change went through. */
  readonly changed: boolean;
}

/** Statuses whose address or time slot may still change (not handed to the carrier yet). */
export const CHANGEABLE_STATUSES: readonly DeliveryView['delivery_status'][] = ['requested', 'preparing'];

/**
 * The delivery history and detail (delivery modals: history, detail, change): the player's
 * requests newest first with their status, tracking number and shipping date [R3-15]; a request not
 * yet shipped can move to another address or time slot. Scoped to the modal.
 */
@injectable()
export class DeliveryHistory extends StateStore<DeliveryHistoryState> {
  constructor(
    @inject(TOKENS.PrizeDeliveryPort) private readonly delivery: Pick<PrizeDeliveryPort, 'deliveries' | 'change'>,
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'addresses'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
  ) {
    super({ status: 'loading', list: [], addresses: [], busy: false, error: null, changed: false });
  }

  async start(): Promise<void> {
    if (this.session.current() === null) {
      this.setState((s) => ({ ...s, status: 'signIn' }));
      return;
    }
    try {
      const [list, addresses] = await Promise.all([
        firstValueFrom(this.delivery.deliveries()),
        firstValueFrom(this.account.addresses()),
      ]);
      this.setState((s) => ({ ...s, status: 'ready', list, addresses }));
    } catch (error) {
      this.setState((s) => ({ ...s, status: 'error', error: refusalText(error) }));
    }
  }

  find(deliveryId: number): DeliveryView | null {
    return this.snapshot.list.find((d) => d.delivery_id === deliveryId) ?? null;
  }

  /** Moves a request not yet shipped to another address and/or time slot. */
  async change(
    deliveryId: number,
    change: { readonly addressId?: number; readonly leadTimes?: string },
  ): Promise<void> {
    if (this.snapshot.busy) return;
    this.setState((s) => ({ ...s, busy: true, error: null, changed: false }));
    try {
      const updated = await firstValueFrom(this.delivery.change(deliveryId, change));
      this.setState((s) => ({
        ...s,
        busy: false,
        changed: true,
        list: s.list.map((d) => (d.delivery_id === deliveryId ? updated : d)),
      }));
    } catch (error) {
      this.setState((s) => ({ ...s, busy: false, error: refusalText(error) }));
    }
  }
}
