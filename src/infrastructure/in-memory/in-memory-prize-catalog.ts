import { type Observable, defer, of } from 'rxjs';
import type { PrizeCatalogPort, TopPageQuery } from '../../application';
import type { TopPageCatalogue } from '../../domain';

/**
 * An in-memory service API for UI tests and offline development. It holds its own catalogue and
 * answers like the server does; the contract suite runs against it and the real adapter alike.
 */
export class InMemoryPrizeCatalog implements PrizeCatalogPort {
  readonly calls: { method: string; args: unknown }[] = [];

  constructor(private catalogue: TopPageCatalogue, private readonly failWith?: () => Error | null) {}

  setCatalogue(catalogue: TopPageCatalogue): void {
    this.catalogue = catalogue;
  }

  topPage(query: TopPageQuery): Observable<TopPageCatalogue> {
    return defer(() => {
      this.calls.push({ method: 'topPage', args: query });
      const failure = this.failWith?.();
      if (failure) throw failure;
      return of(this.catalogue);
    });
  }
}
