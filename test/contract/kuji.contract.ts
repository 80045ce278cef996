import { firstValueFrom } from 'rxjs';
import { expect, it } from 'vitest';
import { TOKENS, type KujiReservationRef } from '../../src/application';
import { KUJI_REMAIN_MAX_SECONDS } from '../../src/contract';
import { decideKujiPoll, kujiRemainingSeconds, showsKujiQueue, type KujiPlayInfo } from '../../src/domain';
import type { AppClient, ContractDriver } from './harness';

const KUJI_PLAY_INFO_FIELDS = [
  'reserve_polling_id',
  'kuji_play_reserve_id',
  'reserve_token',
  'reserve_num',
  'reserve_status',
  'kuji_id',
  'box_id',
  'box_status',
  'reserve_remaintime',
  'play_at',
];

const kuji = (client: AppClient) => client.get(TOKENS.KujiPlayPort);
const ref = (info: KujiPlayInfo): KujiReservationRef => ({
  reserveToken: info.reserve_token,
  kujiId: info.kuji_id!,
  boxId: info.box_id!,
});

/** Kuji play: /play/kuji_status_check, kuji_polling, kuji_reserve_cancel (§7) and the designed kuji_reserve. */
export function kujiContract(driver: () => ContractDriver): void {
  it('[R7-6][R3-8][R4.4-1] POST /play/kuji_reserve: the first on an idle box holds it (firstReserved, 1), the next waits (reserve, 2)', async () => {
    const box = await driver().fixtures.freshKujiBox();
    const [a, b] = await Promise.all([driver().newUser(), driver().newUser()]);
    const first = await firstValueFrom(kuji(a.client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id }));
    for (const field of KUJI_PLAY_INFO_FIELDS) expect(first).toHaveProperty(field);
    expect(first).toMatchObject({
      reserve_status: 'firstReserved',
      reserve_num: 1,
      kuji_id: box.kuji_id,
      box_id: box.box_id,
      box_status: 'onSale',
    });
    expect(first.play_at).not.toBeNull();
    expect(showsKujiQueue(first.reserve_status)).toBe(true);
    const second = await firstValueFrom(kuji(b.client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id }));
    expect(second).toMatchObject({ reserve_status: 'reserve', reserve_num: 2, play_at: null, reserve_remaintime: 0 });
    expect(showsKujiQueue(second.reserve_status)).toBe(false);
    for (const u of [b, a]) await firstValueFrom(kuji(u.client).cancelKujiReservation(ref(u === a ? first : second)));
  });

  it('[R4.4-5] remaining time is the firstReserved maximum minus the seconds since play_at', async () => {
    const box = await driver().fixtures.freshKujiBox();
    const { client } = await driver().newUser();
    const info = await firstValueFrom(kuji(client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id }));
    const expected = kujiRemainingSeconds({
      status: info.reserve_status,
      playAtMs: Date.parse(info.play_at!),
      nowMs: Date.now(),
      limits: KUJI_REMAIN_MAX_SECONDS,
      polling: true,
    })!;
    expect(Math.abs(info.reserve_remaintime - expected)).toBeLessThanOrEqual(1);
    expect(info.reserve_remaintime).toBeLessThanOrEqual(KUJI_REMAIN_MAX_SECONDS.firstReserved);
    expect(info.reserve_remaintime).toBeGreaterThan(KUJI_REMAIN_MAX_SECONDS.firstReserved - 10);
    await firstValueFrom(kuji(client).cancelKujiReservation(ref(info)));
  });

  it("[R7-6] POST /play/kuji_status_check answers the caller's own reservation, null for anyone else", async () => {
    const box = await driver().fixtures.freshKujiBox();
    const [a, b] = await Promise.all([driver().newUser(), driver().newUser()]);
    expect(await firstValueFrom(kuji(a.client).currentKujiReservation())).toBeNull();
    const held = await firstValueFrom(kuji(a.client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id }));
    expect(await firstValueFrom(kuji(a.client).currentKujiReservation())).toMatchObject({
      reserve_token: held.reserve_token,
      kuji_play_reserve_id: held.kuji_play_reserve_id,
    });
    expect(await firstValueFrom(kuji(b.client).currentKujiReservation())).toBeNull();
    await firstValueFrom(kuji(a.client).cancelKujiReservation(ref(held)));
    expect(await firstValueFrom(kuji(a.client).currentKujiReservation())).toBeNull();
  });

  it('[R7-6][R4.4-2] POST /play/kuji_polling follows the reservation; a box that stops selling ends it on the client', async () => {
    const box = await driver().fixtures.freshKujiBox();
    const { client } = await driver().newUser();
    const held = await firstValueFrom(kuji(client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id }));
    const polled = await firstValueFrom(kuji(client).pollKuji(ref(held)));
    expect(polled).toMatchObject({
      reserve_token: held.reserve_token,
      reserve_status: 'firstReserved',
      reserve_num: 1,
      box_status: 'onSale',
    });
    expect(decideKujiPoll(polled)).toMatchObject({
      kind: 'continue',
      showQueue: true,
      remainingSeconds: polled.reserve_remaintime,
    });
    expect(polled.reserve_remaintime).toBeGreaterThan(0);
    await driver().fixtures.setKujiBoxStatus(box.box_id, 'endOfSale');
    const ended = await firstValueFrom(kuji(client).pollKuji(ref(held)));
    expect(ended.box_status).toBe('endOfSale');
    expect(decideKujiPoll(ended)).toMatchObject({
      kind: 'stop',
      reason: 'boxEnded',
    });
    // The box ended: the place ended with it, so there is nothing left to give up.
    expect(ended.reserve_status).toBe('end');
    await expect(firstValueFrom(kuji(client).cancelKujiReservation(ref(held)))).rejects.toMatchObject({ code: 409 });
  });

  it('[R7-6][R4.4-4] POST /play/kuji_reserve_cancel: the holder gives up, the next in line holds the box; a cancelled one polls as ended', async () => {
    const box = await driver().fixtures.freshKujiBox();
    const [a, b] = await Promise.all([driver().newUser(), driver().newUser()]);
    const first = await firstValueFrom(kuji(a.client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id }));
    const second = await firstValueFrom(kuji(b.client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id }));
    const cancelled = await firstValueFrom(kuji(a.client).cancelKujiReservation(ref(first)));
    expect(cancelled).toMatchObject({
      reserve_status: 'cancel',
      reserve_num: 0,
      reserve_remaintime: 0,
      reserve_token: first.reserve_token,
    });
    const after = await firstValueFrom(kuji(a.client).pollKuji(ref(first)));
    expect(decideKujiPoll(after)).toMatchObject({
      kind: 'stop',
      reason: 'statusEnded',
    });
    const promoted = await firstValueFrom(kuji(b.client).pollKuji(ref(second)));
    expect(promoted).toMatchObject({ reserve_status: 'firstReserved', reserve_num: 1 });
    expect(promoted.play_at).not.toBeNull();
    await expect(firstValueFrom(kuji(a.client).cancelKujiReservation(ref(first)))).rejects.toMatchObject({
      name: 'PostResponseError',
      code: 409,
      info: 'このくじの予約はすでに終了しています。',
    });
    await firstValueFrom(kuji(b.client).cancelKujiReservation(ref(second)));
  });

  it("[R7-6] refusals: another user's token is not found (404); one kuji at a time (409); no box is 404; a box not on sale is 409; guests send nothing", async () => {
    const box = await driver().fixtures.freshKujiBox();
    const [a, b] = await Promise.all([driver().newUser(), driver().newUser()]);
    const held = await firstValueFrom(kuji(a.client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id }));
    const notFound = { name: 'PostResponseError', code: 404, info: 'くじの予約が見つかりませんでした。' };
    await expect(firstValueFrom(kuji(b.client).pollKuji(ref(held)))).rejects.toMatchObject(notFound);
    await expect(firstValueFrom(kuji(b.client).cancelKujiReservation(ref(held)))).rejects.toMatchObject(notFound);
    await expect(
      firstValueFrom(kuji(a.client).reserveKuji({ kujiId: box.kuji_id, boxId: box.box_id })),
    ).rejects.toMatchObject({ name: 'PostResponseError', code: 409, info: 'すでに予約中のくじがあります。' });
    await expect(
      firstValueFrom(kuji(b.client).reserveKuji({ kujiId: box.kuji_id, boxId: 2_000_000_000 })),
    ).rejects.toMatchObject({ name: 'PostResponseError', code: 404, info: 'くじが見つかりません。' });
    const closed = await driver().fixtures.freshKujiBox();
    await driver().fixtures.setKujiBoxStatus(closed.box_id, 'ready');
    await expect(
      firstValueFrom(kuji(b.client).reserveKuji({ kujiId: closed.kuji_id, boxId: closed.box_id })),
    ).rejects.toMatchObject({ name: 'PostResponseError', code: 409, info: 'このBOXは現在販売していません。' });
    await expect(firstValueFrom(kuji(driver().client()).currentKujiReservation())).rejects.toMatchObject({
      name: 'NotSignedInError',
    });
    await firstValueFrom(kuji(a.client).cancelKujiReservation(ref(held)));
  });
}
