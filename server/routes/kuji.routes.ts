import {
  kujiDrawRequestSchema,
  kujiFairnessRequestSchema,
  kujiPollingRequestSchema,
  kujiReserveCancelRequestSchema,
  kujiReserveRequestSchema,
  kujiStatusCheckRequestSchema,
} from '../../src/contract';
import { DOMAIN_MESSAGES } from '../../src/domain';
import { atKuji, kujiRefusal } from '../http/room-answers';
import { kujiFairness } from '../kuji/kuji-fairness';
import { Refusal } from '../play/refusal';
import type { ApiDeps } from './deps';

/**
 * Kuji play calls: /play/kuji_* of spec §7 plus the designed kuji_reserve and kuji_draw. A place,
 * a cancel and a draw are events of the box's room (docs/kuji.md); the answers are read after.
 */
export async function kujiRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const kuji = s.kujiReservations;
  const notFound = () => new Refusal(404, 404, DOMAIN_MESSAGES.kujiReserveNotFound);
  /** The caller's reservation by its token (ended ones too); 404 when there is none. */
  const reservation = async (userId: number, body: { reserve_token: string; kuji_id: number; box_id: number }) => {
    const info = await kuji.byToken(userId, body.reserve_token, body.kuji_id, body.box_id);
    if (!info) throw notFound();
    return info;
  };
  /** A reservation the box does not hold active: unknown (404), or ended (409). */
  const inactive = (userId: number, body: { reserve_token: string; kuji_id: number; box_id: number }) => async () =>
    (await kuji.byToken(userId, body.reserve_token, body.kuji_id, body.box_id))
      ? kujiRefusal('reservationEnded')
      : notFound();

  route.authed('/play/kuji_status_check', kujiStatusCheckRequestSchema, async (user) => {
    return { play_info: await kuji.statusCheck(user.user_id) };
  });

  // Joins a box's line: its holder at once when nobody holds it. 404 unknown kuji/box; 409 box
  // not on sale, out of its period, sold out, or a kuji place already held.
  route.authed('/play/kuji_reserve', kujiReserveRequestSchema, async (user, body) => {
    await atKuji(s.rooms.send('kuji', body.box_id, { type: 'join', userId: user.user_id, kujiId: body.kuji_id }));
    const info = await kuji.statusCheck(user.user_id);
    if (!info) throw new Error(`the kuji place of user ${user.user_id} vanished`);
    return { play_info: info };
  });

  route.authed('/play/kuji_polling', kujiPollingRequestSchema, async (user, body) => {
    return { polling: { play_info: await reservation(user.user_id, body) } };
  });

  // Gives up the caller's place; when the caller held the box, the next in line holds it.
  route.authed('/play/kuji_reserve_cancel', kujiReserveCancelRequestSchema, async (user, body) => {
    const cancel = { type: 'cancel', userId: user.user_id, token: body.reserve_token, kujiId: body.kuji_id } as const;
    await atKuji(s.rooms.send('kuji', body.box_id, cancel), inactive(user.user_id, body));
    return { play_info: await reservation(user.user_id, body) };
  });

  // The draw (designed, docs/kuji.md): the holder draws 1, 3, 5, 10 or all tickets left.
  route.authed('/play/kuji_draw', kujiDrawRequestSchema, async (user, body) => {
    const answer = await atKuji(
      s.rooms.send('kuji', body.box_id, {
        type: 'draw',
        userId: user.user_id,
        token: body.reserve_token,
        kujiId: body.kuji_id,
        count: body.count,
        requestId: body.request_id,
      }),
      inactive(user.user_id, body),
    );
    if (answer.kind !== 'drawn') throw new Error(`a kuji box answered ${answer.kind} to a draw`);
    const { draw } = answer;
    const first = draw.tickets[0];
    if (draw.replayed === 0 && first) {
      // The prizes wait in the prize box (docs/delivery.md): the player is told, the storage clock starts.
      s.deliveries.prizeWon(user.user_id, first.prize_name);
      s.prizeStorage.poke();
    }
    return { draw, play_info: await reservation(user.user_id, body) };
  });

  // A box's fairness, open to anyone: the commitment and the draws; the seed once the box ended.
  // The box's room does what fell due first (the kuji's sale ended: its seed is published).
  route.open('/contents/kuji_fairness', kujiFairnessRequestSchema, async (body) => {
    await atKuji(s.rooms.send('kuji', body.box_id, { type: 'look' })).catch((error: unknown) => {
      // A box that does not exist has nothing to show: the fairness read says so in its own words.
      if (!(error instanceof Refusal && error.status === 404)) throw error;
    });
    return { fairness: await kujiFairness(s.store, body.box_id) };
  });
}
