import { kujiReserveResponseSchema } from '../../src/contract';
import type { KujiPlayInfo } from '../../src/domain';
import type { TestServer } from './test-server';
import type { TestUser } from './users';

/**
 * A kuji line's calls as a player makes them (in-process inject): reserve a box, poll the line.
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
  return { post, as, reserve, poll };
}
