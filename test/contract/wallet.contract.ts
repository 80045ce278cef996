import { expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { arrangePayMethods, isTcInfoConsistent, payMethodOrder, PAY_METHOD_RANKS } from '../../src/domain';
import { forgedClient, once, refusal } from './contract-helpers';
import type { ContractDriver } from './harness';

/** §7 /user/tc, /user/ticket, the two purchase GETs and the designed TC purchase (docs/api/user.md). */
export function walletContract(driver: () => ContractDriver): void {
  it("[R7-6][R1-2] POST /user/tc answers the ledger's balance: tc_all = tc_free + tc_toll", async () => {
    const { identity, client } = await driver().newUser();
    const wallet = client.get(TOKENS.WalletPort);
    expect(await once(wallet.balance())).toEqual({ tc_all: 0, tc_free: 0, tc_toll: 0 });
    await driver().fixtures.creditTc(identity.user_id, 'free', 300);
    await driver().fixtures.creditTc(identity.user_id, 'toll', 1200);
    await driver().fixtures.creditTc(identity.user_id, 'free', 50);
    const tc = await once(wallet.balance());
    expect(tc).toEqual({ tc_all: 1550, tc_free: 350, tc_toll: 1200 });
    expect(isTcInfoConsistent(tc)).toBe(true);
  });

  it('[R7-6][R1-2] POST /user/ticket counts tickets apart from TC', async () => {
    const { identity, client } = await driver().newUser();
    await driver().fixtures.creditTc(identity.user_id, 'free', 100);
    expect(await once(client.get(TOKENS.WalletPort).tickets())).toEqual({ ticket_all: 0 });
    await once(client.get(TOKENS.AccountPort).redeemPresentCode('TICKET3'));
    expect(await once(client.get(TOKENS.WalletPort).tickets())).toEqual({ ticket_all: 3 });
    expect((await once(client.get(TOKENS.WalletPort).balance())).tc_all).toBe(100);
  });

  it('[R7-6][R3-12][R9-6] GET /purchase/pay_method_list/{user_id} lists the web methods in the R9-6 order with ranks 0-3', async () => {
    const wallet = (await driver().newUser()).client.get(TOKENS.WalletPort);
    const methods = await once(wallet.payMethods());
    const order = payMethodOrder('web');
    const kinds = methods.map((m) => m.kind);
    expect(kinds).toEqual([...kinds].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    expect(new Set(kinds)).toEqual(new Set(order));
    for (const m of methods) {
      expect(PAY_METHOD_RANKS).toContain(m.rank_id);
      expect(m.name).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(m.imgUrl).not.toBe('');
    }
    // The service already lists the device wallet and the account-based payment with rank 3.
    expect(
      methods.filter((m) => m.kind === 'device_wallet' || m.kind === 'account_payment').map((m) => m.rank_id),
    ).toEqual([3, 3]);
    const shown = arrangePayMethods(methods, 'web', {
      accountPayment: { name: '', info: '', imgUrl: '' },
      deviceWallet: { name: '', info: '', imgUrl: '' },
      deviceWalletAvailable: true,
    });
    expect(shown.map((m) => m.kind)).toEqual(kinds);
  });

  it('[R7-6][R3-11][R9-7] GET /mobile/items/{user_id}?payMethod lists products with bonus labels; carrier billing only up to 10,000 yen', async () => {
    const { client } = await driver().newUser();
    const wallet = client.get(TOKENS.WalletPort);
    const all = await once(wallet.products());
    expect(all.registeredBirth).toBe(false);
    expect(all.products.length).toBeGreaterThan(0);
    for (const p of all.products) {
      expect(p.toll_tc).toBeGreaterThan(0);
      expect(p.bonusLabel).toBe(p.free_tc > 0 ? `${p.free_tc.toLocaleString('en-US')}ボーナス` : null);
    }
    expect(all.products.some((p) => p.bonusLabel === '2,000ボーナス')).toBe(true);
    expect(all.isTcSale).toBe(all.products.some((p) => p.isSale));
    expect(all.isTicketPresent).toBe(all.bonusItems.length > 0);
    const carrier = await once(wallet.products('carrier_billing_a'));
    expect(carrier.products.every((p) => p.price <= 10_000)).toBe(true);
    expect(carrier.products.length).toBeLessThan(all.products.length);
    await refusal(wallet.products('bitcoin'), 400);
    await once(client.get(TOKENS.AccountPort).setProfile({ birth: '1985-06-15' }));
    expect((await once(wallet.products('credit_card'))).registeredBirth).toBe(true);
  });

  it('[R7-6][R1-2][R3-11][R10-2] POST purchase/tc opens a settlement paid at the provider; it credits toll_tc and free_tc once per request id', async () => {
    const { client } = await driver().newUser();
    const wallet = client.get(TOKENS.WalletPort);
    const product = (await once(wallet.products())).products.find((p) => p.free_tc > 0 && p.price <= 10_000)!;
    const noBirth = await refusal(wallet.purchase(product.productId, 'credit_card'), 409);
    expect(noBirth.info).toBe('ご購入の前に生年月日を登録してください。');
    await once(client.get(TOKENS.AccountPort).setProfile({ birth: '1980-01-01' }));

    const opened = await once(wallet.purchase(product.productId, 'credit_card', 'contract-req-0001'));
    expect(opened.settlement).toMatchObject({
      productId: product.productId,
      payMethod: 'credit_card',
      price: product.price,
      status: 'pending',
      failureInfo: null,
    });
    expect(opened.settlement.paymentUrl).toMatch(/^\/provider\/pay\//);
    expect(opened.tc.tc_all).toBe(0);
    await driver().fixtures.payAtProvider(opened.settlement.paymentUrl!);
    const bought = await once(wallet.purchase(product.productId, 'credit_card', 'contract-req-0001'));
    expect(bought.settlement.productSettlementId).toBe(opened.settlement.productSettlementId);
    expect(bought.settlement).toMatchObject({ status: 'completed', paymentUrl: null });
    expect(bought.tc).toEqual({
      tc_all: product.toll_tc + product.free_tc,
      tc_free: product.free_tc,
      tc_toll: product.toll_tc,
    });
    expect(await once(wallet.balance())).toEqual(bought.tc);
    expect(await once(wallet.settlement(bought.settlement.productSettlementId))).toEqual(bought.settlement);
    expect(await once(wallet.settlementReport(bought.settlement.productSettlementId))).toEqual({
      buyTc: { price: product.price },
      conversion: true,
    });
    expect(await once(wallet.settlementReport(bought.settlement.productSettlementId))).toEqual({
      buyTc: null,
      conversion: false,
    });
    const history = await once(wallet.tcHistory(1));
    expect(history.entries[0]).toMatchObject({
      reason: 'purchase',
      freeDelta: product.free_tc,
      tollDelta: product.toll_tc,
    });
    expect((await once(wallet.setSpendingLimit(product.price))).limitYen).toBe(product.price);
    expect(await once(wallet.spendingLimit())).toMatchObject({
      capYen: product.price,
      spentYen: product.price,
      remainingYen: 0,
    });
    const other = (await driver().newUser()).client.get(TOKENS.WalletPort);
    await refusal(other.settlement(bought.settlement.productSettlementId), 404);
    await refusal(wallet.purchase(9999, 'credit_card'), 404);
    await refusal(wallet.purchase(product.productId, 'bitcoin'), 400);
  });

  it('[R7-6][R3-1] the wallet calls refuse a forged identity with 401, GETs included', async () => {
    const { identity } = await driver().newUser();
    const forged = forgedClient(driver(), identity.user_id).get(TOKENS.WalletPort);
    await refusal(forged.balance(), 401);
    await refusal(forged.tickets(), 401);
    await refusal(forged.payMethods(), 401);
    await refusal(forged.products(), 401);
    await refusal(forged.purchase(1, 'credit_card'), 401);
  });
}
