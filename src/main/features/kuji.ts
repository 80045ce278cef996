import type { Container } from 'inversify';
import { KujiBoxPlay, TOKENS } from '../../application';
import { KyKujiPlay } from '../../infrastructure';
import type { FeatureDeps, FeatureModule } from './feature-module';

/** Online kuji: a box's line, draws and reveals. */
export const kujiFeature: FeatureModule = {
  bind(container: Container, { http }: FeatureDeps) {
    container.bind(TOKENS.KujiPlayPort).toConstantValue(new KyKujiPlay(http));
    container.bind(TOKENS.KujiBoxPlay).to(KujiBoxPlay).inTransientScope();
  },
};
