import {
  kujiPollingRequestSchema, kujiReserveCancelRequestSchema, kujiReserveRequestSchema, kujiStatusCheckRequestSchema,
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
}
