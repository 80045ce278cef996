import 'reflect-metadata';
import { Container } from 'inversify';
import { BrowseTopPage, TOKENS, type AppConfig, type Token } from '../application';
import { KyServiceApi } from '../infrastructure';
import type { ClientConfig } from './client-config';

/** A replacement for one binding: `[TOKENS.PrizeCatalogPort, fakeApi]`. */
export type Override = readonly [Token<unknown>, unknown];

/**
 * Builds one app instance's container: the composition root, the only place adapters are bound.
 * Call it once per app (and, with SSR, once per request). `overrides` rebind any port to another
 * implementation, e.g. an in-memory fake in tests.
 */
export function createAppContainer(config: ClientConfig, overrides: readonly Override[] = []): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  const appConfig: AppConfig = { target: config.target, shopId: config.shopId, topPageBaseUrl: config.topPageBaseUrl };
  container.bind(TOKENS.AppConfig).toConstantValue(appConfig);
  container.bind(TOKENS.PrizeCatalogPort).toConstantValue(
    new KyServiceApi({ apiBase: config.apiBase, authorization: config.authorization, timeoutMs: config.timeoutMs }),
  );
  container.bind(TOKENS.BrowseTopPage).to(BrowseTopPage);
  for (const [token, value] of overrides) container.rebind(token).toConstantValue(value);
  return container;
}
