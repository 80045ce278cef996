import type { Observable } from 'rxjs';
import type { PrizeDeliveryPort } from '../../application';
import type { WonPrize as WireWonPrize } from '../../contract';
import { prizeDeliveryCalls } from '../http/ky-prize-delivery.adapter';
import { accountStateOf, type StoredPrize } from './in-memory-account-state';
import { InMemoryRefusal, type InMemoryBackend } from './in-memory-backend';
import type { InMemoryCaller } from './in-memory-call';
import type { PrizeDelivery, WonPrize } from '../../domain';

/** Most prizes one item list answers (newest first), as on the server. */
const MAX_ITEM_LIST = 500;

/** What a win records (the play and kuji modules, and test fixtures). */
export interface WinRecord {
  readonly prize_kind: WireWonPrize['prize_kind'];
  readonly product_name: string;
  readonly station_id?: number | null;
  readonly kuji_name?: string | null;
  readonly prize_count?: number;
}

/** Records a win for a user in the backend's account state; answers its play_history_id. */
export function recordWin(backend: InMemoryBackend, userId: number, w: WinRecord): number {
  const state = accountStateOf(backend);
  const id = state.nextId();
  state.prizes.push({
    user_id: userId,
    prize: {
      play_history_id: id, station_id: w.station_id ?? null, prize_kind: w.prize_kind, product_name: w.product_name, kuji_name: w.kuji_name ?? null,
      prize_count: w.prize_count ?? 1, add_delivery_days: 0, is_reservation_delivery: 0, won_at: backend.now().toISOString(),
    },
    delivery: null,
  });
  return id;
}

const wire = (p: StoredPrize): WireWonPrize => ({ ...p.prize, delivery_status: p.delivery?.status ?? 'not_requested' });

/** PrizeDeliveryPort in memory: a player sees only their own prizes (another's is not found). */
export class InMemoryPrizeDelivery implements PrizeDeliveryPort {
  constructor(private readonly caller: InMemoryCaller) {}

  wonPrizes(): Observable<readonly WonPrize[]> {
    return this.caller.serve(prizeDeliveryCalls.wonPrizes(), (_body, user) => {
      const list = accountStateOf(this.caller.backend).prizes.filter((p) => p.user_id === user.user_id)
        .sort((a, b) => b.prize.won_at.localeCompare(a.prize.won_at) || b.prize.play_history_id - a.prize.play_history_id)
        .slice(0, MAX_ITEM_LIST).map(wire);
      return { item_info: { list, count: list.length } };
    });
  }

  delivery(playHistoryId: number): Observable<PrizeDelivery> {
    return this.caller.serve(prizeDeliveryCalls.delivery(playHistoryId), (body, user) => {
      const state = accountStateOf(this.caller.backend);
      const stored = state.prizes.find((p) => p.user_id === user.user_id && p.prize.play_history_id === body.get_delivery.play_history_id);
      if (!stored) throw new InMemoryRefusal(404, '景品が見つかりません。');
      let address: object | null = null;
      if (stored.delivery) {
        address = stored.delivery.address;
      } else {
        const main = state.addresses.find((a) => a.user_id === user.user_id && a.is_main === 1);
        if (main) address = { first_name: main.first_name, last_name: main.last_name, zip: main.zip, address1: main.address1, address2: main.address2, address3: main.address3, tel: main.tel, email: main.email };
      }
      const prize = wire(stored);
      return {
        get_delivery_address: {
          data: {
            play_history_id: prize.play_history_id, delivery_status: prize.delivery_status, address, prize,
            prize_contact_number: stored.delivery?.contact_number ?? '',
            prize_shipmented_at: stored.delivery?.shipped_at ?? '-',
          },
        },
      };
    });
  }
}
