import type { Container } from 'inversify';
import { FEATURES } from '../application';
import type { ClientConfig } from './client-config';
import { browserHost, createContainerWith, type HostEnvironment, type Override } from './container-core';
import { EAGER_FEATURES } from './features/eager';

export {
  browserHost,
  createAnalytics,
  createContainerWith,
  startAppAnalytics,
  type HostEnvironment,
  type Override,
} from './container-core';

/**
 * Builds one app instance's container with every feature bound at once: a server render, a test or
 * another host (the browser's entry loads features as pages need them, src/main/browser.tsx). Call
 * it once per app (and, with SSR, once per request). `overrides` rebind any token to another
 * implementation, e.g. a scripted double from onkure/testing.
 */
export function createAppContainer(
  config: ClientConfig,
  overrides: readonly Override[] = [],
  host: HostEnvironment = browserHost(),
): Container {
  const { container, features } = createContainerWith(EAGER_FEATURES, config, overrides, host);
  for (const feature of FEATURES) features.loadNow(feature);
  return container;
}
