import type { Feature } from '../../application';
import type { FeatureModule, FeatureModules } from './feature-module';
import { accountFeature } from './account';
import { clipsFeature } from './clips';
import { kujiFeature } from './kuji';
import { moneyFeature } from './money';
import { playFeature } from './play';
import { prizesFeature } from './prizes';
import { supportFeature } from './support';

/** Each feature's module (src/main/features/<feature>.ts). */
export const FEATURE_MODULES: { readonly [F in Feature]: FeatureModule } = {
  play: playFeature,
  kuji: kujiFeature,
  money: moneyFeature,
  prizes: prizesFeature,
  account: accountFeature,
  support: supportFeature,
  clips: clipsFeature,
};

/** Every feature imported with the container: a server render, a test or another host has them all at once. */
export const EAGER_FEATURES: FeatureModules = {
  play: () => FEATURE_MODULES.play,
  kuji: () => FEATURE_MODULES.kuji,
  money: () => FEATURE_MODULES.money,
  prizes: () => FEATURE_MODULES.prizes,
  account: () => FEATURE_MODULES.account,
  support: () => FEATURE_MODULES.support,
  clips: () => FEATURE_MODULES.clips,
};
