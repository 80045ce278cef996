import { randomInt } from 'node:crypto';
import type { Server as SocketIOServer } from 'socket.io';
import type { Clock } from '../clock';
import type { ServerConfig } from '../config';
import { asRefusal } from '../http/route';
import { SqlKujiBoxStore, type KujiBoxStore } from '../kuji/kuji-box-store';
import { kujiKind, type KujiBoxEvents } from '../kuji/kuji-kind';
import { SERVER_MESSAGES } from '../messages';
import {
  NO_RECORDING,
  SILENT_PLAY_EVENTS,
  type PlayEvents,
  type PlayRecording,
  type PlayStore,
} from '../play/rooms/play-ports';
import { LedgerPlayLedger } from '../play/rooms/ledger-play-ledger';
import { SqlPlayStore } from '../play/rooms/sql-play-store';
import { meteredPlayStore } from '../metrics/metered-play-store';
import type { ServerMetrics } from '../metrics/server-metrics';
import type { EventLog } from '../logging/log-context';
import { stationKind, type MachineCommands } from '../play/rooms/station-kind';
import { ReserveGate } from '../play/reserve-gate';
import type { VipGate } from '../play/vip-gate';
import type { Rooms } from '../rooms/kinds';
import type { RoomHost } from '../rooms/room-host';
import { RoomRegistry } from '../rooms/room-registry';
import { serveRelayedEvents, socketRelay } from '../rooms/room-relay';
import type { Store } from '../store/store';
import type { DailyFreePlays } from '../wallet/daily-free-plays';
import type { Ledger } from '../wallet/ledger';

/** The instances' event for rooms given back (server-side): take them now. */
export const STATIONS_MOVED = 'onkure:stations-moved';

export interface RoomsDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly config: ServerConfig;
  readonly ledger: Ledger;
  readonly dailyFree: DailyFreePlays;
  readonly vipGate: VipGate;
  readonly images: (key: string) => string;
  readonly roomHost: RoomHost;
  readonly log: (message: string, error?: unknown) => void;
  /** Seeds of plays (tests pin them). */
  readonly playSeeds?: (() => number) | undefined;
  /** Wraps the station rooms' store (tests inject a slow or failing write). */
  readonly playStore?: ((store: PlayStore) => PlayStore) | undefined;
  /** Counts the plays, results and refunds once written (docs/operations.md "Metrics"). */
  readonly metrics?: ServerMetrics | undefined;
  /** Logs each play's start, result and refund (docs/operations.md "Logs"). */
  readonly events?: EventLog | undefined;
  /** Wraps the kuji box rooms' store (tests inject a slow or failing write). */
  readonly kujiStore?: ((store: KujiBoxStore) => KujiBoxStore) | undefined;
}

/**
 * The rooms of this instance (docs/architecture.md, "Rooms"): stations and kuji boxes over their
 * stores, owned as the room host says. Their events go where `setPlayEvents` / `setKujiEvents` say
 * (the realtime hub, once it exists).
 */
export function createRooms(deps: RoomsDeps) {
  const { store, clock, config, ledger, images, roomHost, log } = deps;
  const sqlPlayStore = new SqlPlayStore(
    store,
    clock,
    new LedgerPlayLedger(ledger, deps.dailyFree),
    new ReserveGate(deps.vipGate, ledger, deps.dailyFree),
    config.prizeStorageDays,
  );
  const playStore =
    deps.metrics || deps.events
      ? meteredPlayStore(sqlPlayStore, deps.metrics ?? null, deps.events ?? null)
      : sqlPlayStore;
  const kujiStore = new SqlKujiBoxStore(store, ledger, images, config.kujiTimeLimits, config.prizeStorageDays);
  let playEvents: PlayEvents = SILENT_PLAY_EVENTS;
  let kujiEvents: KujiBoxEvents = SILENT_PLAY_EVENTS;
  // Until the agent gateway is wired, no machine is driven by an agent.
  let machines: MachineCommands = { command: async () => false, known: () => undefined };
  // Until the live feed is wired, no play is recorded.
  let recording: PlayRecording = NO_RECORDING;
  const rooms: Rooms = new RoomRegistry(
    {
      station: stationKind({
        store: deps.playStore ? deps.playStore(playStore) : playStore,
        events: () => playEvents,
        log,
        newSeed: deps.playSeeds ?? (() => randomInt(0, 2 ** 31 - 1)),
        machines: () => machines,
        recording: () => recording,
      }),
      kuji: kujiKind({ store: deps.kujiStore ? deps.kujiStore(kujiStore) : kujiStore, events: () => kujiEvents }),
    },
    {
      clock,
      log,
      ownership: {
        distributed: roomHost.distributed,
        owns: (id) => roomHost.owns(id),
        claim: (id) => roomHost.claim(id),
      },
    },
  );
  return {
    rooms,
    setPlayEvents: (events: PlayEvents) => void (playEvents = events),
    setKujiEvents: (events: KujiBoxEvents) => void (kujiEvents = events),
    setMachines: (commands: MachineCommands) => void (machines = commands),
    setRecording: (recorder: PlayRecording) => void (recording = recorder),
  };
}

/**
 * The rooms between instances: events for rooms (or players) of other instances reach them as
 * data and come back with their answer (or refusal); a malformed event is refused by every
 * instance; an instance that gave rooms back has the others balance at once.
 */
export function connectRooms(
  io: SocketIOServer,
  rooms: Rooms,
  roomHost: RoomHost,
  deps: Pick<RoomsDeps, 'config' | 'log'>,
): void {
  rooms.setRelay(socketRelay(io));
  serveRelayedEvents(io, rooms, {
    refusalOf: asRefusal,
    // The development rig runs only where development calls are on, relayed or not.
    allows: (event) => deps.config.devCalls || (event as { type?: unknown } | null)?.type !== 'rig',
    refusedInfo: SERVER_MESSAGES.relayRefused,
    log: deps.log,
  });
  io.on(STATIONS_MOVED, () => roomHost.rebalance());
}
