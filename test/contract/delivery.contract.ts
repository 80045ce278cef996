import { expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { groupPrizes, groupDeliveryDetail, UNSENT_PLACEHOLDER } from '../../src/domain';
import { anAddress, forgedClient, once, refusal } from './contract-helpers';
import type { ContractDriver } from './harness';

/** §7 /user/item and /user/get_delivery: the player's won prizes and their delivery. */
export function deliveryContract(driver: () => ContractDriver): void {
  it("[R7-6][R3-13] POST /user/item lists the player's won prizes, newest first, each with its delivery_status", async () => {
    const { identity, client } = await driver().newUser();
    const delivery = client.get(TOKENS.PrizeDeliveryPort);
    expect(await once(delivery.wonPrizes())).toEqual([]);
    const crane = await driver().fixtures.grantPrize(identity.user_id, {
      prize_kind: 'crane',
      product_name: 'ねこまる ぬいぐるみ',
    });
    const kuji = await driver().fixtures.grantPrize(identity.user_id, {
      prize_kind: 'kuji',
      product_name: 'A賞 フィギュア',
      kuji_name: 'ねこまるくじ',
    });
    const list = await once(delivery.wonPrizes());
    expect(list.map((p) => p.play_history_id)).toEqual([kuji, crane]);
    expect(list[0]).toMatchObject({
      prize_kind: 'kuji',
      product_name: 'A賞 フィギュア',
      kuji_name: 'ねこまるくじ',
      prize_count: 1,
      delivery_status: 'not_requested',
    });
    expect(list[1]).toMatchObject({ prize_kind: 'crane', kuji_name: '', delivery_status: 'not_requested' });
    // Another player sees none of them.
    expect(await once((await driver().newUser()).client.get(TOKENS.PrizeDeliveryPort).wonPrizes())).toEqual([]);
  });

  it("[R7-6][R3-15][R3-14] POST /user/get_delivery: an unsent prize ships to the main address and shows '-' as its date", async () => {
    const { identity, client } = await driver().newUser();
    const id = await driver().fixtures.grantPrize(identity.user_id, {
      prize_kind: 'kuji',
      product_name: 'B賞 アクリルスタンド',
      kuji_name: 'ぱんだ日和くじ',
    });
    const before = await once(client.get(TOKENS.PrizeDeliveryPort).delivery(id));
    expect(before).toMatchObject({ play_history_id: id, delivery_status: 'not_requested', address: null });
    expect(before.unsent).toEqual({ prize_contact_number: '', prize_shipmented_at: UNSENT_PLACEHOLDER });

    await once(client.get(TOKENS.AccountPort).registerAddress(anAddress()));
    const withAddress = await once(client.get(TOKENS.PrizeDeliveryPort).delivery(id));
    expect(withAddress.address).toMatchObject({
      last_name: '山田',
      first_name: '花子',
      zip: '150-0041',
      address1: '東京都',
    });
    const groups = groupDeliveryDetail([withAddress.prize]);
    expect(groups).toEqual([
      {
        kuji_name: 'ぱんだ日和くじ',
        prizes: [
          expect.objectContaining({
            product_name: 'B賞 アクリルスタンド',
            prize_count: 1,
            add_delivery_days: 0,
            is_reservation_delivery: 0,
          }),
        ],
      },
    ]);
  });

  it('[R7-6][R3-13][R3-15][R4.5-1] POST /user/get_delivery of a shipped prize carries its tracking number and date', async () => {
    const { identity, client } = await driver().newUser();
    await once(client.get(TOKENS.AccountPort).registerAddress(anAddress()));
    const id = await driver().fixtures.grantPrize(identity.user_id, {
      prize_kind: 'crane',
      product_name: 'ねこまる クッション',
    });
    await driver().fixtures.shipPrize(identity.user_id, id, '1234-5678-9012');
    const shipped = await once(client.get(TOKENS.PrizeDeliveryPort).delivery(id));
    expect(shipped.delivery_status).toBe('shipped');
    expect(shipped.unsent.prize_contact_number).toBe('1234-5678-9012');
    expect(shipped.unsent.prize_shipmented_at).not.toBe(UNSENT_PLACEHOLDER);
    expect(shipped.address).toMatchObject({ last_name: '山田', zip: '150-0041' });
    const list = await once(client.get(TOKENS.PrizeDeliveryPort).wonPrizes());
    // The prize box's lists: a shipped prize is in "after".
    expect(groupPrizes(list).after.map((p) => p.play_history_id)).toEqual([id]);
  });

  it("[R7-6][R3-1] user B cannot read user A's prize delivery (404); a forged identity is refused (401)", async () => {
    const a = await driver().newUser();
    const id = await driver().fixtures.grantPrize(a.identity.user_id, {
      prize_kind: 'crane',
      product_name: 'ねこまる キーホルダー',
    });
    const b = await driver().newUser();
    expect((await refusal(b.client.get(TOKENS.PrizeDeliveryPort).delivery(id), 404)).info).toBe(
      '景品が見つかりません。',
    );
    await refusal(forgedClient(driver(), a.identity.user_id).get(TOKENS.PrizeDeliveryPort).delivery(id), 401);
    await refusal(forgedClient(driver(), a.identity.user_id).get(TOKENS.PrizeDeliveryPort).wonPrizes(), 401);
    await refusal(a.client.get(TOKENS.PrizeDeliveryPort).delivery(0), 400);
  });
}
