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
  settingsHistoryRequestSchema,
  visitCancelRequestSchema,
  visitRequestSchema,
} from '../../src/contract';
import { SERVER_MESSAGES } from '../messages';
import { atStation, expectReply } from '../http/room-answers';
import { Refusal } from '../play/refusal';
import type { StationRequest } from '../../src/domain';
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

  // Joins the station's line through its room: 404 for a station of another shop, 531 in
  // maintenance, 409 during a prize change or when sold out, the VIP gate (569, 570, 571) [R6-3,
  // R6-4, R6-5], 402 without TC for one play, 409 when the caller already holds a place.
  route.authed('/v2/play/reserve', reserveRequestSchema, async (user, body) => {
    const join = { type: 'join', userId: user.user_id, shopId: body.shop_id ?? null } as const;
    await atStation(body.station_id, rooms.send('station', body.station_id, join));
    return reservations.reserved(user.user_id, body.station_id);
  });

  // Gives up the caller's place at a station setting (waiting, or a turn not yet confirmed); 404
  // when the caller holds none there; 409 for a paid play in progress (it ends with its result).
  route.authed('/v2/play/reserve_cancel', reserveCancelRequestSchema, async (user, body) => {
    const settingId = body.reserve_cancel.station_setting_id;
    const leave = { type: 'leave', userId: user.user_id, settingId, shopId: body.shop_id } as const;
    const answer = await atStation(null, rooms.sendToUser('station', user.user_id, leave));
    if (answer === null) throw new Refusal(404, 404, SERVER_MESSAGES.reservationNotFound);
    return {
      reserve_cancel: {
        play_reserve_id: expectReply(answer, 'left').reserveId,
        station_setting_id: settingId,
        reserve_status: 'cancel' as const,
      },
    };
  });

  route.authed('/v2/play/visit_cancel', visitCancelRequestSchema, async (user, body) => {
    return { visit_cancel: await reservations.cancelVisit(user.user_id, body.station_setting_id) };
  });

  /** An event for the station where the caller has a place; none: the caller holds no play (403). */
  const onPlayersStation = async (userId: number, event: StationRequest) => {
    const answer = await atStation(null, rooms.sendToUser('station', userId, event));
    if (answer === null) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
    return answer;
  };

  // The player takes the turn: the play is charged and the claw resets. 409 when it is not their turn.
  route.authed(`/${P.confirm}`, confirmRequestSchema, async (user, body) => {
    const answer = await atStation(
      body.station_id,
      rooms.send('station', body.station_id, { type: 'confirm', userId: user.user_id }),
    );
    return { play: expectReply(answer, 'play').play };
  });

  // The caller's play on any machine, or null. A player in a grace window is back.
  route.authed(`/${P.current}`, currentPlayRequestSchema, async (user) => {
    const answer = await atStation(
      null,
      rooms.sendToUser('station', user.user_id, { type: 'look', userId: user.user_id }),
    );
    return { play: answer === null ? null : expectReply(answer, 'play').play };
  });

  // A button press or release: over 25 commands a second is 429 (counted before anything else),
  // not the player's play 403, not the button's moment 409. A player away from the play is back with it.
  route.authed(`/${P.control}`, controlRequestSchema, async (user, body) => {
    if (!s.controlRate.tryAcquire(String(user.user_id))) throw new Refusal(429, 429, SERVER_MESSAGES.controlTooFast);
    const { tick, machine } = expectReply(
      await onPlayersStation(user.user_id, {
        type: 'control',
        userId: user.user_id,
        playId: body.play_id,
        button: body.button,
        command: body.command,
      }),
      'control',
    );
    return { tick, machine };
  });

  // The same player plays again within the continue window (charged again).
  route.authed(`/${P.continue}`, playIdRequestSchema, async (user, body) => {
    const answer = await onPlayersStation(user.user_id, {
      type: 'continue',
      userId: user.user_id,
      playId: body.play_id,
    });
    return { play: expectReply(answer, 'play').play };
  });

  // The player ends their turn after a result (instead of waiting for the window to close).
  route.authed(`/${P.finish}`, playIdRequestSchema, async (user, body) => {
    await onPlayersStation(user.user_id, { type: 'finish', userId: user.user_id, playId: body.play_id });
    return { play: null };
  });

  // A staff assist after enough misses in a row [R11-9]: the turn is held for the staff (409 when
  // the player may not ask now, or already asked).
  route.authed(`/${P.assist}`, playIdRequestSchema, async (user, body) => {
    const answer = await onPlayersStation(user.user_id, {
      type: 'askAssist',
      userId: user.user_id,
      playId: body.play_id,
    });
    return { play: expectReply(answer, 'play').play };
  });

  route.authed(`/${P.history}`, historyRequestSchema, async (user, body) => ({
    history: await playLog.history(user.user_id, body.page ?? 1),
  }));

  route.authed(`/${P.gauge}`, gaugeRequestSchema, async (user, body) => ({
    gauge: await playLog.gauge(user.user_id, body.station_id),
  }));

  // A station's settings history, for anyone (signed in or not) [R11-6].
  route.open(`/${P.settingsHistory}`, settingsHistoryRequestSchema, async (body) => {
    const history = await s.settingsHistory.ofStation(body.station_id, body.page ?? 1);
    if (!history) throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    return { settings_history: history };
  });
}
