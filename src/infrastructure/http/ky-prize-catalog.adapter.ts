import type { Observable } from 'rxjs';
import type { PrizeCatalogPort, TopPageQuery } from '../../application';
import type { TopPageCatalogue } from '../../domain';
import { ENDPOINTS, topPagePrizeResponseSchema } from '../../contract';
import type { KyHttpClient } from './ky-http-client';

/** Drops the answer envelope (error_code, error_info) once the answer is known to be a success. */
function payload<T extends { error_code: number; error_info: string }>(answer: T): Omit<T, 'error_code' | 'error_info'> {
  const { error_code: _code, error_info: _info, ...rest } = answer;
  return rest;
}

/**
 * The service API over HTTP (ky): every port the service answers, each method one call of spec §7.
 */
export class KyPrizeCatalog implements PrizeCatalogPort {
  constructor(private readonly http: KyHttpClient) {}

  topPage(query: TopPageQuery): Observable<TopPageCatalogue> {
    const body = { shop_id: query.shopId, is_top_page: 1, ...(query.fesId !== undefined ? { fes_id: query.fesId } : {}) };
    return this.http.post(ENDPOINTS.topPagePrize, body, topPagePrizeResponseSchema.transform(payload), 'top_page_prize');
  }
}
