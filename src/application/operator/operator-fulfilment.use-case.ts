import { inject, injectable } from 'inversify';
import type { DeliveryStatus } from '../../domain';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { OperatorApiPort, OperatorDelivery } from './ports/operator-api.port';

export type FulfilmentActionName = 'ship' | 'cancel';

/** The delivery queue (right `fulfilment`): filter by status, mark shipped, cancel with refund. */
@injectable()
export class OperatorFulfilment extends OperatorScreen<readonly OperatorDelivery[], FulfilmentActionName> {
  private filter: DeliveryStatus | null = 'requested';

  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: OperatorApiPort,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super(session, []);
  }

  get statusFilter(): DeliveryStatus | null {
    return this.filter;
  }

  /** Reads the queue, optionally with another status filter (null: every status). */
  refresh(status: DeliveryStatus | null = this.filter): Promise<void> {
    this.filter = status;
    return this.load(() => this.api.deliveries(status));
  }

  async ship(deliveryId: number, trackingNumber: string): Promise<boolean> {
    const done = await this.act('ship', async () => {
      await this.api.ship(deliveryId, trackingNumber.trim());
      return { delivery_id: deliveryId };
    });
    if (done) await this.refresh();
    return done !== null;
  }

  async cancel(deliveryId: number, reason: string): Promise<boolean> {
    const done = await this.act('cancel', async () => {
      await this.api.cancelDelivery(deliveryId, reason.trim());
      return { delivery_id: deliveryId };
    });
    if (done) await this.refresh();
    return done !== null;
  }
}
