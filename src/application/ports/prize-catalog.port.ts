import type { Observable } from 'rxjs';
import type { TopPageCatalogue } from '../../domain';

export interface TopPageQuery {
  readonly shopId: number;
  readonly fesId?: number;
}

/**
 * Reads the prize catalogue. Each call returns a cold observable that emits once and completes;
 * unsubscribing before the answer cancels the request.
 */
export interface PrizeCatalogPort {
  topPage(query: TopPageQuery): Observable<TopPageCatalogue>;
}
