import type { Container } from 'inversify';
import { AccountPayment, BuyTc, PlayHistory, SpendingLimitSetting, TcUsedHistory, TOKENS } from '../../application';
import { KyWallet } from '../../infrastructure';
import type { FeatureDeps, FeatureModule } from './feature-module';

/** Money in: buying TC, the account payment, the TC and play histories, the spending limit. */
export const moneyFeature: FeatureModule = {
  // The play history reads the plays through the play port.
  requires: ['play'],
  bind(container: Container, { http, session }: FeatureDeps) {
    container.bind(TOKENS.WalletPort).toConstantValue(new KyWallet(http, session));
    container.bind(TOKENS.BuyTc).to(BuyTc).inTransientScope();
    container.bind(TOKENS.AccountPayment).to(AccountPayment).inTransientScope();
    container.bind(TOKENS.TcUsedHistory).to(TcUsedHistory).inTransientScope();
    container.bind(TOKENS.PlayHistory).to(PlayHistory).inTransientScope();
    container.bind(TOKENS.SpendingLimitSetting).to(SpendingLimitSetting).inTransientScope();
  },
};
