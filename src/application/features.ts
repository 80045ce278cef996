/**
 * The app's features: groups of use-cases (and the adapters only they use) that a page or a modal
 * needs and the top page does not. A browser loads each one the first time a page or modal asks
 * for it, so the code a first visit downloads before the page is live holds only the browsing core
 * (issue 27, docs/performance.md). A container made for a server render or a test has them all.
 */
export const FEATURES = ['play', 'kuji', 'money', 'prizes', 'account', 'support', 'clips'] as const;
export type Feature = (typeof FEATURES)[number];

/** Loads features into the app's container. */
export interface Features {
  /** Resolves once every named feature's use-cases can be taken from the container. */
  load(features: readonly Feature[]): Promise<void>;
  /** Whether a feature's use-cases can be taken from the container now. */
  loaded(feature: Feature): boolean;
}
