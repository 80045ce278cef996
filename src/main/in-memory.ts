import { TOKENS, type Token } from '../application';
import {
  type InMemoryBackend, InMemoryPrizeCatalog, InMemoryAccount, InMemoryAuth, InMemoryCaller, InMemoryPrizeDelivery, InMemoryWallet, ServiceSignalBus,
} from '../infrastructure';
import { type InMemoryCatalogueData, InMemoryKujiPlay, InMemoryReservation } from '../infrastructure';
import type { TopPageCatalogue } from '../domain';
import { fromContainer, type Override } from './container';

/** What the in-memory fakes start from. */
export interface InMemoryDataset {
  readonly topPage: TopPageCatalogue;
  /** Stations, characters, kuji and editorial contents behind the catalogue, reservation and kuji fakes. */
  readonly catalogue?: InMemoryCatalogueData;
}

/**
 * Container overrides that replace every service port with its in-memory fake over one shared
 * backend: `createAppContainer(config, inMemoryOverrides(backend, dataset))`. Used by UI tests, the
 * contract suite and offline development.
 */
export function inMemoryOverrides(backend: InMemoryBackend, dataset: InMemoryDataset): Override[] {
  return [
    [TOKENS.PrizeCatalogPort, fromContainer((get) => new InMemoryPrizeCatalog(dataset.topPage, undefined, {
      caller: callerIn(backend, get), ...(dataset.catalogue ? { data: dataset.catalogue } : {}),
    }))],
    [TOKENS.ReservationPort, fromContainer((get) => new InMemoryReservation(callerIn(backend, get), dataset.catalogue))],
    [TOKENS.KujiPlayPort, fromContainer((get) => new InMemoryKujiPlay(callerIn(backend, get), dataset.catalogue))],
    [TOKENS.AuthPort, fromContainer((get) => new InMemoryAuth(callerIn(backend, get), get(TOKENS.SessionPort)))],
    [TOKENS.AccountPort, fromContainer((get) => new InMemoryAccount(callerIn(backend, get)))],
    [TOKENS.WalletPort, fromContainer((get) => new InMemoryWallet(callerIn(backend, get), () => get(TOKENS.SessionPort).current()?.user_id ?? null))],
    [TOKENS.PrizeDeliveryPort, fromContainer((get) => new InMemoryPrizeDelivery(callerIn(backend, get)))],
  ];
}

/** A fake's view of one app: the shared backend, that app's session, target and signal bus. */
function callerIn(backend: InMemoryBackend, get: <U>(token: Token<U>) => U): InMemoryCaller {
  const signals = get(TOKENS.ServiceSignalsPort);
  return new InMemoryCaller(backend, get(TOKENS.SessionPort), get(TOKENS.AppConfig).target, signals instanceof ServiceSignalBus ? signals : null);
}
