import type { Server as SocketIOServer } from 'socket.io';
import { AddressesRepository } from './account/addresses.repository';
import { PrizesRepository } from './delivery/prizes.repository';
import { DeliveryTickets } from './delivery/delivery-tickets';
import { DeliveryService } from './delivery/delivery.service';
import { PrizeStorage } from './delivery/prize-storage';
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
import { KujiDraws } from './kuji/kuji-draws';
import { KujiLine } from './kuji/kuji-line';
import { RtcFeed } from './live/rtc-feed';
import { SignalingServer, type SignalingTimings } from './live/signaling';
import { originAllowed } from './http/security-headers';
import proxyaddr from '@fastify/proxy-addr';
import { FeedOwners } from './live/feed-forward';
import { OperatorAccounts } from './operator/operator-accounts';
import { PlayLogRepository } from './play/play-log.repository';
import { StationCameras } from './play/cameras/station-cameras';
import { CameraPainter } from './play/cameras/camera-painter';
import { randomInt } from 'node:crypto';
import type { PlayEvents, PlayStore } from './play/rooms/play-ports';
import { LedgerPlayLedger } from './play/rooms/ledger-play-ledger';
import { SqlPlayStore } from './play/rooms/sql-play-store';
import { NOT_HERE, StationRooms, type RoomRelay } from './play/rooms/station-rooms';
import { LocalStationHost, type StationHost } from './play/rooms/station-host';
import { ReserveGate } from './play/reserve-gate';
import { isRefusal, Refusal } from './play/refusal';
import { SERVER_MESSAGES } from './messages';
import { RealtimeHub } from './realtime/realtime-hub';
import { ServiceMessages } from './operator/service-messages';
import { StationReservations } from './play/station-reservations';
import { StoreTcLedgerSource, VipGate } from './play/vip-gate';
import { imageUrl } from './catalogue/image-url';
import type { Store } from './store/store';
import { Ledger } from './wallet/ledger';
import { PurchaseService } from './wallet/purchase.service';
import { SpendingLimits } from './wallet/spending-limits';
import { SimulatedPaymentProvider } from './payment/provider/simulated-provider';
import { SupportService } from './support/support.service';

/** The instances' event for a kuji line changed on a standby (server-side, never a client's). */
const KUJI_LINE_RELAY = 'onkure:kuji-line';
/** The instances' event for a room call made on a standby (server-side, never a client's). */
const ROOM_RELAY = 'onkure:room';
/** The instances' event for stations given back (server-side): take them now. */
export const STATIONS_MOVED = 'onkure:stations-moved';

/** Each instance's answer to a relayed room call: only the one the call is for carries one. */
type RelayAnswer =
  | { owner: false }
  | { owner: true; value: unknown }
  | { owner: true; refusal: [Refusal['status'], number, string, Record<string, unknown>] }
  | { owner: true; failed: true };

/**
 * An instance's way to the room a call is for (R10-8): the call goes to every instance over the
 * adapter's server-side channel; the instance running the station (or holding the user's place)
 * answers with the result or its refusal, the others with owner: false. None answering: the caller
 * decides (it takes the station, or answers as for a player with no place).
 */
function relayToOwner(io: SocketIOServer): RoomRelay {
  return {
    async call(method, args) {
      // The adapter waits for every instance it knows, up to 5 s; on that timeout the answers that
      // came are kept (an instance that just died cannot hide the owner's answer).
      const [answers, complete] = await new Promise<[RelayAnswer[], boolean]>((resolve) => {
        io.serverSideEmit(ROOM_RELAY, { method, args }, (error: Error | null, responses: RelayAnswer[]) =>
          resolve([Array.isArray(responses) ? responses : [], !error]),
        );
      });
      const fromOwner = answers.find((a) => a?.owner === true);
      // Not every instance answered in time: the one running the call may still run it.
      if (!fromOwner) return { answered: false, complete };
      if ('refusal' in fromOwner) throw new Refusal(...fromOwner.refusal);
      if ('failed' in fromOwner) throw new Error(`the room's instance failed the relayed ${method}`);
      return { answered: true, value: fromOwner.value };
    },
  };
}

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
  /** The station rooms: one per station, owning its line, turn, play and timers (docs/play.md). */
  readonly rooms: StationRooms;
  /** The top page's answer per shop, kept until a station's status, the catalogue or time changes it. */
  readonly topPages: TopPageCache;
  readonly playLog: PlayLogRepository;
  /** The real-time socket's channels and events (spec §7); the play loop pushes through it. */
  readonly realtime: RealtimeHub;
  /** The stations' front and side cameras, rendered from the simulation. */
  readonly cameras: StationCameras;
  /** The rtc live feed's encoders, one per watched camera (docs/live-feed.md). */
  readonly rtcFeed: RtcFeed;
  /** Operator accounts, sessions and the audit log (R10-9, docs/operator-console.md). */
  readonly operators: OperatorAccounts;
  /** Service messages, the emergency maintenance and suspended users (docs/operator-console.md). */
  readonly serviceMessages: ServiceMessages;
  /** Where each station's live feed is drawn (several instances): forwarded to the instance running it. */
  readonly feedOwners: FeedOwners;
  /** The rtc feed's Sora-compatible signaling (attached to the HTTP server when webrtc_url is a path). */
  readonly signaling: SignalingServer;
  readonly kujiReservations: KujiReservations;
  /** The kuji draw and its provable fairness. */
  readonly kujiDraws: KujiDraws;
  /** The holders' windows of the kuji lines, expired and handed over by the server. */
  readonly kujiLine: KujiLine;
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
  /** The live feed's signaling deadlines (tests shorten them). */
  readonly signalingTimings?: Partial<SignalingTimings>;
  /** The signaling deadlines' own clock (tests: a manual one); default the services' clock. */
  readonly signalingClock?: Clock;
  /** Wraps the station rooms' store (tests inject a slow or failing write). */
  readonly playStore?: (store: PlayStore) => PlayStore;
  /** Which stations run here and whether this instance leads (R10-8); default: everything here. */
  readonly stationHost?: StationHost;
  /** Where the other instances reach this one (the live feed's forwarding), once known. */
  readonly instanceUrl?: () => string | null;
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

export function createServices(
  store: Store,
  clock: Clock,
  io: SocketIOServer,
  config: ServerConfig,
  options: ServiceOptions = {},
): Services {
  const images = imageUrl(config.apiPrefix);
  const identity = new IdentityService(store, clock);
  const catalogue = new CatalogueRepository(store, images);
  const ledger = new Ledger(store, clock);
  const addresses = new AddressesRepository(store, clock);
  const verification = new VerificationService(store, clock);
  const vipGate = new VipGate(new StoreTcLedgerSource());
  const log = options.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const sqlPlayStore = new SqlPlayStore(
    store,
    clock,
    new LedgerPlayLedger(ledger),
    new ReserveGate(vipGate, ledger),
    config.prizeStorageDays,
  );
  const playStore = options.playStore ? options.playStore(sqlPlayStore) : sqlPlayStore;
  const stationHost = options.stationHost ?? new LocalStationHost();
  const rooms = new StationRooms(playStore, clock, log, options.playSeeds ?? (() => randomInt(0, 2 ** 31 - 1)), {
    distributed: stationHost.distributed,
    owns: (stationId) => stationHost.owns(stationId),
    claim: (stationId) => stationHost.claim(stationId),
  });
  const reservations = new StationReservations(store, catalogue, vipGate, clock, rooms);
  const realtime = new RealtimeHub(io, identity, rooms, store, config.realtimeChannel, log);
  const topPages = new TopPageCache(async (key, now) => {
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
  const prizes = new PrizesRepository(store, clock, addresses, images, config.prizeStorageDays);
  const deliveryTickets = new DeliveryTickets();
  const deliveries = new DeliveryService(store, clock, ledger, prizes, addresses, deliveryTickets, () => realtime);
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
  rooms.setEvents(changingTopPages(realtime, topPages, () => prizeStorage.poke()));
  const kujiDraws = new KujiDraws(store, clock, ledger, images, config.kujiTimeLimits, config.prizeStorageDays);
  kujiDraws.onBoxEnded = (kujiId, boxId) => realtime.kujiBoxEnded(kujiId, boxId);
  const hosting = () => stationHost.hosting;
  const kujiLine = new KujiLine(store, clock, realtime, config.kujiTimeLimits, {
    hosting,
    relay: (boxId) => io.serverSideEmit(KUJI_LINE_RELAY, boxId),
  });
  // Room calls for stations (or players) of other instances reach them and come back with their
  // answer (or refusal). A malformed call is refused by every instance.
  rooms.setRelay(relayToOwner(io));
  io.on(ROOM_RELAY, (call: unknown, ack: unknown) => {
    if (typeof ack !== 'function') return;
    const answer = ack as (a: RelayAnswer) => void;
    const { method, args } = (call ?? {}) as { method?: unknown; args?: unknown };
    // The development rig runs only where development calls are on, relayed or not.
    if (method === 'rigNextPlay' && !config.devCalls)
      return answer({ owner: true, refusal: [400, 400, SERVER_MESSAGES.relayRefused, {}] });
    rooms.relayed(method, args).then(
      (value) => answer(value === NOT_HERE ? { owner: false } : { owner: true, value }),
      (error: unknown) => {
        if (isRefusal(error))
          return answer({ owner: true, refusal: [error.status, error.code, error.info, { ...error.extra }] });
        log('relayed room call failed', error);
        return answer({ owner: true, failed: true });
      },
    );
  });
  // An instance gave stations back (an instance joined): the others balance now, not on their next round.
  io.on(STATIONS_MOVED, () => stationHost.rebalance());
  // A standby's line change reaches the host's timers over the instances' channel (only instances
  // on the database can publish there); anything but a box id or null is ignored.
  io.on(KUJI_LINE_RELAY, (boxId: unknown) => {
    if (!hosting()) return;
    if (boxId === null) void kujiLine.changed();
    else if (Number.isSafeInteger(boxId) && (boxId as number) > 0) void kujiLine.changed(boxId as number);
  });
  const kujiReservations = new KujiReservations(store, clock, config.kujiTimeLimits);
  kujiReservations.onLineChanged = (kujiId, boxId, newHolder) => void kujiLine.boxChanged(kujiId, boxId, newHolder);
  kujiDraws.onDrawn = (boxId) => void kujiLine.changed(boxId);
  const cameras = new StationCameras(
    store,
    rooms,
    clock,
    config.apiPrefix,
    config.webrtcSignalingUrl,
    new CameraPainter((message) => log(message)),
  );
  const feedOwners = new FeedOwners(store, stationHost, clock, options.instanceUrl ?? (() => null));
  const trusted = proxyaddr.compile([...config.trustProxy]);
  const rtcFeed = new RtcFeed(cameras, { ...config.feed, clock, ffmpeg: config.feed.ffmpegPath });
  rooms.onMachineTick((stationId) => rtcFeed.machineTicked(stationId));
  const provider = new SimulatedPaymentProvider(store, clock, config.payment.providerSecret, log);
  const spendingLimits = new SpendingLimits(store, clock);
  const passwords = new PasswordService(store, clock, identity, verification, () => realtime);
  return {
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
    ledger,
    verification,
    rewards: new RewardsService(store, clock, ledger),
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
    ),
    auth: new AccountAuthService(store, clock, identity, ledger, verification),
    passwords,
    accountDeletion: new AccountDeletionService(store, clock, ledger, identity, passwords, () => realtime),
    support: new SupportService(store, clock, () => realtime),
    vipGate,
    reservations,
    rooms,
    topPages,
    playLog: new PlayLogRepository(store),
    realtime,
    cameras,
    operators: new OperatorAccounts(store, clock),
    serviceMessages: new ServiceMessages(store, clock, ledger, () => realtime),
    feedOwners,
    rtcFeed,
    signaling: new SignalingServer(rtcFeed, cameras, {
      clock: options.signalingClock ?? clock,
      path: config.webrtcSignalingUrl,
      maxConnectionsPerClient: config.feed.maxConnectionsPerClient,
      iceHosts: config.feed.iceHosts,
      originAllowed: (request) => originAllowed(request, config),
      clientAddress: (request) => (request.socket.remoteAddress ? proxyaddr(request, trusted) : 'unknown'),
      ...(stationHost.distributed ? { owners: feedOwners } : {}),
      log: (message) => log(message),
      ...(options.signalingTimings ? { timings: options.signalingTimings } : {}),
    }),
    kujiReservations,
    kujiDraws,
    kujiLine,
  };
}
