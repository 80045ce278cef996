import {
  confirmRequestSchema,
  controlRequestSchema,
  currentPlayRequestSchema,
  gaugeRequestSchema,
  getReserveRequestSchema,
  historyRequestSchema,
  PLAY_LOOP_ENDPOINTS as P,
  playIdRequestSchema,
  reserveCancelRequestSchema,
  reserveRequestSchema,
  visitCancelRequestSchema,
  visitRequestSchema,
} from '../../src/contract';
import type { ApiDeps } from './deps';

/** Station reservation calls: /v2/play/* of spec §7, the designed visit and reserve, and the play loop's calls (docs/play.md). */
export async function playRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const { reservations, rooms, playLog } = s;

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
    return {
      reserve_cancel: await reservations.cancelReservation(
        user.user_id,
        body.shop_id,
        body.reserve_cancel.station_setting_id,
      ),
    };
  });

  route.authed('/v2/play/visit_cancel', visitCancelRequestSchema, async (user, body) => {
    return { visit_cancel: await reservations.cancelVisit(user.user_id, body.station_setting_id) };
  });

  route.authed(`/${P.confirm}`, confirmRequestSchema, async (user, body) => ({
    play: await rooms.confirm(user.user_id, body.station_id),
  }));

  route.authed(`/${P.current}`, currentPlayRequestSchema, async (user) => ({
    play: await rooms.current(user.user_id),
  }));

  route.authed(`/${P.control}`, controlRequestSchema, async (user, body) =>
    rooms.control(user.user_id, body.play_id, body.button, body.command),
  );

  route.authed(`/${P.continue}`, playIdRequestSchema, async (user, body) => ({
    play: await rooms.continuePlay(user.user_id, body.play_id),
  }));

  route.authed(`/${P.finish}`, playIdRequestSchema, async (user, body) => {
    await rooms.finishTurn(user.user_id, body.play_id);
    return { play: null };
  });

  route.authed(`/${P.history}`, historyRequestSchema, async (user, body) => ({
    history: await playLog.history(user.user_id, body.page ?? 1),
  }));

  route.authed(`/${P.gauge}`, gaugeRequestSchema, async (user, body) => ({
    gauge: await playLog.gauge(user.user_id, body.station_id),
  }));
}
