import { TOKENS } from '../application';
import { type InMemoryBackend, InMemoryPrizeCatalog } from '../infrastructure';
import type { TopPageCatalogue } from '../domain';
import type { Override } from './container';

/** What the in-memory fakes start from. */
export interface InMemoryDataset {
  readonly topPage: TopPageCatalogue;
}

/**
 * Container overrides that replace every service port with its in-memory fake over one shared
 * backend: `createAppContainer(config, inMemoryOverrides(backend, dataset))`. Used by UI tests, the
 * contract suite and offline development.
 */
export function inMemoryOverrides(backend: InMemoryBackend, dataset: InMemoryDataset): Override[] {
  void backend;
  return [
    [TOKENS.PrizeCatalogPort, new InMemoryPrizeCatalog(dataset.topPage)],
  ];
}
