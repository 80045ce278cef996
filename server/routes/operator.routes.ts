import {
  OPERATOR_ENDPOINTS as O,
  operatorArmStrengthSchema,
  operatorStationSettingsSchema,
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
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import type { OperatorPrincipal } from '../operator/operator-accounts';
import { OPERATOR_ROLE_RIGHTS, type OperatorEvent } from '../../src/domain';
import { atKuji, operateStation } from '../http/room-answers';
import type { ApiDeps } from './deps';
import { rowSubject } from '../http/route';
import { stationAnswer } from '../operator/station-answer';

/**
 * The operator API (docs/play.md): station statuses, faults, restocking, prize changes, arm
 * strength and the play log. Signed-in operators whose role allows each call (RouteBuilder.operator,
 * R10-9), never a user login; every change written to the audit log.
 */
export async function operatorRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const { playLog } = s;
  const operate = (stationId: number, event: OperatorEvent) => operateStation(s.rooms, stationId, event);

  // ---- signing in (R10-9) ----------------------------------------------------------------------
  // Attempts are counted per login and per client address BEFORE the password is checked, so any
  // number of concurrent guesses gets at most the limit checked.
  // In the store, so they hold for every instance (docs/security.md "Limits across instances").
  const perLogin = s.attempts.limit({ name: 'operator:login', max: 10, windowMs: 15 * 60_000 });
  const perClient = s.attempts.limit({ name: 'operator:client', max: 50, windowMs: 15 * 60_000 });
  const who = (operator: OperatorPrincipal) => ({
    login: operator.login,
    display_name: operator.displayName,
    role: operator.role,
    rights: [...OPERATOR_ROLE_RIGHTS[operator.role]],
  });
  route.open(`/${O.login}`, operatorLoginSchema, async (body, _user, { request }) => {
    const loginKey = `operator:${body.login.toLowerCase()}`;
    // Refused by the login's limit, the client's attempt still counts (as before: a client guessing
    // at a locked login uses up its own attempts too).
    if (
      !(await perClient.tryAcquire(`operator:${request.ip}`)).allowed ||
      !(await perLogin.tryAcquire(loginKey)).allowed
    )
      throw new Refusal(429, 429, SERVER_MESSAGES.operatorLoginLimited);
    const signedIn = await s.operators.login(body.login, body.password);
    if (!signedIn) throw new Refusal(401, 401, SERVER_MESSAGES.operatorLoginFailed);
    await perLogin.reset(loginKey);
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

  const answer = (stationId: number, refunded: number | null = null, pending = false) =>
    stationAnswer(s.store, stationId, refunded, pending);

  // What each call changes, read before and after it for the audit log (R10-9).
  const onStation = rowSubject<{ station_id: number }>(
    s.store,
    'floor',
    `SELECT station_status, stock, prize_name, prize_shape, arm_strength, play_price, settings_version, pending_settings
       FROM stations WHERE station_id = $1`,
    (body) => body.station_id,
  );
  const onBox = rowSubject<{ box_id: number }>(
    s.store,
    'kuji',
    `SELECT b.box_status, coalesce((SELECT jsonb_object_agg(p.rank, p.quantity) FROM kuji_box_prizes p WHERE p.box_id = b.box_id), '{}') AS stock
       FROM kuji_boxes b WHERE b.box_id = $1`,
    (body) => body.box_id,
  );

  // Maintenance statuses and 'change' end the play on the machine (refunded exactly once when
  // unfinished) and the line; 'open' hands the turn to the head of the line again.
  route.operator(`/${O.stationStatus}`, onStation, operatorStationStatusSchema, async (body) => {
    const operated = await operate(body.station_id, { type: 'setStatus', status: body.station_status });
    return answer(body.station_id, operated.refunded_play_id);
  });

  // A fault on the machine: the play is refunded once, the station goes to malfunction.
  route.operator(`/${O.fault}`, onStation, operatorFaultSchema, async (body) => {
    const operated = await operate(body.station_id, { type: 'setStatus', status: 'malfunction' });
    return answer(body.station_id, operated.refunded_play_id);
  });

  route.operator(`/${O.restock}`, onStation, operatorRestockSchema, async (body) => {
    await operate(body.station_id, { type: 'restock', stock: body.stock });
    return answer(body.station_id);
  });

  // Settings [R11-6]: in force at once between runs; while a player is in a run of plays they wait
  // for it to end (the answer says `settings_pending: 1`). Each change in force is published in
  // the station's settings history with its reason and the operator's login.
  route.operator(`/${O.armStrength}`, onStation, operatorArmStrengthSchema, async (body, { operator }) => {
    const operated = await operate(body.station_id, {
      type: 'setArmStrength',
      armStrength: body.arm_strength,
      reason: body.reason ?? 'adjustment',
      operator: operator.login,
    });
    return answer(body.station_id, null, operated.settings_pending);
  });
  route.operator(`/${O.stationSettings}`, onStation, operatorStationSettingsSchema, async (body, { operator }) => {
    const operated = await operate(body.station_id, {
      type: 'changeSettings',
      patch: {
        ...(body.arm_strength === undefined ? {} : { armStrength: body.arm_strength }),
        ...(body.play_price === undefined ? {} : { playPrice: body.play_price }),
        ...(body.assist_misses === undefined ? {} : { assistMisses: body.assist_misses }),
      },
      reason: body.reason,
      operator: operator.login,
    });
    return answer(body.station_id, null, operated.settings_pending);
  });

  // A new prize: the line ends with 'change' [R4.3-3]; the station gets a new setting, a fresh
  // field, the name, shape and stock. While a player is in a run it waits for the run to end [R11-6].
  route.operator(`/${O.changePrize}`, onStation, operatorChangePrizeSchema, async (body, { operator }) => {
    const prize = { prizeName: body.prize_name, prizeShape: body.prize_shape, stock: body.stock };
    const operated = await operate(body.station_id, {
      type: 'changePrize',
      prize: body.arm_strength === undefined ? prize : { ...prize, armStrength: body.arm_strength },
      reason: body.reason ?? 'prize_change',
      operator: operator.login,
    });
    return answer(body.station_id, operated.refunded_play_id, operated.settings_pending);
  });

  // On sale fixes the box's ticket order and publishes its commitment (409 once its seed is out);
  // any other status ends the box: its seed is published and its line is over (play_end).
  route.operator(`/${O.kujiBoxStatus}`, onBox, operatorKujiBoxStatusSchema, async (body) => {
    const answer = await atKuji(s.rooms.send('kuji', body.box_id, { type: 'setStatus', status: body.box_status }));
    if (answer.kind !== 'box') throw new Error(`a kuji box answered ${answer.kind} to a status`);
    return { box: { kuji_id: answer.kujiId, box_id: answer.boxId, box_status: answer.status } };
  });

  // The stock rank by rank, before the box opens (409 once its order is fixed; 404 for a rank it lacks).
  route.operator(`/${O.kujiBoxStock}`, onBox, operatorKujiBoxStockSchema, async (body) => {
    await atKuji(s.rooms.send('kuji', body.box_id, { type: 'setStock', prizes: body.prizes }));
    const prizes = await s.store.query<{ rank: string; quantity: number; remaining: number }>(
      'SELECT rank, quantity, remaining FROM kuji_box_prizes WHERE box_id = $1 ORDER BY sort, rank',
      [body.box_id],
    );
    return { box: { box_id: body.box_id, prizes } };
  });

  route.operator(`/${O.playLog}`, { right: 'floor', read: true }, operatorPlayLogSchema, async (body) => ({
    list: await playLog.ofStation(body.station_id ?? null, body.limit ?? 100),
  }));
}
