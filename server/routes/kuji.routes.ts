import {
  kujiDrawRequestSchema,
  kujiFairnessRequestSchema,
  kujiPollingRequestSchema,
  kujiReserveCancelRequestSchema,
  kujiReserveRequestSchema,
  kujiStatusCheckRequestSchema,
} from '../../src/contract';
import type { ApiDeps } from './deps';

/** Kuji play calls: /play/kuji_* of spec §7 plus the designed kuji_reserve. */
export async function kujiRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const kuji = s.kujiReservations;

  route.authed('/play/kuji_status_check', kujiStatusCheckRequestSchema, async (user) => {
    return { play_info: await kuji.statusCheck(user.user_id) };
  });

  route.authed('/play/kuji_reserve', kujiReserveRequestSchema, async (user, body) => {
    return { play_info: await kuji.reserve(user.user_id, body.kuji_id, body.box_id) };
  });

  route.authed('/play/kuji_polling', kujiPollingRequestSchema, async (user, body) => {
    return { polling: { play_info: await kuji.polling(user.user_id, body.reserve_token, body.kuji_id, body.box_id) } };
  });

  route.authed('/play/kuji_reserve_cancel', kujiReserveCancelRequestSchema, async (user, body) => {
    return { play_info: await kuji.cancel(user.user_id, body.reserve_token, body.kuji_id, body.box_id) };
  });

  // The draw (designed, docs/kuji.md): the holder draws 1, 3, 5, 10 or all tickets left.
  route.authed('/play/kuji_draw', kujiDrawRequestSchema, async (user, body) => {
    const draw = await s.kujiDraws.draw(user.user_id, body);
    const first = draw.tickets[0];
    if (draw.replayed === 0 && first) {
      // The prizes wait in the prize box (docs/delivery.md): the player is told, the storage clock starts.
      s.deliveries.prizeWon(user.user_id, first.prize_name);
      s.prizeStorage.poke();
    }
    return { draw, play_info: await kuji.polling(user.user_id, body.reserve_token, body.kuji_id, body.box_id) };
  });

  // A box's fairness, open to anyone: the commitment and the draws; the seed once the box ended.
  route.open('/contents/kuji_fairness', kujiFairnessRequestSchema, async (body) => ({
    fairness: await s.kujiDraws.fairness(body.box_id),
  }));
}
