import { jstIsoDate } from '../../src/domain';
import {
  OPERATOR_ENDPOINTS as O,
  operatorBroadcastSchema,
  operatorEmergencyEndSchema,
  operatorEndPlaySchema,
  operatorAssistAnswerSchema,
  operatorFloorSchema,
  operatorKujiBoxesSchema,
  operatorNumbersSchema,
  operatorReconciliationSchema,
  operatorPauseSchema,
  operatorRemoveFromLineSchema,
  operatorServiceStateSchema,
  operatorStrayPrizeSchema,
  operatorUserMessageSchema,
  operatorUserSchema,
  operatorUserStatusSchema,
} from '../../src/contract/operator.schema';
import { AccountRefusal } from '../account/account-errors';
import { recordWonPrize } from '../delivery/won-prizes';
import { rowSubject } from '../http/route';
import { SERVER_MESSAGES } from '../messages';
import { OperatorFloor } from '../operator/floor';
import { RESERVING_SQL } from '../play/reservation-sql';
import { stationAnswer } from '../operator/station-answer';
import { stationNumbers } from '../operator/numbers';
import { operateStation } from '../http/room-answers';
import type { ApiDeps } from './deps';

/**
 * The console's calls (docs/operator-console.md): the floor and its actions (end a play with a
 * refund, take a player out of a line, pause), service messages and the emergency maintenance,
 * users (look up, message, suspend), the numbers per station per day, and the kuji boxes. Each
 * names the right it needs (R10-9); every change is audited with its subject before and after.
 */
export async function operatorConsoleRoutes({ route, services: s, config }: ApiDeps): Promise<void> {
  const floor = new OperatorFloor(s.store, s.clock, config.apiPrefix);
  const messages = s.serviceMessages;

  // ---- the floor -------------------------------------------------------------------------------
  route.operator(`/${O.floor}`, { right: 'floor', read: true }, operatorFloorSchema, async () => ({
    stations: await floor.stations(),
  }));

  // A station's line and play, read before and after each floor action for the audit log.
  const onFloor = rowSubject<{ station_id: number }>(
    s.store,
    'floor',
    `SELECT s.station_status, s.stock, s.paused,
            (SELECT jsonb_agg(jsonb_build_object('user_id', r.user_id, 'reserve_status', r.reserve_status) ORDER BY r.play_reserve_id)
               FROM station_reservations r
              WHERE r.station_id = s.station_id AND r.reserve_status IN ${RESERVING_SQL}) AS line,
            (SELECT jsonb_build_object('play_id', p.play_id, 'user_id', p.user_id, 'phase', p.phase, 'result', p.result)
               FROM plays p WHERE p.station_id = s.station_id ORDER BY p.play_id DESC LIMIT 1) AS last_play
       FROM stations s WHERE s.station_id = $1`,
    (body) => body.station_id,
  );
  route.operator(`/${O.endPlay}`, onFloor, operatorEndPlaySchema, async (body) => {
    const { refunded_play_id } = await operateStation(s.rooms, body.station_id, {
      type: 'endPlay',
      playId: body.play_id,
    });
    s.realtime.floorChanged(body.station_id);
    return stationAnswer(s.store, body.station_id, refunded_play_id);
  });

  // A player's staff assist answered [R11-9]: done or declined; the player's continue window runs again.
  route.operator(`/${O.assistAnswer}`, onFloor, operatorAssistAnswerSchema, async (body, { operator }) => {
    await operateStation(s.rooms, body.station_id, {
      type: 'answerAssist',
      playId: body.play_id,
      answer: body.answer,
      operator: operator.login,
    });
    s.realtime.floorChanged(body.station_id);
    return { assist: { station_id: body.station_id, play_id: body.play_id, answer: body.answer } };
  });

  route.operator(`/${O.removeFromLine}`, onFloor, operatorRemoveFromLineSchema, async (body) => {
    await operateStation(s.rooms, body.station_id, { type: 'removeFromLine', userId: body.user_id });
    s.realtime.floorChanged(body.station_id);
    return { removed: true };
  });

  route.operator(`/${O.pause}`, onFloor, operatorPauseSchema, async (body) => {
    await operateStation(s.rooms, body.station_id, { type: 'pause', paused: body.paused });
    s.realtime.floorChanged(body.station_id);
    return { station: { station_id: body.station_id, paused: body.paused } };
  });

  // A stray prize (docs/agent-protocol.md, "prize"): given to the player of the play the machine
  // named, or put back. The settlement and the prize box entry are one transaction; the stock then
  // goes down through the station's room, which holds it.
  const stray = rowSubject<{ stray_id: number }>(
    s.store,
    'floor',
    'SELECT station_id, play_id, prize_id, seen_at, settled_at, settled_by, settlement, awarded_prize_id FROM stray_prizes WHERE stray_id = $1',
    (body) => body.stray_id,
  );
  route.operator(`/${O.strayPrize}`, stray, operatorStrayPrizeSchema, async (body, { operator }) => {
    const now = s.clock.now();
    const settled = await s.store.transaction(async (tx) => {
      const [row] = await tx.query<{ play_id: number | null }>(
        `UPDATE stray_prizes SET settled_at = $3, settled_by = $4, settlement = $5
          WHERE stray_id = $1 AND station_id = $2 AND settled_at IS NULL RETURNING play_id`,
        [
          body.stray_id,
          body.station_id,
          now.toISOString(),
          operator.login,
          body.settle === 'award' ? 'awarded' : 'returned',
        ],
      );
      if (!row) throw new AccountRefusal(409, SERVER_MESSAGES.strayPrizeSettled);
      if (body.settle === 'return') return { userId: null, prizeName: null, id: null };
      const [play] = await tx.query<{ user_id: number; prize_name: string; image_key: string | null }>(
        `SELECT p.user_id, s.prize_name, s.image_key FROM plays p JOIN stations s ON s.station_id = p.station_id
           JOIN users u ON u.user_id = p.user_id
          WHERE p.play_id = $1 AND p.station_id = $2 AND u.deleted_at IS NULL`,
        [row.play_id, body.station_id],
      );
      if (!play) throw new AccountRefusal(409, SERVER_MESSAGES.strayPrizeNoPlayer);
      const id = await recordWonPrize(
        tx,
        {
          userId: play.user_id,
          stationId: body.station_id,
          prizeKind: 'crane',
          productName: play.prize_name,
          imageKey: play.image_key,
        },
        config.prizeStorageDays,
        now,
      );
      await tx.query('UPDATE stray_prizes SET awarded_prize_id = $2 WHERE stray_id = $1', [body.stray_id, id]);
      return { userId: play.user_id, prizeName: play.prize_name, id };
    });
    if (settled.userId !== null) {
      await operateStation(s.rooms, body.station_id, { type: 'prizeOut' });
      s.deliveries.prizeWon(settled.userId, settled.prizeName!);
      s.prizeStorage.poke();
    }
    s.realtime.floorChanged(body.station_id);
    return {
      stray_id: body.stray_id,
      settlement: body.settle === 'award' ? ('awarded' as const) : ('returned' as const),
      play_history_id: settled.id,
    };
  });

  // ---- service messages ------------------------------------------------------------------------
  const emergencySubject = { subject: async () => messages.emergency() };
  route.operator(
    `/${O.broadcast}`,
    { right: 'broadcast', ...emergencySubject },
    operatorBroadcastSchema,
    async (body, { operator }) => ({ delivered: await messages.broadcast(body.code, body.info, operator) }),
  );
  route.operator(
    `/${O.emergencyEnd}`,
    { right: 'broadcast', ...emergencySubject },
    operatorEmergencyEndSchema,
    async (_body, { operator }) => {
      await messages.endEmergency(operator);
      return { emergency: await messages.emergency() };
    },
  );
  route.operator(`/${O.serviceState}`, { right: 'session', read: true }, operatorServiceStateSchema, async () => ({
    emergency: await messages.emergency(),
  }));

  // ---- users -----------------------------------------------------------------------------------
  const onUser = rowSubject<{ user_id: number }>(
    s.store,
    'users',
    'SELECT status FROM users WHERE user_id = $1',
    (body) => body.user_id,
  );
  route.operator(`/${O.user}`, { right: 'users', read: true }, operatorUserSchema, async (body) => ({
    user: await messages.user(body.user_id),
  }));
  route.operator(`/${O.userMessage}`, { right: 'users' }, operatorUserMessageSchema, async (body) => ({
    delivered: await messages.toUser(body.user_id, body.code, body.info),
  }));
  route.operator(`/${O.userStatus}`, onUser, operatorUserStatusSchema, async (body) => ({
    user: await messages.setSuspended(body.user_id, body.suspended),
  }));

  // ---- numbers ---------------------------------------------------------------------------------
  route.operator(`/${O.numbers}`, { right: 'numbers', read: true }, operatorNumbersSchema, async (body) => ({
    rows: await stationNumbers(s.store, body.from, body.to),
  }));

  // ---- money (admins: right `money`; docs/operations.md "Money reconciliation") ------------------
  // The kept run of a day (yesterday's by default), or a new run of it with `run: 1` (audited).
  route.operator(`/${O.reconciliation}`, { right: 'money' }, operatorReconciliationSchema, async (body) => {
    const yesterday = jstIsoDate(s.clock.now().getTime() - 24 * 60 * 60_000);
    const day = body.day ?? yesterday;
    if (day > jstIsoDate(s.clock.now().getTime()))
      throw new AccountRefusal(400, SERVER_MESSAGES.reconciliationFutureDay);
    if (body.run === 1) await s.reconciliation.run(day);
    const kept = await s.reconciliation.stored(day);
    return {
      runs: await s.reconciliation.runs(31),
      day,
      ran_at: kept?.ranAt ?? null,
      report: kept?.report ?? null,
    };
  });

  // ---- kuji boxes ------------------------------------------------------------------------------
  route.operator(`/${O.kujiBoxes}`, { right: 'kuji', read: true }, operatorKujiBoxesSchema, async () => {
    const boxes = await s.store.query<{
      kuji_id: number;
      kuji_name: string;
      box_id: number;
      box_status: string;
      prizes: { rank: string; quantity: number; remaining: number }[] | null;
      commitment: string | null;
      seed: string | null;
    }>(
      `SELECT k.kuji_id, k.kuji_name, b.box_id, b.box_status,
              (SELECT jsonb_agg(jsonb_build_object('rank', p.rank, 'quantity', p.quantity, 'remaining', p.remaining) ORDER BY p.sort, p.rank)
                 FROM kuji_box_prizes p WHERE p.box_id = b.box_id) AS prizes,
              f.commitment,
              CASE WHEN f.revealed_at IS NOT NULL THEN f.seed END AS seed
         FROM kuji_boxes b JOIN kuji k ON k.kuji_id = b.kuji_id
         LEFT JOIN kuji_box_fairness f ON f.box_id = b.box_id
        WHERE b.box_status <> 'deleted'
        ORDER BY k.sort, k.kuji_id, b.box_no`,
    );
    return { boxes: boxes.map((b) => ({ ...b, prizes: b.prizes ?? [] })) };
  });
}
