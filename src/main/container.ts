// The lite build (no Map/Set polyfills), the one inversify itself imports: one copy in the bundle.
import 'reflect-metadata/lite';
import { Container } from 'inversify';
import {
  AppUpdates,
  BrowseCatalogue,
  BrowseTopPage,
  LiveFeed,
  ModalStack,
  ReadInformation,
  TopPageExtras,
  TrackEvent,
  VerifyEmail,
  BuyTc,
  AccountPayment,
  TcUsedHistory,
  PlayHistory,
  SpendingLimitSetting,
  PrizeBox,
  DeliveryRequestFlow,
  DeliveryHistory,
  AddressBook,
  SignUp,
  PasswordChange,
  PasswordReset,
  EmailChange,
  PhoneCheck,
  PresentCodeRedeem,
  ProfileSettings,
  InviteFriend,
  AccountDeletion,
  AccountFlags,
  ContactForm,
  SupportChat,
  Notices,
  KujiBoxPlay,
  ServiceMaintenance,
  StationPlay,
  StationLine,
  CranePlay,
  PlayerSettings,
  PlayRecord,
  PlayMessages,
  PlayCommandLane,
  TOKENS,
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
  KyKujiPlay,
  KyReservation,
  KyAccount,
  KyAuth,
  KyPrizeDelivery,
  KySupport,
  KyWallet,
  KyPlay,
  SocketRealtime,
  FetchStillFrames,
  SoraRtcVideo,
  BrowserNotifications,
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
import type { AnalyticsPort } from '../application';
import { CurrentUser } from '../application';
import type { ClientConfig } from './client-config';

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
}

function browserHost(): HostEnvironment {
  const hasWindow = typeof window !== 'undefined';
  return {
    storage: hasWindow ? window.localStorage : null,
    tabStorage: hasWindow ? window.sessionStorage : null,
    cookies: () => (typeof document !== 'undefined' ? document.cookie : ''),
    navigator: hasWindow ? new LocationNavigator(window.location) : { reload: () => undefined, goTo: () => undefined },
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
 * Builds one app instance's container: the composition root, the only place adapters are bound.
 * Call it once per app (and, with SSR, once per request). `overrides` rebind any token to another
 * implementation, e.g. a scripted double from onkure/testing.
 */
export function createAppContainer(
  config: ClientConfig,
  overrides: readonly Override[] = [],
  host: HostEnvironment = browserHost(),
): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  const appConfig: AppConfig = {
    target: config.target,
    shopId: config.shopId,
    topPageBaseUrl: config.topPageBaseUrl,
    yahooTopUrl: config.yahooTopUrl,
    feedMode: config.feedMode,
    analyticsIds: config.analyticsIds,
    corporateUrl: config.corporateUrl,
    ...(config.kujiTimeLimits ? { kujiTimeLimits: config.kujiTimeLimits } : {}),
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
  container.bind(TOKENS.ReservationPort).toConstantValue(new KyReservation(http));
  container.bind(TOKENS.KujiPlayPort).toConstantValue(new KyKujiPlay(http));
  container.bind(TOKENS.AuthPort).toConstantValue(new KyAuth(http, session));
  container.bind(TOKENS.AccountPort).toConstantValue(new KyAccount(http, session));
  container.bind(TOKENS.WalletPort).toConstantValue(new KyWallet(http, session));
  container.bind(TOKENS.PrizeDeliveryPort).toConstantValue(new KyPrizeDelivery(http));
  container.bind(TOKENS.SupportPort).toConstantValue(new KySupport(http));
  container.bind(TOKENS.PlayPort).toConstantValue(new KyPlay(http, session));
  container.bind(TOKENS.RealtimePort).toConstantValue(
    new SocketRealtime(
      {
        url: config.realtimeUrl,
        configuredChannel: config.realtimeChannel,
        serviceSignals: { target: config.target, publish: (signal) => signals.publish(signal) },
      },
      session,
    ),
  );
  container.bind(TOKENS.StillFramePort).toConstantValue(new FetchStillFrames(host.fetch));
  container.bind(TOKENS.RtcVideoPort).toConstantValue(new SoraRtcVideo(config.origin));
  container.bind(TOKENS.NotificationPort).toConstantValue(new BrowserNotifications());
  container.bind(TOKENS.AnalyticsPort).toConstantValue(createAnalytics(config, host));
  container
    .bind(TOKENS.BuildManifestPort)
    .toConstantValue(new FetchBuildManifest(new URL(BUILD_MANIFEST_PATH, config.origin).toString(), host.fetch));
  container.bind(TOKENS.ReloadMarkPort).toConstantValue(new SessionReloadMark(host.tabStorage ?? null));
  // Page-scoped use-cases: a new instance per scope, disposed by its owner (useScopedUseCase).
  container.bind(TOKENS.BrowseTopPage).to(BrowseTopPage).inTransientScope();
  container.bind(TOKENS.LiveFeed).to(LiveFeed).inTransientScope();
  container.bind(TOKENS.StationPlay).to(StationPlay).inTransientScope();
  // The play screen's parts: one each per screen, shared by the parts of that screen (request scope).
  container.bind(TOKENS.StationLine).to(StationLine).inRequestScope();
  container.bind(TOKENS.CranePlay).to(CranePlay).inRequestScope();
  container.bind(TOKENS.PlayerSettings).to(PlayerSettings).inRequestScope();
  container.bind(TOKENS.PlayRecord).to(PlayRecord).inRequestScope();
  container.bind(TOKENS.PlayMessages).to(PlayMessages).inRequestScope();
  container.bind(TOKENS.PlayCommandLane).to(PlayCommandLane).inRequestScope();
  container.bind(TOKENS.BrowseCatalogue).to(BrowseCatalogue).inTransientScope();
  container.bind(TOKENS.ReadInformation).to(ReadInformation).inTransientScope();
  container.bind(TOKENS.TopPageExtras).to(TopPageExtras).inTransientScope();
  container.bind(TOKENS.VerifyEmail).to(VerifyEmail).inTransientScope();
  container.bind(TOKENS.BuyTc).to(BuyTc).inTransientScope();
  container.bind(TOKENS.AccountPayment).to(AccountPayment).inTransientScope();
  container.bind(TOKENS.TcUsedHistory).to(TcUsedHistory).inTransientScope();
  container.bind(TOKENS.PlayHistory).to(PlayHistory).inTransientScope();
  container.bind(TOKENS.SpendingLimitSetting).to(SpendingLimitSetting).inTransientScope();
  container.bind(TOKENS.KujiBoxPlay).to(KujiBoxPlay).inTransientScope();
  container.bind(TOKENS.PrizeBox).to(PrizeBox).inTransientScope();
  container.bind(TOKENS.DeliveryRequestFlow).to(DeliveryRequestFlow).inTransientScope();
  container.bind(TOKENS.DeliveryHistory).to(DeliveryHistory).inTransientScope();
  container.bind(TOKENS.AddressBook).to(AddressBook).inTransientScope();
  container.bind(TOKENS.SignUp).to(SignUp).inTransientScope();
  container.bind(TOKENS.PasswordChange).to(PasswordChange).inTransientScope();
  container.bind(TOKENS.PasswordReset).to(PasswordReset).inTransientScope();
  container.bind(TOKENS.EmailChange).to(EmailChange).inTransientScope();
  container.bind(TOKENS.PhoneCheck).to(PhoneCheck).inTransientScope();
  container.bind(TOKENS.PresentCodeRedeem).to(PresentCodeRedeem).inTransientScope();
  container.bind(TOKENS.ProfileSettings).to(ProfileSettings).inTransientScope();
  container.bind(TOKENS.InviteFriend).to(InviteFriend).inTransientScope();
  container.bind(TOKENS.AccountDeletion).to(AccountDeletion).inTransientScope();
  container.bind(TOKENS.ContactForm).to(ContactForm).inTransientScope();
  container.bind(TOKENS.SupportChat).to(SupportChat).inTransientScope();
  // App-lifetime use-cases: one per container.
  container.bind(TOKENS.ServiceMaintenance).to(ServiceMaintenance);
  container.bind(TOKENS.ModalStack).to(ModalStack);
  container.bind(TOKENS.CurrentUser).to(CurrentUser);
  container.bind(TOKENS.AccountFlags).to(AccountFlags);
  container.bind(TOKENS.AppUpdates).to(AppUpdates);
  container.bind(TOKENS.TrackEvent).to(TrackEvent);
  container.bind(TOKENS.Notices).to(Notices);
  for (const [token, value] of overrides) container.rebind(token).toConstantValue(value);
  return container;
}
