import { PLAY_ERROR, type MachineView, type PlayState } from '../../../src/contract';
import {
  CONTROL_COMMANDS_PER_SECOND,
  holderOf,
  initialField,
  restoreRoom,
  roomUsers,
  type CraneButton,
  type CraneCommand,
  type CranePrize,
  type CraneState,
  type PrizeChange,
  type RoomAnswer,
  type RoomEvent,
  type RoomRefusal,
  type RoomSnapshot,
  type StationStatus,
} from '../../../src/domain';
import type { Clock } from '../../clock';
import { SERVER_MESSAGES } from '../../messages';
import { Refusal } from '../refusal';
import { SILENT_PLAY_EVENTS, type PlayEvents, type PlayStore } from './play-ports';
import { StationRoom } from './station-room';

/** Each room refusal as the player reads it: an HTTP status, the error_code and a Japanese error_info. */
function refusalOf(refusal: RoomRefusal, stationId: number): Refusal {
  switch (refusal) {
    case 'notYourTurn':
      return new Refusal(409, 409, SERVER_MESSAGES.notYourTurn);
    case 'notYourPlay':
      return new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
    case 'buttonNotReady':
      return new Refusal(409, 409, SERVER_MESSAGES.buttonNotReady);
    case 'continueClosed':
      return new Refusal(409, 409, SERVER_MESSAGES.continueClosed);
    case 'playingNow':
      return new Refusal(409, 409, SERVER_MESSAGES.stationPlayingNow);
    case 'stationMaintenance':
      return new Refusal(200, PLAY_ERROR.maintenance.code, PLAY_ERROR.maintenance.info, { station_id: stationId });
    case 'prizeChanging':
      return new Refusal(409, 409, SERVER_MESSAGES.stationPrizeChange);
    case 'soldOut':
      return new Refusal(409, 409, SERVER_MESSAGES.stationSoldOut);
    case 'alreadyInLine':
      return new Refusal(409, 409, SERVER_MESSAGES.alreadyReservedHere);
    case 'reservationNotFound':
      return new Refusal(404, 404, SERVER_MESSAGES.reservationNotFound);
  }
}

/** The room calls a standby instance hands to the station host (R10-8, docs/deployment.md). */
export const RELAYED_ROOM_CALLS = [
  'join',
  'leave',
  'confirm',
  'control',
  'continuePlay',
  'finishTurn',
  'current',
  'playerAway',
  'playerBack',
  'stationView',
  'setStationStatus',
  'restock',
  'setArmStrength',
  'changePrize',
  'rigNextPlay',
] as const;
export type RelayedRoomCall = (typeof RELAYED_ROOM_CALLS)[number];

/** How a standby reaches the host: the call and its arguments; the host's answer or its refusal. */
export interface RoomRelay {
  call(method: RelayedRoomCall, args: readonly unknown[]): Promise<unknown>;
}

/**
 * The station rooms of this server (docs/play.md, "Station rooms"): one room per station, loaded
 * from the store at start (each resumed where it was) and lazily for a station added later. The
 * rooms share nothing but the store; this registry only routes a call to its room (a user's calls
 * to the room where the user has a place, kept in an index the rooms update after each step) and
 * turns room answers into HTTP answers.
 */
export class StationRooms {
  private readonly rooms = new Map<number, StationRoom>();
  private readonly loading = new Map<number, Promise<StationRoom | null>>();
  /** user → the station where the user waits or holds the turn (one place per user). */
  private readonly places = new Map<number, number>();
  private readonly indexed = new Map<number, readonly number[]>();
  private readonly commandTimes = new Map<number, number[]>();
  private readonly tickListeners = new Set<(stationId: number) => void>();
  private events: PlayEvents = SILENT_PLAY_EVENTS;
  /** Development only: the seed a station's next play takes (one each), for a reproducible play. */
  private readonly rigged = new Map<number, number>();

  constructor(
    private readonly store: PlayStore,
    private readonly clock: Clock,
    private readonly log: (message: string, error?: unknown) => void,
    private readonly newSeed: () => number,
    /** Whether this instance runs the rooms now (the station host, R10-8); a standby refuses room calls. */
    private readonly hosting: () => boolean = () => true,
  ) {}

  private relay: RoomRelay | null = null;

  /** How this instance reaches the station host when it is a standby (several instances). */
  setRelay(relay: RoomRelay): void {
    this.relay = relay;
  }

  /** A standby instance runs no room: a call that needs one is refused, and nothing is loaded. */
  private requireHost(): void {
    if (!this.hosting()) throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
  }

  /** On a standby: the call goes to the host (503 in Japanese when there is none to reach). */
  private forward<T>(method: RelayedRoomCall, args: readonly unknown[]): Promise<T> {
    if (!this.relay) return Promise.reject(new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance));
    return this.relay.call(method, args) as Promise<T>;
  }

  /**
   * The host runs a call a standby relayed. Only the calls of RELAYED_ROOM_CALLS, with at most four
   * arguments; each call checks its own arguments' meaning as it does for a local caller.
   */
  async relayed(method: unknown, args: unknown): Promise<unknown> {
    if (typeof method !== 'string' || !(RELAYED_ROOM_CALLS as readonly string[]).includes(method))
      throw new Refusal(400, 400, SERVER_MESSAGES.relayRefused);
    if (!Array.isArray(args) || args.length > 4) throw new Refusal(400, 400, SERVER_MESSAGES.relayRefused);
    this.requireHost();
    const call = this[method as RelayedRoomCall] as (...a: unknown[]) => unknown;
    return (await call.apply(this, args)) ?? null;
  }

  /** The realtime hub, once it exists (it needs the rooms for controls). */
  setEvents(events: PlayEvents): void {
    this.events = events;
  }

  /** Calls `listener` with the station each time a running machine moves one tick. Returns the unsubscribe. */
  onMachineTick(listener: (stationId: number) => void): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  /** At start: every station's room from the store, each resumed where it was (deadlines at their stored instants). */
  async start(): Promise<void> {
    const snapshots = await this.store.loadRooms();
    for (const snapshot of snapshots) await this.build(snapshot);
  }

  private async build(snapshot: RoomSnapshot): Promise<StationRoom> {
    const id = snapshot.station.stationId;
    const room = new StationRoom(id, restoreRoom(snapshot, this.clock.now().getTime()).state, {
      store: this.store,
      clock: this.clock,
      events: () => this.events,
      log: this.log,
      newSeed: () => this.takeSeed(id),
      stepped: (r) => this.reindex(r),
      machineTicked: (stationId) => {
        for (const listener of this.tickListeners) listener(stationId);
      },
    });
    this.rooms.set(id, room);
    await room.open(snapshot);
    return room;
  }

  private takeSeed(stationId: number): number {
    const rigged = this.rigged.get(stationId);
    if (rigged === undefined) return this.newSeed();
    this.rigged.delete(stationId);
    return rigged;
  }

  /**
   * Development only (the dev call behind ONKURE_DEV_CALLS): the station's next play takes `seed`,
   * and the prizes lying on its field now are answered, so an end-to-end test can aim and win.
   */
  async rigNextPlay(stationId: number, seed: number): Promise<readonly CranePrize[]> {
    if (!this.hosting()) return this.forward('rigNextPlay', [stationId, seed]);
    const room = await this.room(stationId);
    this.rigged.set(stationId, seed);
    const state = room.current;
    return (state.field ?? initialField(state.station)).prizes;
  }

  /** A station's room; a station added after the start is loaded on first use. 404 when there is none. */
  private async room(stationId: number): Promise<StationRoom> {
    this.requireHost();
    const loaded = this.rooms.get(stationId);
    if (loaded) return loaded;
    let pending = this.loading.get(stationId);
    if (!pending) {
      pending = this.store.loadRooms([stationId]).then(([snapshot]) => (snapshot ? this.build(snapshot) : null));
      this.loading.set(stationId, pending);
      void pending.finally(() => this.loading.delete(stationId)).catch(() => undefined);
    }
    const room = await pending;
    if (!room) throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    return room;
  }

  /** Keeps the who-is-where index after a room's step. */
  private reindex(room: StationRoom): void {
    const before = this.indexed.get(room.stationId) ?? [];
    const after = roomUsers(room.current);
    if (before.length === after.length && before.every((u, i) => u === after[i])) return;
    for (const user of before) if (this.places.get(user) === room.stationId) this.places.delete(user);
    for (const user of after) this.places.set(user, room.stationId);
    this.indexed.set(room.stationId, after);
  }

  /** The room where a user has a place, or null. */
  private roomOf(userId: number): StationRoom | null {
    this.requireHost();
    const stationId = this.places.get(userId);
    return stationId === undefined ? null : (this.rooms.get(stationId) ?? null);
  }

  private async ask(room: StationRoom, event: RoomEvent): Promise<RoomAnswer> {
    const answer = await room.dispatch(event);
    if (answer.kind === 'refused') throw refusalOf(answer.refusal, room.stationId);
    return answer;
  }

  /** The caller's play in this room, or null. */
  private playOf(room: StationRoom, userId: number): PlayState | null {
    return holderOf(room.current.turn)?.userId === userId ? room.playView() : null;
  }

  // ---- the line ------------------------------------------------------------------------------

  /**
   * Joins a station's line: 404 for a station of another shop, 531 in maintenance, 409 during a
   * prize change or when sold out, then the player's checks (the VIP gate, TC, one place at a time).
   */
  async join(userId: number, stationId: number, shopId?: number): Promise<void> {
    if (!this.hosting()) return this.forward('join', [userId, stationId, shopId]);
    const room = await this.room(stationId);
    // A relayed call carries an absent shop as null.
    if (shopId !== undefined && shopId !== null && room.current.station.shopId !== shopId)
      throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    await this.ask(room, { type: 'join', userId });
  }

  /**
   * Gives up the caller's place at a station setting (waiting, or a turn not yet confirmed); 404
   * when the caller holds none there; 409 for a paid play in progress (it ends with its result).
   */
  async leave(userId: number, shopId: number, settingId: number): Promise<{ play_reserve_id: number }> {
    if (!this.hosting()) return this.forward('leave', [userId, shopId, settingId]);
    const room = this.roomOf(userId);
    if (!room || room.current.station.shopId !== shopId)
      throw new Refusal(404, 404, SERVER_MESSAGES.reservationNotFound);
    const holder = holderOf(room.current.turn);
    const place =
      holder?.userId === userId
        ? holder
        : room.current.line.find((w) => w.userId === userId && w.settingId === settingId);
    await this.ask(room, { type: 'leave', userId, settingId });
    return { play_reserve_id: place?.reserveId ?? 0 };
  }

  // ---- the play ------------------------------------------------------------------------------

  /** The player takes the turn: the play is charged and the claw resets. 409 when it is not their turn. */
  async confirm(userId: number, stationId: number): Promise<PlayState> {
    if (!this.hosting()) return this.forward('confirm', [userId, stationId]);
    const room = await this.room(stationId);
    await this.ask(room, { type: 'confirm', userId });
    return this.playOf(room, userId)!;
  }

  /**
   * A button press or release. Refused: over 25 commands a second (429, counted before anything
   * else), not the player's play (403), not the button's moment (409). A player away from the play
   * is back with it.
   */
  async control(
    userId: number,
    playId: number,
    button: CraneButton,
    command: CraneCommand,
  ): Promise<{ tick: number; machine: MachineView }> {
    if (!this.hosting()) return this.forward('control', [userId, playId, button, command]);
    this.countCommand(userId);
    const room = this.roomOf(userId);
    if (!room) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
    const answer = await this.ask(room, { type: 'control', userId, playId, button, command });
    if (answer.kind !== 'control') throw new Error(`control answered ${answer.kind}`);
    return { tick: answer.tick, machine: answer.machine };
  }

  private countCommand(userId: number): void {
    const now = this.clock.now().getTime();
    const times = (this.commandTimes.get(userId) ?? []).filter((t) => now - t < 1000);
    times.push(now);
    this.commandTimes.set(userId, times);
    if (this.commandTimes.size > 10_000) {
      for (const [user, at] of this.commandTimes) if (now - at[at.length - 1]! >= 1000) this.commandTimes.delete(user);
    }
    if (times.length > CONTROL_COMMANDS_PER_SECOND) throw new Refusal(429, 429, SERVER_MESSAGES.controlTooFast);
  }

  /** The same player plays again within the continue window (charged again). */
  async continuePlay(userId: number, playId: number): Promise<PlayState> {
    if (!this.hosting()) return this.forward('continuePlay', [userId, playId]);
    const room = this.roomOf(userId);
    if (!room) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
    await this.ask(room, { type: 'continue', userId, playId });
    return this.playOf(room, userId)!;
  }

  /** The player ends their turn after a result (instead of waiting for the window to close). */
  async finishTurn(userId: number, playId: number): Promise<void> {
    if (!this.hosting()) return this.forward('finishTurn', [userId, playId]);
    const room = this.roomOf(userId);
    if (!room) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
    await this.ask(room, { type: 'finish', userId, playId });
  }

  /** The caller's play on any machine, or null. A player in a grace window is back. */
  async current(userId: number): Promise<PlayState | null> {
    if (!this.hosting()) return this.forward('current', [userId]);
    const room = this.roomOf(userId);
    if (!room) return null;
    await this.ask(room, { type: 'look', userId });
    return this.playOf(room, userId);
  }

  /** The player's last connection closed: a running play waits for them (the grace window). */
  playerAway(userId: number): void {
    if (!this.hosting()) return void this.forward('playerAway', [userId]).catch(() => undefined);
    this.tell(userId, { type: 'away', userId });
  }

  /** The player has a connection again: a play waiting in its grace window runs on. */
  playerBack(userId: number): void {
    if (!this.hosting()) return void this.forward('playerBack', [userId]).catch(() => undefined);
    this.tell(userId, { type: 'back', userId });
  }

  private tell(userId: number, event: RoomEvent): void {
    const room = this.roomOf(userId);
    room?.dispatch(event).catch((error: unknown) => this.log('station room step failed', error));
  }

  // ---- reading -------------------------------------------------------------------------------

  /** The play on a station's machine as viewers see it, or null when it is idle (this instance's rooms only). */
  onStation(stationId: number): PlayState | null {
    return this.rooms.get(stationId)?.playView() ?? null;
  }

  /** The same, from the host when this instance is a standby (a viewer joining a station's channel). */
  async stationView(stationId: number): Promise<PlayState | null> {
    if (!this.hosting()) return this.forward('stationView', [stationId]);
    return this.onStation(stationId);
  }

  /** What the cameras draw for a station: the running machine, or null (the stored field). */
  machineOf(stationId: number): CraneState | null {
    const turn = this.rooms.get(stationId)?.current.turn;
    return turn && 'play' in turn ? turn.play.machine : null;
  }

  // ---- the operator --------------------------------------------------------------------------

  private async operate(stationId: number, event: RoomEvent): Promise<{ refunded_play_id: number | null }> {
    if (!this.hosting()) {
      const [method, args]: [RelayedRoomCall, unknown[]] =
        event.type === 'setStatus'
          ? ['setStationStatus', [stationId, event.status]]
          : event.type === 'restock'
            ? ['restock', [stationId, event.stock]]
            : event.type === 'setArmStrength'
              ? ['setArmStrength', [stationId, event.armStrength]]
              : event.type === 'changePrize'
                ? ['changePrize', [stationId, event.prize]]
                : ['setStationStatus', []];
      const answer = await this.forward<{ refunded_play_id: number | null } | null>(method, args);
      return { refunded_play_id: answer?.refunded_play_id ?? null };
    }
    const answer = await this.ask(await this.room(stationId), event);
    return { refunded_play_id: answer.kind === 'operator' ? answer.refundedPlayId : null };
  }

  /**
   * Sets a station's status. Maintenance statuses and 'change' end the play on the machine
   * (refunded exactly once when it had not finished) and the line ('cancel', or 'change' for a prize
   * change); 'open' hands the turn to the head of the line again.
   */
  setStationStatus(stationId: number, status: StationStatus): Promise<{ refunded_play_id: number | null }> {
    return this.operate(stationId, { type: 'setStatus', status });
  }

  /** A fault on the machine: the play is refunded once, the station goes to malfunction. */
  fault(stationId: number): Promise<{ refunded_play_id: number | null }> {
    return this.setStationStatus(stationId, 'malfunction');
  }

  /** Sets a station's stock (the operator restocks); 0 ends the line with 'change', more takes it on. */
  async restock(stationId: number, stock: number): Promise<void> {
    await this.operate(stationId, { type: 'restock', stock });
  }

  /** Sets a station's base arm strength (published in each play's log from then on). */
  async setArmStrength(stationId: number, armStrength: number): Promise<void> {
    await this.operate(stationId, { type: 'setArmStrength', armStrength });
  }

  /**
   * A new prize on a station: the play on the machine ends (refunded if unfinished) and the line
   * ends with 'change' [R4.3-3]; the station gets a new setting, a fresh field, the new name, shape
   * and stock; then it opens again.
   */
  changePrize(stationId: number, prize: PrizeChange): Promise<{ refunded_play_id: number | null }> {
    return this.operate(stationId, { type: 'changePrize', prize });
  }

  // ---- lifetime ------------------------------------------------------------------------------

  /** Resolves when every room has run what is queued (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      await Promise.all([...this.rooms.values()].map((r) => r.idle()));
      await Promise.all([...this.loading.values()]);
      if (this.loading.size === 0) return;
    }
  }

  /** Stops every room's timer and waits for its queued work; the store keeps the deadlines. */
  async close(): Promise<void> {
    await Promise.all([...this.rooms.values()].map((r) => r.close()));
  }
}
