import { z } from 'zod/mini';
import { OPERATOR_ROLES } from '../../src/domain';
import { SERVER_MESSAGES } from '../messages';
import { OperatorAccountError } from '../operator/operator-accounts';
import { atStation } from '../http/room-answers';
import { Refusal } from '../play/refusal';
import type { ApiDeps } from './deps';

/** The development-only call that makes an operator account (e2e, demos): `POST /api/dev/operator_account`. */
export const DEV_OPERATOR_ACCOUNT_PATH = 'dev/operator_account';

/**
 * The development-only stand-in for a cabinet's chute sensor (e2e of the console's stray prizes):
 * the station's room hears a `prize` as its agent's frame would bring it. `POST /api/dev/chute_prize`.
 */
export const DEV_CHUTE_PRIZE_PATH = 'dev/chute_prize';
const devChutePrizeSchema = z.strictObject({
  station_id: z.int().check(z.positive()),
  play_id: z.nullable(z.int().check(z.positive())),
});

const devOperatorAccountSchema = z.strictObject({
  login: z.string().check(z.minLength(1)).check(z.maxLength(64)),
  password: z.string().check(z.minLength(1)).check(z.maxLength(256)),
  role: z.enum(OPERATOR_ROLES),
  display_name: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(40))),
});

/**
 * Operator accounts made over HTTP, and the chute stand-in, for the e2e tests and local demos only: registered only when
 * development calls are on (ONKURE_DEV_CALLS=1, never with NODE_ENV=production), so a deployment
 * answers 404 (fail closed). Production accounts come from `npm run operator -- add` only.
 */
export async function devOperatorRoutes({ config, route, services: s }: ApiDeps): Promise<void> {
  if (!config.devCalls) return;
  route.open(`/${DEV_OPERATOR_ACCOUNT_PATH}`, devOperatorAccountSchema, async (body) => {
    try {
      await s.operators.add(body.login, body.display_name ?? body.login, body.role, body.password);
    } catch (error) {
      // The account rules speak English (the `npm run operator` command's words): the answer says
      // in Japanese what failed, with the rule as written (the contract fuzz found it English only).
      if (error instanceof OperatorAccountError)
        throw new Refusal(400, 400, SERVER_MESSAGES.operatorAccountRefused(error.message));
      throw error;
    }
    return { operator: { login: body.login, role: body.role } };
  });
  route.open(`/${DEV_CHUTE_PRIZE_PATH}`, devChutePrizeSchema, async (body) => {
    const event = { type: 'machinePrize', playId: body.play_id, prizeId: null } as const;
    await atStation(body.station_id, s.rooms.send('station', body.station_id, event));
    return { seen: true };
  });
}
