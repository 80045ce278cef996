import type { StationAgentWire, StationCameraWire } from '../src/contract/operator.schema';
import type { Server as SocketIOServer } from 'socket.io';
import { AddressesRepository } from './account/addresses.repository';
import { PrizesRepository } from './delivery/prizes.repository';
import { DeliveryTickets } from './delivery/delivery-tickets';
import { DeliveryService } from './delivery/delivery.service';
import { PrizeStorage } from './delivery/prize-storage';
import { FreeTcExpiry } from './wallet/free-tc-expiry';
import { VisitSweep } from './play/visit-sweep';
import { DailyFreePlays } from './wallet/daily-free-plays';
import { RewardsService } from './account/rewards.service';
import { UsersRepository } from './account/users.repository';
import { VerificationService } from './account/verification.service';
import { AccountDeletionService } from './account/account-deletion.service';
import { AccountAuthService } from './auth/account-auth.service';
import { PasswordService } from './auth/password.service';
import { IdentityService } from './auth/identity';
import { buildTopPage, CatalogueRepository } from './catalogue/catalogue.repository';
import { TopPageCache } from './catalogue/top-page-cache';
import { ImageVariants } from './catalogue/image-variants';
import { ContentsRepository } from './catalogue/contents.repository';
import type { Clock } from './clock';
import type { ServerConfig } from './config';
import { KujiReservations } from './kuji/kuji-reservations';
import { KujiRepository } from './kuji/kuji.repository';
import { type SignalingServer, type SignalingTimings } from './live/signaling';
import type { FeedOwners } from './live/feed-forward';
import type { RtcFeed } from './live/rtc-feed';
import type { StationCameras } from './play/cameras/station-cameras';
import { OperatorAccounts } from './operator/operator-accounts';
import { StationKeys } from './agent/station-keys';
import proxyaddr from '@fastify/proxy-addr';
import type { AgentBounds, AgentGateway } from './agent/agent-gateway';
import { createMachineLink } from './agent/machine-link';
import { SettingsHistoryRepository } from './play/settings-history.repository';
import { PlayLogRepository } from './play/play-log.repository';
import type { PlayEvents, PlayStore } from './play/rooms/play-ports';
import type { KujiBoxStore } from './kuji/kuji-box-store';
import type { KujiBoxEvents } from './kuji/kuji-kind';
import { connectRooms, createRooms } from './composition/rooms.services';
import { createLiveFeed } from './composition/live.services';
import type { CameraIngest } from './live/camera-ingest';
import type { CameraStills } from './live/camera-stills';
import type { CameraHls } from './live/camera-hls';
import type { CameraDemand } from './live/camera-demand';
import type { Rooms } from './rooms/kinds';
import { LocalRoomHost, type RoomHost } from './rooms/room-host';
import { MemoryAttemptLimiter } from './limits/memory-attempt-limiter';
import { AttemptLimits } from './limits/attempt-limiter';
import { StoreAttemptLogs } from './limits/store-attempt-logs';
import { StoreLimitCounts } from './limits/store-limit-counts';
import { WindowLimiter } from './limits/window-limiter';
import { Refusal } from './play/refusal';
import { CONTROL_COMMANDS_PER_SECOND } from '../src/domain';
import { SERVER_MESSAGES } from './messages';
import { RealtimeHub } from './realtime/realtime-hub';
import type { ServerMetrics } from './metrics/server-metrics';
import type { EventLog } from './logging/log-context';
import { ServiceMessages } from './operator/service-messages';
import { StationReservations } from './play/station-reservations';
import { StoreTcLedgerSource, VipGate } from './play/vip-gate';
import { imageUrl } from './catalogue/image-url';
import type { Store } from './store/store';
import { Ledger } from './wallet/ledger';
import { PurchaseService } from './wallet/purchase.service';
import { Reconciliation } from './wallet/reconciliation';
import { SpendingLimits } from './wallet/spending-limits';
import { SimulatedPaymentProvider } from './payment/provider/simulated-provider';
import { SupportService } from './support/support.service';
import { PlayClips } from './clips/play-clips';

export { STATIONS_MOVED } from './composition/rooms.services';

/** Every service of the reference server, each built once. Route modules only call them. */
export interface Services {
  readonly clock: Clock;
  /** The store, for services that join a caller's reads (the VIP gate takes an executor). */
  readonly store: Store;
  /** The real-time socket, for services that push (the play loop, kuji lines). */
  readonly io: SocketIOServer;
  readonly identity: IdentityService;
  readonly catalogue: CatalogueRepository;
  /** The stored pictures drawn at a screen's size in AVIF, WebP or JPEG (`?w=&fm=`). */
  readonly imageVariants: ImageVariants;
  readonly contents: ContentsRepository;
  readonly kujiCatalogue: KujiRepository;
  readonly users: UsersRepository;
  readonly addresses: AddressesRepository;
  readonly prizes: PrizesRepository;
  /** Delivery requests, the fee, the operator's fulfilment (docs/delivery.md). */
  readonly deliveries: DeliveryService;
  /** The storage period's notices and lapses [R10-5]. */
  readonly prizeStorage: PrizeStorage;
  /** The ends of free TC lots: notices and expiries [R11-7] (the leader runs it). */
  readonly freeTcExpiry: FreeTcExpiry;
  /** The daily free play [R11-8]. */
  readonly dailyFree: DailyFreePlays;
  /** Ends the visits of players who left without a word (the leader runs it). */
  readonly visitSweep: VisitSweep;
  readonly ledger: Ledger;
  readonly verification: VerificationService;
  readonly rewards: RewardsService;
  readonly purchases: PurchaseService;
  /** The simulated payment provider (docs/payments.md). */
  readonly provider: SimulatedPaymentProvider;
  readonly spendingLimits: SpendingLimits;
  readonly auth: AccountAuthService;
  /** Password change and reset by an e-mailed code. */
  readonly passwords: PasswordService;
  /** Account deletion [R10-7]: what it takes, and the deletion itself. */
  readonly accountDeletion: AccountDeletionService;
  /** The contact form and the support chat (docs/support.md). */
  readonly support: SupportService;
  readonly vipGate: VipGate;
  readonly reservations: StationReservations;
  /** The rooms: one per station, owning its line, turn, play and timers (docs/play.md). */
  readonly rooms: Rooms;
  /** Where the station rooms' events go (the realtime hub; tests may record them instead). */
  setPlayEvents(events: PlayEvents): void;
  /** Where the kuji box rooms' events go (the realtime hub; tests may record them instead). */
  setKujiEvents(events: KujiBoxEvents): void;
  /** At most 25 crane commands a second per player (counted at the edge, before anything else). */
  readonly controlRate: MemoryAttemptLimiter;
  /** The exact attempt limits guarding passwords and codes, counted in the store for every instance. */
  readonly attempts: AttemptLimits;
  /** The top page's answer per shop, kept until a station's status, the catalogue or time changes it. */
  readonly topPages: TopPageCache;
  readonly playLog: PlayLogRepository;
  /** Each station's published settings history [R11-6]. */
  readonly settingsHistory: SettingsHistoryRepository;
  /** The real-time socket's channels and events (spec §7); the play loop pushes through it. */
  readonly realtime: RealtimeHub;
  /** The stations' front and side cameras, rendered from the simulation. */
  readonly cameras: StationCameras;
  /** The rtc live feed's cameras, one channel per watched or published camera (docs/live-feed.md). */
  readonly rtcFeed: RtcFeed;
  /** The cameras' WHIP publishers on this instance (docs/live-feed.md "Cameras from WHIP"). */
  readonly ingest: CameraIngest;
  /** The jpg mode's stills of published cameras, made from their video while asked for. */
  readonly stills: CameraStills;
  /** The spectators' LL-HLS of watched cameras, encoded once per camera while asked for (docs/spectators.md). */
  readonly hls: CameraHls;
  /** Which cameras are watched, told to the agents that publish their cameras (leases). */
  readonly cameraDemand: CameraDemand;
  /** Operator accounts, sessions and the audit log (R10-9, docs/operator-console.md). */
  readonly operators: OperatorAccounts;
  /** Service messages, the emergency maintenance and suspended users (docs/operator-console.md). */
  readonly serviceMessages: ServiceMessages;
  /** The station agents' keys: issued, verified, rotated, revoked (docs/security.md "Station keys"). */
  readonly stationKeys: StationKeys;
  /** The station agents' connections (`/agent`, docs/agent-protocol.md); attached to the HTTP server by the API part. */
  readonly agents: AgentGateway;
  /** The console's view of every agent, whichever instance it is connected to (machine-link.ts). */
  readonly agentViews: () => Promise<StationAgentWire[]>;
  /** The console's view of every published or watched camera, whichever instance runs it. */
  readonly cameraViews: () => Promise<StationCameraWire[]>;
  /** Where each station's live feed is drawn (several instances): forwarded to the instance running it. */
  readonly feedOwners: FeedOwners;
  /** The rtc feed's Sora-compatible signaling (attached to the HTTP server when webrtc_url is a path). */
  readonly signaling: SignalingServer;
  readonly kujiReservations: KujiReservations;
  /** A video of every play: recorded here, seen by its player and the operators, shared, kept, removed (docs/clips.md). */
  readonly clips: PlayClips;
  /** The instance's metrics, when the server counts (docs/operations.md "Metrics"). */
  /** The money reconciliation (docs/operations.md): run daily by the leader, or on demand. */
  readonly reconciliation: Reconciliation;
  readonly metrics: ServerMetrics | null;
}

/**
 * The server's composition root: builds each service once over one store and one clock, wiring
 * the ones that depend on others. Tests pass a manual clock to drive deadlines and windows.
 */
export interface ServiceOptions {
  /** Where a service logs a failure that has no request to answer (timers). */
  readonly log?: (message: string, error?: unknown) => void;
  /** Seeds of plays (tests pin them). */
  readonly playSeeds?: () => number;
  /** The agent protocol's bounds (heartbeat, silence, …); tests shorten them. */
  readonly agentBounds?: Partial<AgentBounds>;
  /** The live feed's signaling deadlines (tests shorten them). */
  readonly signalingTimings?: Partial<SignalingTimings>;
  /** The signaling deadlines' own clock (tests: a manual one); default the services' clock. */
  readonly signalingClock?: Clock;
  /** Wraps the station rooms' store (tests inject a slow or failing write). */
  readonly playStore?: (store: PlayStore) => PlayStore;
  /** Wraps the kuji box rooms' store (tests inject a slow or failing write). */
  readonly kujiStore?: (store: KujiBoxStore) => KujiBoxStore;
  /** Which rooms run here and whether this instance leads (R10-8); default: everything here. */
  readonly roomHost?: RoomHost;
  /** Where the other instances reach this one (the live feed's forwarding), once known. */
  readonly instanceUrl?: () => string | null;
  /** The instance's metrics (docs/operations.md "Metrics"); none: nothing is counted. */
  readonly metrics?: ServerMetrics;
  /** Where connections and plays are logged as events (the server's logger); none: not logged. */
  readonly events?: EventLog;
  /** The limits counted in the store (issue 46); default: one over `store`. */
  readonly limiter?: WindowLimiter;
}

/**
 * The play loop's events as the real-time hub sends them, and a station's status change also ends
 * the kept top pages (a prize change passes through the 'change' and 'open' statuses).
 */
function changingTopPages(events: PlayEvents, topPages: TopPageCache, onWin: () => void): PlayEvents {
  return {
    lineChanged: (stationId) => events.lineChanged(stationId),
    playState: (stationId, state) => events.playState(stationId, state),
    push: (userId, push) => events.push(userId, push),
    reserveCancelled: (userId, stationId, reason) => events.reserveCancelled(userId, stationId, reason),
    floorChanged: (stationId) => events.floorChanged(stationId),
    winner: (announcement) => {
      events.winner(announcement);
      onWin();
    },
    stationStatus: (stationId, status) => {
      topPages.invalidate();
      events.stationStatus(stationId, status);
    },
  };
}

/** The top page's answer per shop, kept until a station's status, the catalogue or time changes it. */
function topPagesOf(catalogue: CatalogueRepository, clock: Clock): TopPageCache {
  return new TopPageCache(async (key, now) => {
    if (!(await catalogue.shopExists(key.shopId))) throw new Refusal(404, 404, SERVER_MESSAGES.shopNotFound);
    const [page, validUntil] = await Promise.all([
      buildTopPage(catalogue, key.shopId, now, {
        showVirtualCrane: key.showVirtualCrane,
        ...(key.fesId ? { fesId: key.fesId } : {}),
      }),
      catalogue.nextTimedChange(key.shopId, now),
    ]);
    return { page, validUntil };
  }, clock);
}

export function createServices(
  store: Store,
  clock: Clock,
  io: SocketIOServer,
  config: ServerConfig,
  options: ServiceOptions = {},
): Services {
  const images = imageUrl(config.apiPrefix);
  const log = options.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const identity = new IdentityService(store, clock);
  const catalogue = new CatalogueRepository(store, images);
  const ledger = new Ledger(store, clock, { freeTcDays: config.freeTcDays });
  const limiter = options.limiter ?? new WindowLimiter(new StoreLimitCounts(store), clock, log);
  const dailyFree = new DailyFreePlays(store, clock);
  const addresses = new AddressesRepository(store, clock);
  const attempts = new AttemptLimits(new StoreAttemptLogs(store), clock, log);
  const verification = new VerificationService(store, clock, attempts);
  const vipGate = new VipGate(new StoreTcLedgerSource());
  const roomHost = options.roomHost ?? new LocalRoomHost();
  const { rooms, setPlayEvents, setKujiEvents, setMachines, setRecording } = createRooms({
    store,
    clock,
    config,
    ledger,
    dailyFree,
    vipGate,
    images,
    roomHost,
    log,
    playSeeds: options.playSeeds,
    playStore: options.playStore,
    kujiStore: options.kujiStore,
    metrics: options.metrics,
    events: options.events,
  });
  connectRooms(io, rooms, roomHost, { config, log });
  // The stations' machines through their agents (docs/agent-protocol.md).
  const stationKeys = new StationKeys(store, clock, log);
  const trusted = proxyaddr.compile([...config.trustProxy]);
  const machines = createMachineLink({
    clock,
    keys: stationKeys,
    rooms,
    io,
    distributed: roomHost.distributed,
    clientAddress: (request) => (request.socket.remoteAddress ? proxyaddr(request, trusted) : 'unknown'),
    log,
    ...(options.agentBounds ? { bounds: options.agentBounds } : {}),
  });
  setMachines(machines.commands);
  stationKeys.onRevoked(({ keyId }) => machines.revoked(keyId));
  // In memory, per instance: see MemoryAttemptLimiter.
  const controlRate = new MemoryAttemptLimiter(CONTROL_COMMANDS_PER_SECOND, 1_000, clock);
  const realtime = new RealtimeHub(
    io,
    identity,
    rooms,
    controlRate,
    store,
    config.realtimeChannel,
    log,
    { clock, distributed: roomHost.distributed },
    options.events ?? null,
  );
  const topPages = topPagesOf(catalogue, clock);
  const prizes = new PrizesRepository(store, clock, addresses, images, config.prizeStorageDays);
  const deliveryTickets = new DeliveryTickets();
  const deliveries = new DeliveryService(
    store,
    clock,
    ledger,
    prizes,
    addresses,
    deliveryTickets,
    () => realtime,
    (feeTc) => {
      options.metrics?.deliveryRequests.inc();
      if (feeTc > 0) options.metrics?.tcCharged.inc({ kind: 'delivery_fee', currency: 'tc' }, feeTc);
    },
  );
  const prizeStorage = new PrizeStorage(
    store,
    clock,
    ledger,
    addresses,
    deliveryTickets,
    deliveries,
    () => realtime,
    log,
  );
  const freeTcExpiry = new FreeTcExpiry(store, clock, ledger, () => realtime, log);
  const visitSweep = new VisitSweep(store, clock, () => realtime, log);
  setPlayEvents(changingTopPages(realtime, topPages, () => prizeStorage.poke()));
  setKujiEvents(realtime);
  const live = createLiveFeed({
    store,
    io,
    cameraLease: machines.cameras,
    clock,
    config,
    rooms,
    roomHost,
    log,
    instanceUrl: options.instanceUrl,
    signalingTimings: options.signalingTimings,
    signalingClock: options.signalingClock,
  });
  const clips = new PlayClips({
    store,
    clock,
    ffmpeg: live.rtcFeed.ffmpegPath,
    dir: config.clips.dir,
    maxBytes: config.clips.maxBytes,
    apiPrefix: config.apiPrefix,
    publicUrl: config.publicUrl,
    imageUrl: images,
    channelOf: (stationId, camera) => live.rtcFeed.existing(stationId, camera),
    log,
    distributed: roomHost.distributed,
  });
  setRecording(clips);
  const provider = new SimulatedPaymentProvider(store, clock, config.payment.providerSecret, log);
  const reconciliation = new Reconciliation(store, clock, provider, log, (run) => {
    options.events?.info({ day: run.day, mismatches: run.mismatches }, 'money reconciled');
  });
  const spendingLimits = new SpendingLimits(store, clock);
  const passwords = new PasswordService(store, clock, identity, verification, () => realtime, attempts);
  return {
    ...live,
    clock,
    store,
    io,
    identity,
    catalogue,
    imageVariants: new ImageVariants((key) => catalogue.image(key)),
    contents: new ContentsRepository(store, images),
    kujiCatalogue: new KujiRepository(store, images),
    users: new UsersRepository(store, clock),
    addresses,
    prizes,
    deliveries,
    prizeStorage,
    freeTcExpiry,
    visitSweep,
    dailyFree,
    ledger,
    verification,
    rewards: new RewardsService(store, clock, ledger, limiter),
    provider,
    spendingLimits,
    purchases: new PurchaseService(
      store,
      clock,
      ledger,
      config.target,
      provider,
      spendingLimits,
      config.payment.settlementTtlMs,
      log,
      (status) => options.metrics?.settlements.inc({ status }),
    ),
    auth: new AccountAuthService(store, clock, identity, ledger, verification, attempts),
    passwords,
    accountDeletion: new AccountDeletionService(
      store,
      clock,
      ledger,
      identity,
      passwords,
      () => realtime,
      (ids) => clips.removeFolders(ids),
    ),
    support: new SupportService(store, clock, () => realtime),
    vipGate,
    reservations: new StationReservations(store, catalogue, vipGate, clock, (ids) => {
      for (const id of ids) realtime.stationListChanged(id);
    }),
    rooms,
    setPlayEvents,
    setKujiEvents,
    controlRate,
    attempts,
    topPages,
    playLog: new PlayLogRepository(store),
    settingsHistory: new SettingsHistoryRepository(store),
    realtime,
    operators: new OperatorAccounts(store, clock),
    serviceMessages: new ServiceMessages(store, clock, ledger, () => realtime),
    stationKeys,
    agents: machines.gateway,
    agentViews: machines.views,
    kujiReservations: new KujiReservations(store, clock, config.kujiTimeLimits),
    clips,
    metrics: options.metrics ?? null,
    reconciliation,
  };
}
