import type { IdentityService } from '../auth/identity';
import type { CatalogueRepository } from '../catalogue/catalogue.repository';
import type { ServerConfig } from '../config';
import type { Store } from '../store/store';

/** What every API route module gets from the server. */
export interface ApiDeps {
  readonly config: ServerConfig;
  /** The store; open by the time any handler runs. */
  readonly db: Store;
  readonly identity: IdentityService;
  readonly catalogue: CatalogueRepository;
  readonly now: () => Date;
}
