import { AccountRefusal } from '../account/account-errors';
import { z } from 'zod/mini';
import {
  isPayMethodOf,
  mobileItemsQuerySchema,
  payMethodImageKey,
  payMethodsFor,
  PURCHASE_ENDPOINTS,
  purchaseTcRequestSchema,
  providerCallbackSchema,
  setSpendingLimitRequestSchema,
  settlementReportRequestSchema,
  settlementResultRequestSchema,
  spendingLimitRequestSchema,
  TC_HISTORY_PAGE_SIZE,
  tcHistoryRequestSchema,
  type PayMethodId,
} from '../../src/contract';
import { SIGNATURE_HEADER, verifySignature } from '../payment/signature';
import { bonusLabel, PURCHASE_MESSAGES } from '../../src/domain';
import { imageUrl } from '../catalogue/image-url';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import type { ApiDeps } from './deps';

/**
 * §7's two purchase GETs (token in the X-Access-Token header, path user_id = the token's user)
 * and the designed TC purchase and settlement-result calls.
 */
export async function purchaseRoutes({ route, services: s, config }: ApiDeps): Promise<void> {
  const image = imageUrl(config.apiPrefix);
  const payImage = (id: PayMethodId) => image(payMethodImageKey(id));

  // The pay-method list has no query: anything is accepted (the path names the user).
  route.authedGet('/purchase/pay_method_list/:user_id', z.pick(mobileItemsQuerySchema, {}), async () => ({
    list: payMethodsFor(config.target, payImage),
  }));

  route.authedGet('/mobile/items/:user_id', mobileItemsQuerySchema, async (user, query) => {
    if (query.payMethod && !isPayMethodOf(config.target, query.payMethod))
      throw new Refusal(400, 400, PURCHASE_MESSAGES.payMethodUnavailable);
    const products = await s.purchases.products(query.payMethod);
    return {
      list: products.map((p) => ({
        product_id: p.product_id,
        product_name: p.product_name,
        price: p.price,
        toll_tc: p.toll_tc,
        free_tc: p.free_tc,
        bonus_label: bonusLabel(p.free_tc),
        is_sale: p.is_sale ? (1 as const) : (0 as const),
      })),
      registered_birth: (await s.purchases.hasBirth(user.user_id)) ? (1 as const) : (0 as const),
      bonus_item_list: products
        .filter((p) => p.bonus_ticket > 0)
        .map((p) => ({ product_id: p.product_id, item_name: SERVER_MESSAGES.ticketItemName, count: p.bonus_ticket })),
      is_tc_sale: products.some((p) => p.is_sale) ? (1 as const) : (0 as const),
      is_ticket_present: products.some((p) => p.bonus_ticket > 0) ? (1 as const) : (0 as const),
    };
  });

  route.authed(`/${PURCHASE_ENDPOINTS.purchaseTc}`, purchaseTcRequestSchema, async (user, body) => {
    return await s.purchases.purchase(user.user_id, body.purchase);
  });

  route.authed(`/${PURCHASE_ENDPOINTS.settlementResult}`, settlementResultRequestSchema, async (user, body) => {
    return { settlement: await s.purchases.settlement(user.user_id, body.product_settlement_id) };
  });

  route.authed(`/${PURCHASE_ENDPOINTS.settlementReport}`, settlementReportRequestSchema, async (user, body) =>
    s.purchases.claimReport(user.user_id, body.product_settlement_id),
  );

  const limitView = async (userId: number) => {
    const l = await s.purchases.spendingOf(userId);
    return {
      spending_limit: {
        limit_yen: l.own.limitYen,
        pending: l.own.pending
          ? { limit_yen: l.own.pending.limitYen, effective_at: new Date(l.own.pending.effectiveAtMs).toISOString() }
          : null,
        minor_limit_yen: l.minor,
        cap_yen: l.cap,
        spent_yen: l.spent,
        remaining_yen: l.remaining,
      },
    };
  };
  route.authed(`/${PURCHASE_ENDPOINTS.spendingLimit}`, spendingLimitRequestSchema, async (user) =>
    limitView(user.user_id),
  );
  route.authed(`/${PURCHASE_ENDPOINTS.setSpendingLimit}`, setSpendingLimitRequestSchema, async (user, body) => {
    await s.spendingLimits.set(user.user_id, body.spending_limit.limit_yen);
    return limitView(user.user_id);
  });

  route.authed(`/${PURCHASE_ENDPOINTS.tcHistory}`, tcHistoryRequestSchema, async (user, body) => ({
    history: await s.ledger.history(user.user_id, body.page ?? 1, TC_HISTORY_PAGE_SIZE),
    free_lots: await s.ledger.freeLots(user.user_id),
  }));

  // The provider's callback: signed, not a player's call (docs/payments.md) [R10-2].
  route.signed(
    `/${PURCHASE_ENDPOINTS.providerCallback}`,
    providerCallbackSchema,
    (raw, request) => {
      const verified =
        verifySignature(
          config.payment.providerSecret,
          request.headers[SIGNATURE_HEADER],
          raw,
          s.clock.now().getTime(),
        ) === 'ok';
      if (!verified) s.metrics?.providerCallbacks.inc({ outcome: 'bad_signature' });
      return verified;
    },
    async (body) => {
      try {
        const settled = await s.purchases.applyCallback(body);
        s.metrics?.providerCallbacks.inc({ outcome: 'applied' });
        return { settlement: { product_settlement_id: settled.product_settlement_id } };
      } catch (error) {
        s.metrics?.providerCallbacks.inc({ outcome: error instanceof AccountRefusal ? 'refused' : 'error' });
        throw error;
      }
    },
  );
}
