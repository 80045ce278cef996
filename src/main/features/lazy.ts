import type { FeatureModules } from './feature-module';

/** Each feature loaded (its own chunk) the first time a page or modal needs it: the browser's. */
export const LAZY_FEATURES: FeatureModules = {
  play: async () => (await import('./play')).playFeature,
  kuji: async () => (await import('./kuji')).kujiFeature,
  money: async () => (await import('./money')).moneyFeature,
  prizes: async () => (await import('./prizes')).prizesFeature,
  account: async () => (await import('./account')).accountFeature,
  support: async () => (await import('./support')).supportFeature,
  clips: async () => (await import('./clips')).clipsFeature,
};
