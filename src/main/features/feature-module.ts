import type { Container } from 'inversify';
import type { Feature } from '../../application';
import type { KyHttpClient, StoredSession } from '../../infrastructure';
import type { ClientConfig } from '../client-config';
import type { HostEnvironment } from '../container-core';

/** What a feature's bindings are made from: the app's one HTTP client, session, settings and host. */
export interface FeatureDeps {
  readonly config: ClientConfig;
  readonly host: HostEnvironment;
  readonly http: KyHttpClient;
  readonly session: StoredSession;
}

/** One feature's bindings (src/main/features/<feature>.ts): bound once per container, when first needed. */
export interface FeatureModule {
  /** Features whose bindings these use-cases take from the container too. */
  readonly requires?: readonly Feature[];
  bind(container: Container, deps: FeatureDeps): void;
}

/** Where each feature's module comes from: imported with the entry (servers, tests) or loaded later (browser). */
export type FeatureModules = { readonly [F in Feature]: () => FeatureModule | Promise<FeatureModule> };
