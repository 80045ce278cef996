import type { PrizeCatalogPort } from './ports/prize-catalog.port';
import type { ReservationPort } from './ports/reservation.port';
import type { KujiPlayPort } from './ports/kuji-play.port';
import type { AppConfig } from './app-config';
import type { BrowseTopPage } from './use-cases/browse-top-page.use-case';
import type { SessionPort } from './ports/session.port';
import type { ServiceSignalsPort } from './ports/service-signals.port';
import type { NavigatorPort } from './ports/navigator.port';
import type { BuildManifestPort, ReloadMarkPort } from './ports/app-update.port';
import type { AppUpdates } from './use-cases/app-updates.use-case';
import type { ServiceMaintenance } from './use-cases/service-maintenance.use-case';
import type { AuthPort } from './ports/auth.port';
import type { AccountPort } from './ports/account.port';
import type { WalletPort } from './ports/wallet.port';
import type { PrizeDeliveryPort } from './ports/prize-delivery.port';
import type { SupportPort } from './ports/support.port';
import type { ClockPort } from './ports/clock.port';
import type { PlayPort } from './ports/play.port';
import type { ClipPort } from './ports/clip.port';
import type { PlayClipViewer, SharedClip } from './use-cases/play-clips.use-case';
import type { StationSettingsHistory } from './use-cases/settings-history.use-case';
import type { RealtimePort } from './ports/realtime.port';
import type { HlsVideoPort, NotificationPort, RtcVideoPort, StillFramePort } from './ports/live-feed.port';
import type { AnalyticsPort } from './ports/analytics.port';
import type { LiveFeed } from './use-cases/live-feed.use-case';
import type { StationPlay } from './use-cases/station-play.use-case';
import type { StationLine } from './use-cases/station-line.use-case';
import type { CranePlay } from './use-cases/crane-play.use-case';
import type { PlayerSettings } from './use-cases/player-settings.use-case';
import type { PlayRecord } from './use-cases/play-record.use-case';
import type { PlayMessages } from './use-cases/play-messages.use-case';
import type { PlayCommandLane } from './use-cases/play-command-lane';
import type { BrowseCatalogue } from './use-cases/browse-catalogue.use-case';
import type { ModalStack } from './use-cases/modal-stack.use-case';
import type { CurrentUser } from './use-cases/current-user.use-case';
import type { ReadInformation } from './use-cases/read-information.use-case';
import type { TopPageExtras } from './use-cases/top-page-extras.use-case';
import type { TrackEvent } from './use-cases/track-event.use-case';
import type { VerifyEmail } from './use-cases/verify-email.use-case';
import type { BuyTc } from './use-cases/buy-tc.use-case';
import type { AccountPayment } from './use-cases/account-payment.use-case';
import type { PlayHistory, TcUsedHistory } from './use-cases/paged-history.use-case';
import type { SpendingLimitSetting } from './use-cases/spending-limit.use-case';
import type { Notices } from './use-cases/notices.use-case';
import type { Features } from './features';
import type { KujiBoxPlay } from './use-cases/kuji-box.use-case';
import type { PrizeBox } from './use-cases/prize-box.use-case';
import type { DeliveryRequestFlow } from './use-cases/delivery-request.use-case';
import type { DeliveryHistory } from './use-cases/delivery-history.use-case';
import type { AddressBook } from './use-cases/address-book.use-case';
import type {
  AccountDeletion,
  EmailChange,
  InviteFriend,
  PasswordChange,
  PasswordReset,
  PhoneCheck,
  PresentCodeRedeem,
  ProfileSettings,
  SignUp,
} from './use-cases/account-forms.use-case';
import type { AccountFlags } from './use-cases/account-flags.use-case';
import type { ContactForm, SupportChat } from './use-cases/support.use-case';

/**
 * A typed container key. At run time it is a plain symbol (what Inversify wants); the phantom type
 * lets `useInjection(TOKENS.X)` and `container.get(TOKENS.X)` infer what they return.
 */
export type Token<T> = symbol & { readonly __tokenType?: T };

function token<T>(name: string): Token<T> {
  return Symbol.for(`onkure.${name}`) as Token<T>;
}

/** Every binding of the container. Ports are bound to adapters only in src/main. */
export const TOKENS = {
  AppConfig: token<AppConfig>('AppConfig'),
  PrizeCatalogPort: token<PrizeCatalogPort>('PrizeCatalogPort'),
  ReservationPort: token<ReservationPort>('ReservationPort'),
  KujiPlayPort: token<KujiPlayPort>('KujiPlayPort'),
  SessionPort: token<SessionPort>('SessionPort'),
  ServiceSignalsPort: token<ServiceSignalsPort>('ServiceSignalsPort'),
  NavigatorPort: token<NavigatorPort>('NavigatorPort'),
  BuildManifestPort: token<BuildManifestPort>('BuildManifestPort'),
  ReloadMarkPort: token<ReloadMarkPort>('ReloadMarkPort'),
  BrowseTopPage: token<BrowseTopPage>('BrowseTopPage'),
  ServiceMaintenance: token<ServiceMaintenance>('ServiceMaintenance'),
  AuthPort: token<AuthPort>('AuthPort'),
  AccountPort: token<AccountPort>('AccountPort'),
  WalletPort: token<WalletPort>('WalletPort'),
  PrizeDeliveryPort: token<PrizeDeliveryPort>('PrizeDeliveryPort'),
  SupportPort: token<SupportPort>('SupportPort'),
  ClockPort: token<ClockPort>('ClockPort'),
  PlayPort: token<PlayPort>('PlayPort'),
  ClipPort: token<ClipPort>('ClipPort'),
  PlayClipViewer: token<PlayClipViewer>('PlayClipViewer'),
  StationSettingsHistory: token<StationSettingsHistory>('StationSettingsHistory'),
  SharedClip: token<SharedClip>('SharedClip'),
  RealtimePort: token<RealtimePort>('RealtimePort'),
  StillFramePort: token<StillFramePort>('StillFramePort'),
  RtcVideoPort: token<RtcVideoPort>('RtcVideoPort'),
  HlsVideoPort: token<HlsVideoPort>('HlsVideoPort'),
  NotificationPort: token<NotificationPort>('NotificationPort'),
  AnalyticsPort: token<AnalyticsPort>('AnalyticsPort'),
  LiveFeed: token<LiveFeed>('LiveFeed'),
  StationPlay: token<StationPlay>('StationPlay'),
  StationLine: token<StationLine>('StationLine'),
  CranePlay: token<CranePlay>('CranePlay'),
  PlayerSettings: token<PlayerSettings>('PlayerSettings'),
  PlayRecord: token<PlayRecord>('PlayRecord'),
  PlayMessages: token<PlayMessages>('PlayMessages'),
  PlayCommandLane: token<PlayCommandLane>('PlayCommandLane'),
  BrowseCatalogue: token<BrowseCatalogue>('BrowseCatalogue'),
  ModalStack: token<ModalStack>('ModalStack'),
  CurrentUser: token<CurrentUser>('CurrentUser'),
  AppUpdates: token<AppUpdates>('AppUpdates'),
  ReadInformation: token<ReadInformation>('ReadInformation'),
  TopPageExtras: token<TopPageExtras>('TopPageExtras'),
  TrackEvent: token<TrackEvent>('TrackEvent'),
  VerifyEmail: token<VerifyEmail>('VerifyEmail'),
  BuyTc: token<BuyTc>('BuyTc'),
  AccountPayment: token<AccountPayment>('AccountPayment'),
  TcUsedHistory: token<TcUsedHistory>('TcUsedHistory'),
  PlayHistory: token<PlayHistory>('PlayHistory'),
  SpendingLimitSetting: token<SpendingLimitSetting>('SpendingLimitSetting'),
  Notices: token<Notices>('Notices'),
  /** Loads the features a page or modal needs into the container (src/application/features.ts). */
  Features: token<Features>('Features'),
  KujiBoxPlay: token<KujiBoxPlay>('KujiBoxPlay'),
  PrizeBox: token<PrizeBox>('PrizeBox'),
  DeliveryRequestFlow: token<DeliveryRequestFlow>('DeliveryRequestFlow'),
  DeliveryHistory: token<DeliveryHistory>('DeliveryHistory'),
  AddressBook: token<AddressBook>('AddressBook'),
  SignUp: token<SignUp>('SignUp'),
  PasswordChange: token<PasswordChange>('PasswordChange'),
  PasswordReset: token<PasswordReset>('PasswordReset'),
  EmailChange: token<EmailChange>('EmailChange'),
  PhoneCheck: token<PhoneCheck>('PhoneCheck'),
  PresentCodeRedeem: token<PresentCodeRedeem>('PresentCodeRedeem'),
  ProfileSettings: token<ProfileSettings>('ProfileSettings'),
  InviteFriend: token<InviteFriend>('InviteFriend'),
  AccountDeletion: token<AccountDeletion>('AccountDeletion'),
  AccountFlags: token<AccountFlags>('AccountFlags'),
  ContactForm: token<ContactForm>('ContactForm'),
  SupportChat: token<SupportChat>('SupportChat'),
} as const;
