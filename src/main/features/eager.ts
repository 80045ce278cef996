import type { FeatureModules } from './feature-module';
import { accountFeature } from './account';
import { kujiFeature } from './kuji';
import { moneyFeature } from './money';
import { playFeature } from './play';
import { prizesFeature } from './prizes';
import { supportFeature } from './support';

/** Every feature imported with the container: a server render, a test or another host has them all at once. */
export const EAGER_FEATURES: FeatureModules = {
  play: () => playFeature,
  kuji: () => kujiFeature,
  money: () => moneyFeature,
  prizes: () => prizesFeature,
  account: () => accountFeature,
  support: () => supportFeature,
};
