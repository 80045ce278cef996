// The lite build (no Map/Set polyfills), the one inversify itself imports: one copy in the bundle.
import 'reflect-metadata/lite';
import { Container } from 'inversify';
import {
  AppUpdates,
  BrowseCatalogue,
  BrowseTopPage,
  ModalStack,
  ReadInformation,
  TopPageExtras,
  TrackEvent,
  AccountFlags,
  Notices,
  ServiceMaintenance,
  TOKENS,
  type Feature,
  type Features,
  type AppConfig,
  type NavigatorPort,
  type Token,
} from '../application';
import {
  CookieLogoutGuard,
  KyHttpClient,
  KyPrizeCatalog,
  LocationNavigator,
  ServiceSignalBus,
  StoredSession,
  SystemClock,
  lazyPort,
  SocketRealtime,
  socketClientAfter,
  CollectorAnalytics,
  FanOutAnalytics,
  GtagAnalytics,
  startAnalytics,
  FetchBuildManifest,
  SessionReloadMark,
  BUILD_MANIFEST_PATH,
  type LogoutGuard,
  type SessionStorageLike,
} from '../infrastructure';
import type { AccountPort, AnalyticsPort, AuthPort } from '../application';
import { CurrentUser } from '../application';
import type { ClientConfig } from './client-config';
import type { FeatureDeps, FeatureModule, FeatureModules } from './features/feature-module';

/** Every method of the account port (the compiler checks the list against the port). */
const ACCOUNT_METHODS: Record<keyof AccountPort, true> = {
  setHideCharacter: true,
  setVolume: true,
  email: true,
  addressBook: true,
  addresses: true,
  registerAddress: true,
  changeAddress: true,
  deleteAddress: true,
  lookupZip: true,
  profile: true,
  setProfile: true,
  setNickname: true,
  sendPhoneCode: true,
  verifyPhone: true,
  redeemPresentCode: true,
  inviteInfo: true,
  agreeToTerms: true,
  setAdditional: true,
  markRead: true,
  endMovieTokens: true,
  deletionPreview: true,
  deleteAccount: true,
  userData: true,
};

/** Every method of the sign-in port. */
const AUTH_METHODS: Record<keyof AuthPort, true> = {
  signUp: true,
  logIn: true,
  logOut: true,
  debugLogIn: true,
  emailStatus: true,
  sendEmailCode: true,
  verifyEmail: true,
  devOutbox: true,
  devMailbox: true,
  changePassword: true,
  requestPasswordReset: true,
  resetPassword: true,
};

/** A replacement for one binding: `[TOKENS.PrizeCatalogPort, fakeApi]`. */
export type Override = readonly [Token<unknown>, unknown];

/** Host facilities the browser gives and a test or another host may replace. */
export interface HostEnvironment {
  readonly storage: SessionStorageLike | null;
  /** Storage that lasts as long as the tab (the reload guard's mark); null outside a browser. */
  readonly tabStorage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  readonly cookies: () => string;
  readonly navigator: NavigatorPort;
  readonly fetch?: typeof fetch;
  /** Resolves once the page has loaded (its load event); none outside a browser. */
  readonly pageLoaded?: () => Promise<void>;
}

/** Resolves once the window's document has loaded (at once if it has). */
function pageLoaded(window: Window): Promise<void> {
  if (window.document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

export function browserHost(): HostEnvironment {
  const hasWindow = typeof window !== 'undefined';
  return {
    storage: hasWindow ? window.localStorage : null,
    tabStorage: hasWindow ? window.sessionStorage : null,
    cookies: () => (typeof document !== 'undefined' ? document.cookie : ''),
    navigator: hasWindow ? new LocationNavigator(window.location) : { reload: () => undefined, goTo: () => undefined },
    pageLoaded: hasWindow ? () => pageLoaded(window) : undefined,
  };
}

/**
 * The analytics binding [R7-12]: the gtag tag (inert unless a measurement id is configured) and, when
 * VITE_ANALYTICS_COLLECT_URL is set (development), the reference server's collector beside it. A
 * host with its own fetch (tests, Node) gets the collector by that fetch, never by a beacon.
 */
export function createAnalytics(config: ClientConfig, host: Pick<HostEnvironment, 'fetch'> = {}): AnalyticsPort {
  const tag = new GtagAnalytics({ scriptUrl: config.analyticsScriptUrl ?? '', ids: config.analyticsIds });
  if (!config.analyticsCollectUrl) return tag;
  // The API's Authorization value goes only to the API's own origin.
  const sameOrigin = new URL(config.analyticsCollectUrl).origin === new URL(config.apiBase).origin;
  const collector = new CollectorAnalytics({
    url: config.analyticsCollectUrl,
    ...(sameOrigin && config.authorization ? { authorization: config.authorization } : {}),
    ...(host.fetch ? { fetch: host.fetch, sendBeacon: null } : {}),
  });
  return new FanOutAnalytics([tag, collector]);
}

/**
 * Starts the container's analytics (loads the tag when an id is configured): the browser entry calls
 * it once after rendering; never at import time or in a server render.
 */
export function startAppAnalytics(container: Container): void {
  startAnalytics(container.get(TOKENS.AnalyticsPort));
}

/**
 * The container's feature loader: binds a feature's module (and the ones it requires) once, then
 * applies the overrides again, so an override of a feature's token replaces what the feature bound.
 */
export class FeatureLoader implements Features {
  private readonly done = new Set<Feature>();
  private readonly pending = new Map<Feature, Promise<void>>();

  constructor(
    private readonly container: Container,
    private readonly modules: FeatureModules,
    private readonly deps: FeatureDeps,
    private readonly overrides: readonly Override[],
  ) {}

  loaded(feature: Feature): boolean {
    return this.done.has(feature);
  }

  async load(features: readonly Feature[]): Promise<void> {
    await Promise.all(features.map((f) => this.loadOne(f)));
  }

  /** Binds a feature whose module is at hand (never loaded later): the eager containers. */
  loadNow(feature: Feature): void {
    if (this.done.has(feature)) return;
    const module = this.modules[feature]();
    if (module instanceof Promise) throw new Error(`feature ${feature} is loaded lazily; use load()`);
    for (const required of module.requires ?? []) this.loadNow(required);
    this.bind(feature, module);
  }

  private loadOne(feature: Feature): Promise<void> {
    if (this.done.has(feature)) return Promise.resolve();
    let pending = this.pending.get(feature);
    if (!pending) {
      pending = (async () => {
        const module = await this.modules[feature]();
        await this.load(module.requires ?? []);
        this.bind(feature, module);
      })();
      // A chunk that failed to load is tried again next time.
      pending.catch(() => this.pending.delete(feature));
      this.pending.set(feature, pending);
    }
    return pending;
  }

  private bind(feature: Feature, module: FeatureModule): void {
    if (this.done.has(feature)) return;
    module.bind(this.container, this.deps);
    this.done.add(feature);
    for (const [token, value] of this.overrides)
      if (this.container.isBound(token)) this.container.rebind(token).toConstantValue(value);
  }
}

/**
 * Builds one app instance's container with the browsing core bound (the composition root, the only
 * place adapters are bound) and the features coming from `features`: each is bound when a page or
 * modal first asks for it (`TOKENS.Features`). `overrides` rebind any token to another
 * implementation, e.g. a scripted double from onkure/testing. `createAppContainer` binds every
 * feature at once; the browser's entry loads them as they are needed.
 */
export function createContainerWith(
  features: FeatureModules,
  config: ClientConfig,
  overrides: readonly Override[] = [],
  host: HostEnvironment = browserHost(),
): { readonly container: Container; readonly features: FeatureLoader } {
  const container = new Container({ defaultScope: 'Singleton' });
  const appConfig: AppConfig = {
    target: config.target,
    shopId: config.shopId,
    topPageBaseUrl: config.topPageBaseUrl,
    yahooTopUrl: config.yahooTopUrl,
    feedMode: config.feedMode,
    analyticsIds: config.analyticsIds,
    corporateUrl: config.corporateUrl,
  };
  const session = new StoredSession(host.storage);
  const signals = new ServiceSignalBus();
  const logoutGuard: LogoutGuard = new CookieLogoutGuard(host.cookies);
  const http = new KyHttpClient({
    config: {
      apiBase: config.apiBase,
      authorization: config.authorization,
      timeoutMs: config.timeoutMs,
      ...(host.fetch ? { fetch: host.fetch } : {}),
    },
    target: config.target,
    session,
    signals,
    logoutGuard,
  });
  const api = new KyPrizeCatalog(http);

  container.bind(TOKENS.AppConfig).toConstantValue(appConfig);
  container.bind(TOKENS.SessionPort).toConstantValue(session);
  container.bind(TOKENS.ServiceSignalsPort).toConstantValue(signals);
  container.bind(TOKENS.NavigatorPort).toConstantValue(host.navigator);
  container.bind(TOKENS.ClockPort).toConstantValue(new SystemClock());
  container.bind(TOKENS.PrizeCatalogPort).toConstantValue(api);
  container
    .bind(TOKENS.AuthPort)
    .toConstantValue(
      lazyPort<AuthPort>(AUTH_METHODS, async () => new (await import('./adapters/account')).KyAuth(http, session)),
    );
  // The account and sign-in adapters (their calls and answer schemas) load when the first call is
  // made: a signed-out visit never needs them, a signed-in one after the page is live.
  container
    .bind(TOKENS.AccountPort)
    .toConstantValue(
      lazyPort<AccountPort>(
        ACCOUNT_METHODS,
        async () => new (await import('./adapters/account')).KyAccount(http, session),
      ),
    );
  container.bind(TOKENS.RealtimePort).toConstantValue(
    new SocketRealtime(
      {
        url: config.realtimeUrl,
        configuredChannel: config.realtimeChannel,
        serviceSignals: { target: config.target, publish: (signal) => signals.publish(signal) },
      },
      session,
      host.pageLoaded ? socketClientAfter(host.pageLoaded) : undefined,
    ),
  );
  container.bind(TOKENS.AnalyticsPort).toConstantValue(createAnalytics(config, host));
  container
    .bind(TOKENS.BuildManifestPort)
    .toConstantValue(new FetchBuildManifest(new URL(BUILD_MANIFEST_PATH, config.origin).toString(), host.fetch));
  container.bind(TOKENS.ReloadMarkPort).toConstantValue(new SessionReloadMark(host.tabStorage ?? null));
  // Page-scoped use-cases: a new instance per scope, disposed by its owner (useScopedUseCase).
  container.bind(TOKENS.BrowseTopPage).to(BrowseTopPage).inTransientScope();
  container.bind(TOKENS.BrowseCatalogue).to(BrowseCatalogue).inTransientScope();
  container.bind(TOKENS.ReadInformation).to(ReadInformation).inTransientScope();
  container.bind(TOKENS.TopPageExtras).to(TopPageExtras).inTransientScope();
  // App-lifetime use-cases: one per container.
  container.bind(TOKENS.ServiceMaintenance).to(ServiceMaintenance);
  container.bind(TOKENS.ModalStack).to(ModalStack);
  container.bind(TOKENS.CurrentUser).to(CurrentUser);
  container.bind(TOKENS.AccountFlags).to(AccountFlags);
  container.bind(TOKENS.AppUpdates).to(AppUpdates);
  container.bind(TOKENS.TrackEvent).to(TrackEvent);
  container.bind(TOKENS.Notices).to(Notices);
  const loader = new FeatureLoader(container, features, { config, host, http, session }, overrides);
  container.bind(TOKENS.Features).toConstantValue(loader);
  for (const [token, value] of overrides) if (container.isBound(token)) container.rebind(token).toConstantValue(value);
  return { container, features: loader };
}
