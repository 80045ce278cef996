import type { Container } from 'inversify';
import { AddressBook, DeliveryHistory, DeliveryRequestFlow, PrizeBox, TOKENS } from '../../application';
import { KyPrizeDelivery } from '../../infrastructure';
import type { FeatureDeps, FeatureModule } from './feature-module';

/** Prizes out: the prize box, delivery requests with their fee, the delivery history, addresses. */
export const prizesFeature: FeatureModule = {
  bind(container: Container, { http }: FeatureDeps) {
    container.bind(TOKENS.PrizeDeliveryPort).toConstantValue(new KyPrizeDelivery(http));
    container.bind(TOKENS.PrizeBox).to(PrizeBox).inTransientScope();
    container.bind(TOKENS.DeliveryRequestFlow).to(DeliveryRequestFlow).inTransientScope();
    container.bind(TOKENS.DeliveryHistory).to(DeliveryHistory).inTransientScope();
    container.bind(TOKENS.AddressBook).to(AddressBook).inTransientScope();
  },
};
