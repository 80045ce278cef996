import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { PURCHASE_ENDPOINTS } from '../../src/contract';
import type { ServerConfig } from '../config';
import { providerPages } from '../payment/provider/provider-pages';
import { shopReturnPage } from '../payment/return-page';
import { SIGNATURE_HEADER } from '../payment/signature';
import type { Services } from '../services';
import type { ServerParts } from './server-parts';

/** Where the payment provider's callbacks arrive (authenticated by their signature, not the app's header). */
export const providerCallbackUrl = (config: ServerConfig): string =>
  `${config.apiPrefix}/${PURCHASE_ENDPOINTS.providerCallback}`;

/** The simulated payment provider's hosted pages and the shop's return page (docs/payments.md). */
export const providerPlugin: FastifyPluginAsync<{ parts: ServerParts }> = async (app, { parts }) => {
  await providerPages(app, () => (parts.store() && parts.services ? parts.services.provider : null));
  await shopReturnPage(app);
};

/**
 * The simulated provider delivers its signed callbacks to this server's own callback address, as a
 * real provider would over HTTP; each answer's status tells it whether to send again.
 */
export function startProviderCallbacks(app: FastifyInstance, config: ServerConfig, services: Services): void {
  services.provider.start(async (body, signature) => {
    const answer = await app.inject({
      method: 'POST',
      url: providerCallbackUrl(config),
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
      payload: body,
    });
    return answer.statusCode;
  });
}
