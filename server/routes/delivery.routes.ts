import {
  DELIVERY_ENDPOINTS as D,
  deliveryChangeRequestSchema,
  deliveryListRequestSchema,
  deliveryQuoteRequestSchema,
  deliveryRequestSchema,
  deliveryTicketRequestSchema,
  operatorDeliveriesSchema,
  operatorDeliveryCancelSchema,
  operatorDeliveryShipSchema,
  operatorPrizeGrantSchema,
} from '../../src/contract';
import { OPERATOR_ENDPOINTS as O } from '../../src/contract/operator.schema';
import { AccountRefusal } from '../account/account-errors';
import { SERVER_MESSAGES } from '../messages';
import type { ApiDeps } from './deps';
import { rowSubject } from '../http/route';

/**
 * Prizes out (docs/delivery.md, docs/api/user.md "Delivery"): the player's fee quote, request,
 * history, change and free-delivery ticket; the operator's fulfilment list, ship, cancel and grant.
 */
export async function deliveryRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const d = s.deliveries;

  route.authed(`/${D.quote}`, deliveryQuoteRequestSchema, async (user, body) => ({
    quote: await d.quote(user.user_id, body.delivery_quote.play_history_ids),
  }));

  route.authed(`/${D.request}`, deliveryRequestSchema, async (user, body) =>
    d.request(user.user_id, body.delivery_request),
  );

  route.authed(`/${D.list}`, deliveryListRequestSchema, async (user) => ({ list: await d.list(user.user_id) }));

  route.authed(`/${D.change}`, deliveryChangeRequestSchema, async (user, body) => ({
    delivery: await d.change(user.user_id, body.delivery_change),
  }));

  route.authed(`/${D.ticket}`, deliveryTicketRequestSchema, async (user) => ({
    delivery_ticket: await d.ticket(user.user_id),
  }));

  // A delivery's status and tracking number, before and after an operator's change (R10-9).
  const onDelivery = rowSubject<{ delivery_id: number }>(
    s.store,
    'fulfilment',
    'SELECT delivery_status, prize_contact_number AS tracking_number FROM delivery_requests WHERE delivery_id = $1',
    (body) => body.delivery_id,
  );

  route.operator(`/${O.deliveries}`, { right: 'fulfilment', read: true }, operatorDeliveriesSchema, async (body) => ({
    list: await d.fulfilmentList(body),
  }));

  route.operator(`/${O.deliveryShip}`, onDelivery, operatorDeliveryShipSchema, async (body) => ({
    delivery: await d.ship(body.delivery_id, body.tracking_number),
  }));

  route.operator(`/${O.deliveryCancel}`, onDelivery, operatorDeliveryCancelSchema, async (body) =>
    d.cancel(body.delivery_id, body.reason),
  );

  route.operator(`/${O.prizeGrant}`, { right: 'fulfilment' }, operatorPrizeGrantSchema, async (body) => {
    const exists = await s.store.query('SELECT 1 FROM users WHERE user_id = $1 AND deleted_at IS NULL', [body.user_id]);
    if (exists.length === 0) throw new AccountRefusal(404, SERVER_MESSAGES.userNotFound);
    const id = await s.prizes.recordWin(body.user_id, {
      prize_kind: body.prize_kind,
      prize_type: body.prize_type,
      product_name: body.product_name,
      kuji_name: body.kuji_name ?? null,
      prize_count: body.prize_count,
      add_delivery_days: body.add_delivery_days,
      is_reservation_delivery: body.is_reservation_delivery === 1,
      digital_url: body.digital_url ?? null,
    });
    d.prizeWon(body.user_id, body.product_name);
    s.prizeStorage.poke();
    return { play_history_id: id };
  });
}
