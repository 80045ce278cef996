import {
  getReserveRequestSchema, reserveCancelRequestSchema, reserveRequestSchema, visitCancelRequestSchema, visitRequestSchema,
} from '../../src/contract';
import type { ApiDeps } from './deps';

/** Station reservation calls: /v2/play/* of spec §7 plus the designed visit and reserve. */
export async function playRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const { reservations } = s;

  route.authed('/v2/play/get_reserve', getReserveRequestSchema, async (user, body) => {
    return { reserve_info: await reservations.getReserve(user.user_id, body.station_id) };
  });

  route.authed('/v2/play/visit', visitRequestSchema, async (user, body) => {
    return { reserve_info: await reservations.visit(user.user_id, body.station_id) };
  });

  route.authed('/v2/play/reserve', reserveRequestSchema, async (user, body) => {
    return await reservations.reserve(user.user_id, body.station_id, body.shop_id);
  });

  route.authed('/v2/play/reserve_cancel', reserveCancelRequestSchema, async (user, body) => {
    return { reserve_cancel: await reservations.cancelReservation(user.user_id, body.shop_id, body.reserve_cancel.station_setting_id) };
  });

  route.authed('/v2/play/visit_cancel', visitCancelRequestSchema, async (user, body) => {
    return { visit_cancel: await reservations.cancelVisit(user.user_id, body.station_setting_id) };
  });
}
