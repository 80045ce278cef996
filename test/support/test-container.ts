import type { Container } from 'inversify';
import { createAppContainer, type Override } from '../../src/main/container';
import type { ClientConfig } from '../../src/main/client-config';

export const TEST_CLIENT_CONFIG: ClientConfig = {
  target: 'web',
  apiBase: 'http://127.0.0.1:1/api/',
  authorization: '',
  timeoutMs: 1000,
  shopId: 1,
  topPageBaseUrl: '',
  yahooTopUrl: '/',
  feedMode: 'jpg',
  realtimeUrl: 'http://127.0.0.1:1',
  realtimeChannel: 'onkure',
  analyticsIds: { main: '', virtualCrane: '' },
  origin: 'http://127.0.0.1:1',
};

/**
 * The app's real container with any port rebound to a fake:
 * `createTestContainer([TOKENS.PrizeCatalogPort, new InMemoryPrizeCatalog(aTopPage())])`.
 */
export function createTestContainer(...overrides: Override[]): Container {
  return createAppContainer(TEST_CLIENT_CONFIG, overrides);
}
