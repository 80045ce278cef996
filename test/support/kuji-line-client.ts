import { kujiReserveResponseSchema } from '../../src/contract';
import type { KujiPlayInfo } from '../../src/domain';
import type { Clock } from '../../server/clock';
import { SqlKujiBoxStore } from '../../server/kuji/kuji-box-store';
import { kujiKind, type KujiBoxEvents } from '../../server/kuji/kuji-kind';
import { RoomRegistry } from '../../server/rooms/room-registry';
import { Ledger } from '../../server/wallet/ledger';
import type { TestServer } from './test-server';
import type { TestUser } from './users';

/** A draw's count as the contract takes it. */
export type DrawCount = 1 | 3 | 5 | 10 | 'all';

/**
 * A kuji line's calls as a player makes them (in-process inject): reserve a box, poll the line, draw.
 * `server` is read on each call, so a test may make the client before its server starts.
 */
export function kujiLineClient(server: () => TestServer) {
  const post = (url: string, body: object) =>
    server().server.app.inject({ method: 'POST', url: `/api/${url}`, payload: body });
  const as = (u: TestUser, extra: object = {}) => ({ user_id: u.user_id, access_token: u.access_token, ...extra });
  const reserve = async (u: TestUser, box: { kuji_id: number; box_id: number }) =>
    kujiReserveResponseSchema.parse((await post('play/kuji_reserve', as(u, box))).json()).play_info;
  const poll = async (u: TestUser, info: KujiPlayInfo) =>
    (
      await post(
        'play/kuji_polling',
        as(u, { reserve_token: info.reserve_token, kuji_id: info.kuji_id, box_id: info.box_id }),
      )
    ).json<{ polling: { play_info: KujiPlayInfo } }>().polling.play_info;
  const draw = (u: TestUser, info: KujiPlayInfo, count: DrawCount, requestId: string) =>
    post(
      'play/kuji_draw',
      as(u, {
        reserve_token: info.reserve_token,
        kuji_id: info.kuji_id,
        box_id: info.box_id,
        count,
        request_id: requestId,
      }),
    );
  return { post, as, reserve, poll, draw };
}

/**
 * The kuji boxes' rooms of a fresh process over the test server's store, as at a restart: only
 * the kuji kind, with its own clock and events. `start()` resumes every box from the store alone;
 * `close()` when done.
 */
export function restartedKujiRooms(t: TestServer, clock: Clock, events: KujiBoxEvents) {
  const store = t.server.store();
  const ledger = new Ledger(store, clock);
  const boxes = new SqlKujiBoxStore(store, ledger, () => '', t.config.kujiTimeLimits, t.config.prizeStorageDays);
  return new RoomRegistry({ kuji: kujiKind({ store: boxes, events: () => events }) }, { clock, log: () => undefined });
}
