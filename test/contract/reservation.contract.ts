import { firstValueFrom } from 'rxjs';
import { expect, it } from 'vitest';
import { TOKENS, type ReserveOutcome, type StationReserveInfo, type VisitOutcome } from '../../src/application';
import { DOMAIN_MESSAGES, isReserving } from '../../src/domain';
import type { AppClient, ContractDriver } from './harness';

const RECORD_FIELDS = [
  'station_status',
  'visit_count',
  'reserve_count',
  'reserve_status',
  'reserve_token',
  'reserve_num',
  'reserve_time',
  'play_reserve_id',
  'playing',
  'viewable',
  'request_flag',
  'request_type',
];
const PLAY_INFO_FIELDS = [
  'reserve_polling_id',
  'station_id',
  'station_setting_id',
  'reserve_status',
  'is_reserve',
  'reserve_num',
  'reserve_token',
  'reserve_remaintime',
  'station_status',
  'designated_type',
  'station_data',
];

function reserved(outcome: ReserveOutcome) {
  if (outcome.kind !== 'reserved') throw new Error(`expected a reservation, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function watching(outcome: VisitOutcome): StationReserveInfo {
  if (outcome.kind !== 'watching') throw new Error(`expected to watch, got ${JSON.stringify(outcome)}`);
  return outcome.info;
}

const port = (client: AppClient) => client.get(TOKENS.ReservationPort);

/** Station reservation: /v2/play/* (§7 and the designed visit and reserve) and /contents/playing. */
export function reservationContract(driver: () => ContractDriver): void {
  /** Players with TC for one play (a reservation is refused to a player who cannot pay). */
  const users = async (n: number) =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const user = await driver().newUser();
        await driver().fixtures.grantFreeTc(user.identity.user_id, 10_000);
        return user;
      }),
    );
  const player = async () => (await users(1))[0]!;

  it('[R7-6][R3-5] POST /v2/play/get_reserve: nothing held answers none; naming a station answers its record', async () => {
    const [stationId] = await driver().fixtures.playableStationIds('normal');
    const { client } = await player();
    expect(await firstValueFrom(port(client).currentReservation())).toEqual({ kind: 'none' });
    const fetched = await firstValueFrom(port(client).currentReservation({ stationId: stationId! }));
    if (fetched.kind !== 'reservation') throw new Error(fetched.kind);
    for (const field of RECORD_FIELDS) expect(fetched.info).toHaveProperty(field);
    expect(fetched.info).toMatchObject({
      station_id: stationId,
      station_status: 'open',
      reserve_status: null,
      reserve_num: 0,
      viewable: 1,
      reserve_token: '',
    });
    expect(fetched.info.station_setting_id).toBeGreaterThan(0);
  });

  it('[R7-6] POST /v2/play/visit starts watching; POST /v2/play/visit_cancel stops it, and a second cancel is 404', async () => {
    const [stationId] = await driver().fixtures.playableStationIds('normal');
    const [a, b] = await users(2);
    const first = watching(await firstValueFrom(port(a!.client).visit(stationId!)));
    const both = watching(await firstValueFrom(port(b!.client).visit(stationId!)));
    expect(both.visit_count).toBe(first.visit_count + 1);
    const left = await firstValueFrom(port(a!.client).cancelVisit(both.station_setting_id));
    expect(left).toEqual({ station_setting_id: both.station_setting_id, visit_count: both.visit_count - 1 });
    await expect(firstValueFrom(port(a!.client).cancelVisit(both.station_setting_id))).rejects.toMatchObject({
      name: 'PostResponseError',
      code: 404,
      info: '視聴中のステーションが見つかりません。',
    });
    await firstValueFrom(port(b!.client).cancelVisit(both.station_setting_id));
  });

  it('[R7-6][R3-5][R3-7] POST /v2/play/reserve joins the line in order; a cancellation ahead moves everyone up', async () => {
    const [stationId] = await driver().fixtures.playableStationIds('normal');
    const [a, b, c] = await users(3);
    const ra = reserved(await firstValueFrom(port(a!.client).reserve(stationId!, { shopId: 1 })));
    const rb = reserved(await firstValueFrom(port(b!.client).reserve(stationId!)));
    const rc = reserved(await firstValueFrom(port(c!.client).reserve(stationId!)));
    expect([rb.info.reserve_num, rc.info.reserve_num]).toEqual([ra.info.reserve_num + 1, ra.info.reserve_num + 2]);
    expect(rc.info.reserve_count).toBe(rc.info.reserve_num);
    // The first in line at an idle station has the turn at once: the confirm window runs (docs/play.md).
    expect(ra.info).toMatchObject({ station_id: stationId, reserve_status: 'playTransition', reserve_time: 15 });
    expect([rb.info.reserve_status, rc.info.reserve_status]).toEqual(['reserve', 'reserve']);
    for (const field of PLAY_INFO_FIELDS) expect(ra.play).toHaveProperty(field);
    expect(ra.play).toMatchObject({
      station_id: stationId,
      reserve_status: 'playTransition',
      is_reserve: true,
      reserve_token: ra.info.reserve_token,
      station_setting_id: ra.info.station_setting_id,
    });
    expect(ra.play.station_data.station_id).toBe(stationId);
    expect(isReserving(ra.play)).toBe(true);
    expect(ra.info.reserve_token).not.toBe(rb.info.reserve_token);

    await firstValueFrom(
      port(a!.client).cancelReservation({ stationSettingId: ra.info.station_setting_id, shopId: 1 }),
    );
    const nowB = await firstValueFrom(port(b!.client).currentReservation());
    const nowC = await firstValueFrom(port(c!.client).currentReservation({ stationId: stationId! }));
    // A gave up the turn: it passes to B.
    expect(nowB).toMatchObject({
      kind: 'reservation',
      info: { station_id: stationId, reserve_num: rb.info.reserve_num - 1, reserve_status: 'playTransition' },
    });
    expect(nowC).toMatchObject({
      kind: 'reservation',
      info: { reserve_num: rc.info.reserve_num - 1, reserve_count: rc.info.reserve_count - 1 },
    });
    for (const u of [b!, c!])
      await firstValueFrom(
        port(u.client).cancelReservation({ stationSettingId: ra.info.station_setting_id, shopId: 1 }),
      );
  });

  it("[R7-6][R3-7] POST /contents/playing lists only the caller's own reservation", async () => {
    const [stationId] = await driver().fixtures.playableStationIds('normal');
    const [a, b] = await users(2);
    const ra = reserved(await firstValueFrom(port(a!.client).reserve(stationId!)));
    const plays = await firstValueFrom(port(a!.client).currentPlays());
    expect(plays).toHaveLength(1);
    expect(plays[0]).toMatchObject({ station_id: stationId, reserve_token: ra.info.reserve_token, is_reserve: true });
    expect(await firstValueFrom(port(b!.client).currentPlays())).toEqual([]);
    // B does not see A's place either: B's record of the station has no reservation of B's.
    expect(await firstValueFrom(port(b!.client).currentReservation({ stationId: stationId! }))).toMatchObject({
      kind: 'reservation',
      info: { reserve_status: null, reserve_token: '', reserve_num: 0 },
    });
    await firstValueFrom(
      port(a!.client).cancelReservation({ stationSettingId: ra.info.station_setting_id, shopId: 1 }),
    );
  });

  it("[R7-6] POST /v2/play/reserve_cancel: user B cannot cancel A's reservation (404); A can, and then holds nothing", async () => {
    const [stationId] = await driver().fixtures.playableStationIds('normal');
    const [a, b] = await users(2);
    const ra = reserved(await firstValueFrom(port(a!.client).reserve(stationId!)));
    await expect(
      firstValueFrom(port(b!.client).cancelReservation({ stationSettingId: ra.info.station_setting_id, shopId: 1 })),
    ).rejects.toMatchObject({ name: 'PostResponseError', code: 404, info: '予約が見つかりません。' });
    expect(await firstValueFrom(port(a!.client).currentReservation())).toMatchObject({
      kind: 'reservation',
      info: { reserve_status: 'playTransition' },
    });
    const cancelled = await firstValueFrom(
      port(a!.client).cancelReservation({ stationSettingId: ra.info.station_setting_id, shopId: 1 }),
    );
    expect(cancelled).toEqual({
      play_reserve_id: ra.info.play_reserve_id,
      station_setting_id: ra.info.station_setting_id,
      reserve_status: 'cancel',
    });
    expect(await firstValueFrom(port(a!.client).currentReservation())).toEqual({ kind: 'none' });
    expect(await firstValueFrom(port(a!.client).currentPlays())).toEqual([]);
  });

  it('a player who cannot pay for one play is refused before taking a place (402, in Japanese), and holds nothing', async () => {
    const [stationId] = await driver().fixtures.playableStationIds('normal');
    const { client } = await driver().newUser();
    await expect(firstValueFrom(port(client).reserve(stationId!))).rejects.toMatchObject({
      name: 'PostResponseError',
      code: 402,
      info: expect.stringMatching(/^TCが不足しています（必要: [\d,]+、保有: 0）。$/),
    });
    expect(await firstValueFrom(port(client).currentReservation())).toEqual({ kind: 'none' });
  });

  it('[R7-6] refusals: a guest cannot reserve (nothing sent); one place per user (409); an unknown station is 404', async () => {
    const [first, second] = await driver().fixtures.playableStationIds('normal');
    await expect(firstValueFrom(port(driver().client()).reserve(first!))).rejects.toMatchObject({
      name: 'NotSignedInError',
    });
    await expect(firstValueFrom(port(driver().client()).currentReservation())).rejects.toMatchObject({
      name: 'NotSignedInError',
    });
    const { client } = await player();
    const r = reserved(await firstValueFrom(port(client).reserve(first!)));
    await expect(firstValueFrom(port(client).reserve(first!))).rejects.toMatchObject({
      name: 'PostResponseError',
      code: 409,
      info: 'すでにこのステーションを予約しています。',
    });
    await expect(firstValueFrom(port(client).reserve(second!))).rejects.toMatchObject({
      name: 'PostResponseError',
      code: 409,
      info: 'ほかのステーションを予約中です。予約を取り消してからお試しください。',
    });
    await expect(firstValueFrom(port(client).visit(2_000_000_000))).rejects.toMatchObject({
      name: 'PostResponseError',
      code: 404,
      info: 'ステーションが見つかりません。',
    });
    await firstValueFrom(port(client).cancelReservation({ stationSettingId: r.info.station_setting_id, shopId: 1 }));
  });

  it('[R4.3-6][R4.3-4] error 531 on the reserve fetch marks that station as maintenance; the place ended with it', async () => {
    const normal = await driver().fixtures.playableStationIds('normal');
    const stationId = normal[normal.length - 1]!;
    const { client } = await player();
    const r = reserved(await firstValueFrom(port(client).reserve(stationId)));
    await driver().fixtures.setStationStatus(stationId, 'maintenance');
    try {
      const named = await firstValueFrom(port(client).currentReservation({ stationId }));
      expect(named).toEqual({
        kind: 'stationMaintenance',
        stationId,
        message: 'このステーションは現在メンテナンス中です。',
      });
      // The station went down and ended every place in the same step: the player holds none now.
      expect(await firstValueFrom(port(client).currentReservation())).toMatchObject({ kind: 'none' });
      const other = await player();
      expect(await firstValueFrom(port(other.client).reserve(stationId))).toMatchObject({
        kind: 'stationMaintenance',
        stationId,
      });
      expect(await firstValueFrom(port(other.client).visit(stationId))).toMatchObject({
        kind: 'stationMaintenance',
        stationId,
      });
    } finally {
      await driver().fixtures.setStationStatus(stationId, 'open');
    }
    expect(r.info.station_id).toBe(stationId);
  });

  it('[R8-2][R6-3] 569 on a VIP station until the user bought 100,000 TC in 30 days; the outcome carries the popup', async () => {
    const [vip] = await driver().fixtures.playableStationIds('vip');
    const { identity, client } = await player();
    const refused = await firstValueFrom(port(client).visit(vip!));
    expect(refused).toEqual({
      kind: 'vipRefused',
      outcome: {
        code: 569,
        title: 'こちらのステーションの閲覧・プレイはVIP対象のお客様限定です。',
        text: DOMAIN_MESSAGES.vipOnlyText,
        button: { label: 'VIP対象になる', action: 'becomeVip' },
        then: 'stay',
      },
    });
    expect(await firstValueFrom(port(client).currentReservation({ stationId: vip! }))).toMatchObject({
      kind: 'reservation',
      info: { viewable: 0 },
    });
    await driver().fixtures.creditPurchasedTc(identity.user_id, 99_999);
    expect(await firstValueFrom(port(client).reserve(vip!))).toMatchObject({
      kind: 'vipRefused',
      outcome: { code: 569 },
    });
    await driver().fixtures.creditPurchasedTc(identity.user_id, 1);
    expect(watching(await firstValueFrom(port(client).visit(vip!)))).toMatchObject({ station_id: vip, viewable: 1 });
    const r = reserved(await firstValueFrom(port(client).reserve(vip!)));
    await firstValueFrom(port(client).cancelReservation({ stationSettingId: r.info.station_setting_id, shopId: 1 }));
  });

  it("[R8-3][R6-4] 570 once this week's VIP prize is won: watching still works, reserving does not", async () => {
    const [vip] = await driver().fixtures.playableStationIds('vip');
    const { identity, client } = await player();
    await driver().fixtures.creditPurchasedTc(identity.user_id, 100_000);
    await driver().fixtures.recordVipWin(identity.user_id, vip!);
    expect((await firstValueFrom(port(client).visit(vip!))).kind).toBe('watching');
    expect(await firstValueFrom(port(client).reserve(vip!))).toEqual({
      kind: 'vipRefused',
      outcome: {
        code: 570,
        title: '今週のVIP景品を獲得済みです',
        text: DOMAIN_MESSAGES.vipWeeklyLimitText,
        button: { label: 'とじる', action: 'close' },
        then: 'stay',
      },
    });
  });

  it('[R8-4][R6-5] 571 when another user holds the exclusive VIP station; the popup returns to the list', async () => {
    const [exclusive] = await driver().fixtures.playableStationIds('exclusive');
    const [a, b] = await users(2);
    for (const u of [a!, b!]) await driver().fixtures.creditPurchasedTc(u.identity.user_id, 100_000);
    const ra = reserved(await firstValueFrom(port(a!.client).reserve(exclusive!)));
    const refused = await firstValueFrom(port(b!.client).reserve(exclusive!));
    expect(refused).toMatchObject({
      kind: 'vipRefused',
      outcome: { code: 571, title: '他のお客様がVIP独占台をプレイ中です', then: 'returnToList' },
    });
    await firstValueFrom(
      port(a!.client).cancelReservation({ stationSettingId: ra.info.station_setting_id, shopId: 1 }),
    );
    const rb = reserved(await firstValueFrom(port(b!.client).reserve(exclusive!)));
    await firstValueFrom(
      port(b!.client).cancelReservation({ stationSettingId: rb.info.station_setting_id, shopId: 1 }),
    );
  });
}
