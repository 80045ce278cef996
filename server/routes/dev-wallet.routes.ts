import { z } from 'zod/mini';
import { identitySchema } from '../../src/contract';
import type { ApiDeps } from './deps';

/**
 * Development only: a test clock for one player's wallet (e2e of the free TC ends [R11-7] and the
 * daily free play [R11-8], which run on the machine's real clock). `POST /api/dev/wallet/age` with
 * the player's identity and `days` moves that player's open free TC lots and daily free plays
 * `days` earlier — as if that much time had passed for them alone — and runs the lots' notices and
 * expiries as the leader's job would. Registered only with ONKURE_DEV_CALLS=1 (never with
 * NODE_ENV=production); elsewhere 404, like any unknown call.
 */
export const DEV_WALLET_AGE_PATH = 'dev/wallet/age';
const devWalletAgeSchema = z.extend(identitySchema, {
  days: z.int().check(z.positive()).check(z.lte(400)),
});

export async function devWalletRoutes({ config, route, services: s }: ApiDeps): Promise<void> {
  if (!config.devCalls) return;
  route.authed(`/${DEV_WALLET_AGE_PATH}`, devWalletAgeSchema, async (user, body) => {
    await s.store.transaction(async (q) => {
      await q.query(
        `UPDATE tc_free_lots SET expires_at = expires_at - make_interval(days => $2), created_at = created_at - make_interval(days => $2)
          WHERE user_id = $1 AND expired_at IS NULL AND expires_at IS NOT NULL`,
        [user.user_id, body.days],
      );
      // Two uniform shifts: the key (player, day) holds at every row of each statement.
      await q.query('UPDATE daily_free_plays SET jst_day = jst_day - ($2::int + 40000) WHERE user_id = $1', [
        user.user_id,
        body.days,
      ]);
      await q.query('UPDATE daily_free_plays SET jst_day = jst_day + 40000 WHERE user_id = $1', [user.user_id]);
    });
    await s.freeTcExpiry.handleUser(user.user_id);
    return { aged_days: body.days };
  });
}
