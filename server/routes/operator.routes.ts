import {
  OPERATOR_ENDPOINTS as O,
  operatorArmStrengthSchema,
  operatorChangePrizeSchema,
  operatorFaultSchema,
  operatorPlayLogSchema,
  operatorRestockSchema,
  operatorKujiBoxStatusSchema,
  operatorKujiBoxStockSchema,
  operatorStationStatusSchema,
  operatorAuditSchema,
  operatorLoginSchema,
  operatorSessionSchema,
} from '../../src/contract/operator.schema';
import { AttemptLimiter } from '../auth/attempt-limiter';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import type { OperatorPrincipal } from '../operator/operator-accounts';
import { KUJI_ENDED_BOX_STATUSES, OPERATOR_ROLE_RIGHTS } from '../../src/domain';
import type { ApiDeps } from './deps';
import { rowSubject } from '../http/route';
import { stationAnswer } from '../operator/station-answer';

/**
 * The operator API (docs/play.md): station statuses, faults, restocking, prize changes, arm
 * strength and the play log. Signed-in operators whose role allows each call (RouteBuilder.operator,
 * R10-9), never a user login; every change written to the audit log.
 */
export async function operatorRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const { rooms, playLog } = s;

  // ---- signing in (R10-9) ----------------------------------------------------------------------
  // Attempts are counted per login and per client address BEFORE the password is checked, so any
  // number of concurrent guesses gets at most the limit checked.
  const perLogin = new AttemptLimiter(10, 15 * 60_000, s.clock);
  const perClient = new AttemptLimiter(50, 15 * 60_000, s.clock);
  const who = (operator: OperatorPrincipal) => ({
    login: operator.login,
    display_name: operator.displayName,
    role: operator.role,
    rights: [...OPERATOR_ROLE_RIGHTS[operator.role]],
  });
  route.open(`/${O.login}`, operatorLoginSchema, async (body, _user, { request }) => {
    const loginKey = `operator:${body.login.toLowerCase()}`;
    if (!perClient.tryAcquire(`operator:${request.ip}`) || !perLogin.tryAcquire(loginKey))
      throw new Refusal(429, 429, SERVER_MESSAGES.operatorLoginLimited);
    const signedIn = await s.operators.login(body.login, body.password);
    if (!signedIn) throw new Refusal(401, 401, SERVER_MESSAGES.operatorLoginFailed);
    perLogin.reset(loginKey);
    await s.operators.audit(signedIn.principal, O.login, { login: body.login }, undefined, undefined);
    return {
      session: { token: signedIn.token, expires_at: signedIn.expiresAt.toISOString() },
      operator: who(signedIn.principal),
    };
  });
  route.operator(`/${O.me}`, { right: 'session', read: true }, operatorSessionSchema, async (_body, { operator }) => ({
    operator: who(operator),
  }));
  route.operator(`/${O.logout}`, { right: 'session' }, operatorSessionSchema, async (_body, { request }) => {
    const header = request.headers['x-operator-authorization'];
    if (typeof header === 'string' && header.startsWith('Bearer ')) await s.operators.logout(header.slice(7));
    return {};
  });
  route.operator(`/${O.audit}`, { right: 'audit', read: true }, operatorAuditSchema, async (body) => ({
    list: await s.operators.auditLog({ limit: body.limit ?? 100, operatorLogin: body.operator_login }),
  }));

  const answer = (stationId: number, refunded: number | null = null) => stationAnswer(s.store, stationId, refunded);

  // What each call changes, read before and after it for the audit log (R10-9).
  const onStation = rowSubject<{ station_id: number }>(
    s.store,
    'floor',
    'SELECT station_status, stock, prize_name, prize_shape, arm_strength FROM stations WHERE station_id = $1',
    (body) => body.station_id,
  );
  const onBox = rowSubject<{ box_id: number }>(
    s.store,
    'kuji',
    `SELECT b.box_status, coalesce((SELECT jsonb_object_agg(p.rank, p.quantity) FROM kuji_box_prizes p WHERE p.box_id = b.box_id), '{}') AS stock
       FROM kuji_boxes b WHERE b.box_id = $1`,
    (body) => body.box_id,
  );

  route.operator(`/${O.stationStatus}`, onStation, operatorStationStatusSchema, async (body) =>
    answer(body.station_id, (await rooms.setStationStatus(body.station_id, body.station_status)).refunded_play_id),
  );

  route.operator(`/${O.fault}`, onStation, operatorFaultSchema, async (body) =>
    answer(body.station_id, (await rooms.fault(body.station_id)).refunded_play_id),
  );

  route.operator(`/${O.restock}`, onStation, operatorRestockSchema, async (body) => {
    await rooms.restock(body.station_id, body.stock);
    return answer(body.station_id);
  });

  route.operator(`/${O.armStrength}`, onStation, operatorArmStrengthSchema, async (body) => {
    await rooms.setArmStrength(body.station_id, body.arm_strength);
    return answer(body.station_id);
  });

  route.operator(`/${O.changePrize}`, onStation, operatorChangePrizeSchema, async (body) =>
    answer(
      body.station_id,
      (
        await rooms.changePrize(body.station_id, {
          prizeName: body.prize_name,
          prizeShape: body.prize_shape,
          stock: body.stock,
          armStrength: body.arm_strength,
        })
      ).refunded_play_id,
    ),
  );

  route.operator(`/${O.kujiBoxStatus}`, onBox, operatorKujiBoxStatusSchema, async (body) => {
    if (body.box_status === 'onSale') await s.kujiDraws.assertCanOpen(body.box_id);
    const box = await s.kujiReservations.setBoxStatus(body.box_id, body.box_status);
    // Opening fixes the ticket order and publishes its commitment; ending publishes the seed.
    await s.store.transaction(async (tx) => {
      if (box.box_status === 'onSale') {
        await s.kujiDraws.ensureOpen(tx, box.box_id);
      } else {
        await s.kujiDraws.reveal(tx, box.box_id);
        // The line of an ended box is over: nobody waits on, or is handed, a box that cannot be drawn.
        await s.kujiDraws.endLine(tx, box.box_id);
      }
    });
    if (KUJI_ENDED_BOX_STATUSES.includes(box.box_status)) s.realtime.kujiBoxEnded(box.kuji_id, box.box_id);
    return { box };
  });

  route.operator(`/${O.kujiBoxStock}`, onBox, operatorKujiBoxStockSchema, async (body) => ({
    box: await s.kujiDraws.setStock(body.box_id, body.prizes),
  }));

  route.operator(`/${O.playLog}`, { right: 'floor', read: true }, operatorPlayLogSchema, async (body) => ({
    list: await playLog.ofStation(body.station_id ?? null, body.limit ?? 100),
  }));
}
