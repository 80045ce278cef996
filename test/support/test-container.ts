import type { Container } from 'inversify';
import { createAppContainer, type Override } from '../../src/main/container';
import type { ClientConfig } from '../../src/main/client-config';
import { TOKENS } from '../../src/application';
import { FakeRealtime, FakeHlsVideo, FakeRtcVideo, FakeStillFrames } from '../../src/testing';

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
  corporateUrl: 'https://corp.onkure.example/',
};

/**
 * The app's real container with any port rebound to a fake:
 * `createTestContainer([TOKENS.PrizeCatalogPort, new InMemoryPrizeCatalog(aTopPage())])`.
 */
export function createTestContainer(...overrides: Override[]): Container {
  // No socket server, media server or camera runs beside a jsdom test: the live ports start as
  // inert doubles (nothing arrives until a test emits), and a test may rebind them.
  const live: Override[] = [
    [TOKENS.RealtimePort, new FakeRealtime()],
    [TOKENS.StillFramePort, new FakeStillFrames()],
    [TOKENS.RtcVideoPort, new FakeRtcVideo()],
    [TOKENS.HlsVideoPort, new FakeHlsVideo()],
  ];
  return createAppContainer(TEST_CLIENT_CONFIG, [...live, ...overrides]);
}
