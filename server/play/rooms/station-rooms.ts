import { z } from 'zod/mini';
import { CRANE_BUTTONS, CRANE_COMMANDS, PLAY_ERROR, type MachineView, type PlayState } from '../../../src/contract';
import {
  operatorArmStrengthSchema,
  operatorChangePrizeSchema,
  operatorRestockSchema,
} from '../../../src/contract/operator.schema';
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
  STATION_STATUSES,
} from '../../../src/domain';
import type { Clock } from '../../clock';
import { SERVER_MESSAGES } from '../../messages';
import { Refusal } from '../refusal';
import { SILENT_PLAY_EVENTS, type PlayEvents, type PlayStore } from './play-ports';
import { RoomClosed, StationRoom } from './station-room';

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
    case 'stationPaused':
      return new Refusal(409, 409, SERVER_MESSAGES.stationPaused);
    case 'noPlay':
      return new Refusal(409, 409, SERVER_MESSAGES.stationNoPlay);
  }
}

/** The room calls an instance hands to the instance running the room (R10-8, docs/deployment.md). */
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
  'endPlay',
  'removeFromLine',
  'pause',
  'rigNextPlay',
] as const;
export type RelayedRoomCall = (typeof RELAYED_ROOM_CALLS)[number];

/**
 * Which instance a relayed call is for: the one running the station its argument names, or the
 * one where the user its argument names has a place (the argument's index).
 */
const CALL_KEYS: Record<RelayedRoomCall, { readonly station: number } | { readonly user: number }> = {
  join: { station: 1 },
  leave: { user: 0 },
  confirm: { station: 1 },
  control: { user: 0 },
  continuePlay: { user: 0 },
  finishTurn: { user: 0 },
  current: { user: 0 },
  playerAway: { user: 0 },
  playerBack: { user: 0 },
  stationView: { station: 0 },
  setStationStatus: { station: 0 },
  restock: { station: 0 },
  setArmStrength: { station: 0 },
  changePrize: { station: 0 },
  endPlay: { station: 0 },
  removeFromLine: { station: 0 },
  pause: { station: 0 },
  rigNextPlay: { station: 0 },
};

const anyId = z
  .int()
  .check(z.gte(0))
  .check(z.lte(2 ** 31 - 1));
/**
 * The arguments each relayed call takes, checked before anything runs: a relayed call is a message
 * between instances, and any role on the database can publish one (docs/deployment.md).
 */
const RELAY_ARGS: Record<RelayedRoomCall, z.ZodMiniType> = {
  join: z.tuple([anyId, anyId, z.nullable(anyId)]),
  leave: z.tuple([anyId, anyId, anyId]),
  confirm: z.tuple([anyId, anyId]),
  control: z.tuple([anyId, anyId, z.enum(CRANE_BUTTONS), z.enum(CRANE_COMMANDS)]),
  continuePlay: z.tuple([anyId, anyId]),
  finishTurn: z.tuple([anyId, anyId]),
  current: z.tuple([anyId]),
  playerAway: z.tuple([anyId]),
  playerBack: z.tuple([anyId]),
  stationView: z.tuple([anyId]),
  setStationStatus: z.tuple([anyId, z.enum(STATION_STATUSES)]),
  restock: z.tuple([anyId, operatorRestockSchema.shape.stock]),
  setArmStrength: z.tuple([anyId, operatorArmStrengthSchema.shape.arm_strength]),
  changePrize: z.tuple([
    anyId,
    z.strictObject({
      prizeName: operatorChangePrizeSchema.shape.prize_name,
      prizeShape: operatorChangePrizeSchema.shape.prize_shape,
      stock: operatorChangePrizeSchema.shape.stock,
      armStrength: z.nullable(operatorChangePrizeSchema.shape.arm_strength),
    }),
  ]),
  endPlay: z.tuple([anyId, anyId]),
  removeFromLine: z.tuple([anyId, anyId]),
  pause: z.tuple([anyId, z.boolean()]),
  rigNextPlay: z.tuple([anyId, anyId]),
};

/** The answer of a relayed call: from the instance it was for, or none (no instance runs it). */
export type RelayResult =
  | { readonly answered: true; readonly value: unknown }
  /** complete: every instance answered (none runs it); else some did not in time (one may be running it). */
  | { readonly answered: false; readonly complete: boolean };

/** How an instance reaches the instance running a room: the call and its arguments; its answer or its refusal. */
export interface RoomRelay {
  call(method: RelayedRoomCall, args: readonly unknown[]): Promise<RelayResult>;
}

/** Which stations run here (server/play/rooms/station-host.ts). */
export interface RoomOwnership {
  /** Whether other instances may run stations (PostgreSQL). */
  readonly distributed: boolean;
  owns(stationId: number): boolean;
  /** Takes a station no instance runs: 'here' when it runs here now, 'missing' when there is no such station. */
  claim(stationId: number): Promise<'here' | 'elsewhere' | 'missing'>;
}

/** The embedded store's single instance runs every station. */
export const EVERY_STATION_HERE: RoomOwnership = {
  distributed: false,
  owns: () => true,
  claim: async () => 'here',
};

/** A relayed call this instance does not run (another instance's station or player). */
export const NOT_HERE = Symbol('not here');

/** A station id worth looking up (a positive 32-bit integer): others are refused before any lock. */
const isStationId = (id: unknown): id is number =>
  Number.isSafeInteger(id) && (id as number) > 0 && (id as number) < 2 ** 31;

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
  /** Stopped for good: no room starts here any more. */
  private closed = false;

  constructor(
    private readonly store: PlayStore,
    private readonly clock: Clock,
    private readonly log: (message: string, error?: unknown) => void,
    private readonly newSeed: () => number,
    /** Which stations run here (R10-8): all with the embedded store; those whose lock it holds on PostgreSQL. */
    private readonly ownership: RoomOwnership = EVERY_STATION_HERE,
  ) {}

  private relay: RoomRelay | null = null;

  /** How this instance reaches the instances running other stations (several instances). */
  setRelay(relay: RoomRelay): void {
    this.relay = relay;
  }

  /**
   * A call for a station: run here when the station runs here; else relayed to the instance that
   * runs it. When no instance answers for it (none runs it: a station just given back, or whose
   * instance died), this instance takes it and runs the call; when another holds it but did not
   * answer (it is loading the room), the call is relayed again a moment later, and after about 2 s
   * refused with 503 in Japanese.
   */
  private async atStation<T>(
    method: RelayedRoomCall,
    args: readonly unknown[],
    stationId: number,
    run: (room: StationRoom) => Promise<T>,
  ): Promise<T> {
    if (!isStationId(stationId)) throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    for (let attempt = 0; ; attempt += 1) {
      if (attempt >= 8) throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
      if (this.ownership.owns(stationId)) {
        try {
          return await run(await this.room(stationId));
        } catch (error) {
          // Given back meanwhile: the call goes to the instance that runs the station now.
          if (!(error instanceof RoomClosed)) throw error;
        }
      }
      if (!this.ownership.distributed) throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
      const answer = await this.relayCall(method, args);
      if (answer.answered) return answer.value as T;
      // An instance that did not answer in time may be running the call: never run it a second time.
      if (!answer.complete) throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
      const claimed = await this.ownership.claim(stationId);
      if (claimed === 'here') continue;
      if (claimed === 'missing') throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, 250));
    }
  }

  /**
   * A call for a user's place: run in the room here where the user has one; else relayed to the
   * instance where they have one; when none has, run here with no room (each call's own answer
   * for a player with no place: null, 403 or 404).
   */
  private async forUser<T>(
    method: RelayedRoomCall,
    args: readonly unknown[],
    userId: number,
    run: (room: StationRoom | null) => Promise<T>,
  ): Promise<T> {
    const room = this.roomOf(userId);
    if (room) {
      try {
        return await run(room);
      } catch (error) {
        if (!(error instanceof RoomClosed)) throw error;
      }
    }
    if (this.ownership.distributed) {
      const answer = await this.relayCall(method, args);
      if (answer.answered) return answer.value as T;
      // An instance that did not answer in time may hold the player's place: no "no place" answer.
      if (!answer.complete) throw new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
    }
    return run(null);
  }

  private relayCall(method: RelayedRoomCall, args: readonly unknown[]): Promise<RelayResult> {
    if (!this.relay) return Promise.resolve({ answered: false, complete: true });
    return this.relay.call(method, args);
  }

  /**
   * Runs a call another instance relayed, when it is for this instance (its station runs here, or
   * its user has a place here); NOT_HERE otherwise. Only the calls of RELAYED_ROOM_CALLS, with at
   * most four arguments (400 in Japanese for anything else); each call checks its own arguments'
   * meaning as it does for a local caller.
   */
  async relayed(method: unknown, args: unknown): Promise<unknown> {
    if (typeof method !== 'string' || !(RELAYED_ROOM_CALLS as readonly string[]).includes(method))
      throw new Refusal(400, 400, SERVER_MESSAGES.relayRefused);
    if (!Array.isArray(args) || args.length > 4) throw new Refusal(400, 400, SERVER_MESSAGES.relayRefused);
    const checked = RELAY_ARGS[method as RelayedRoomCall].safeParse(args);
    if (!checked.success) throw new Refusal(400, 400, SERVER_MESSAGES.relayRefused);
    const values = checked.data as unknown[];
    const key = CALL_KEYS[method as RelayedRoomCall];
    const here =
      'station' in key
        ? isStationId(values[key.station]) && this.ownership.owns(values[key.station] as number)
        : this.roomOf(values[key.user] as number) !== null;
    if (!here) return NOT_HERE;
    const call = this[method as RelayedRoomCall] as (...a: unknown[]) => unknown;
    return (await call.apply(this, values)) ?? null;
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

  /** This instance now runs the station (its lock is held): its room, resumed. False: no such station. */
  async adopt(stationId: number): Promise<boolean> {
    try {
      await this.room(stationId);
      return true;
    } catch (error) {
      // Whatever came of it, no room of this station runs here once its lock is given up.
      await this.drop(stationId);
      if (error instanceof Refusal && error.status === 404) return false;
      throw error;
    }
  }

  /** Stops the station's room here whatever it holds (its adoption failed; the store keeps its state). */
  private async drop(stationId: number): Promise<void> {
    const room = this.rooms.get(stationId);
    if (!room) return;
    this.rooms.delete(stationId);
    this.unindex(stationId);
    await room.close().catch(() => undefined);
  }

  /**
   * Stops running the station here when it is vacant (no play, no line, nothing queued), so that
   * another instance can take it: a call arriving after this is refused by the closed room and
   * relayed to the new owner. True when stopped.
   */
  async release(stationId: number): Promise<boolean> {
    const room = this.rooms.get(stationId);
    if (!room) return !this.loading.has(stationId);
    if (!room.vacant) return false;
    // Closed in the same turn as the check: no event can slip in between.
    const closing = room.close();
    this.rooms.delete(stationId);
    this.unindex(stationId);
    await closing;
    return true;
  }

  /** The stations whose rooms run here (tests, /healthz/stations). */
  running(): number[] {
    return [...this.rooms.keys()].sort((a, b) => a - b);
  }

  private async build(snapshot: RoomSnapshot): Promise<StationRoom> {
    const id = snapshot.station.stationId;
    // Stopped meanwhile (the locks were lost, or the server stops): the room does not start here.
    if (this.closed) throw new RoomClosed(id);
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
    try {
      await room.open(snapshot);
    } catch (error) {
      // Not resumed: the room does not run (a later call or round loads it again).
      await this.drop(id);
      throw error;
    }
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
  rigNextPlay(stationId: number, seed: number): Promise<readonly CranePrize[]> {
    return this.atStation('rigNextPlay', [stationId, seed], stationId, async (room) => {
      this.rigged.set(stationId, seed);
      const state = room.current;
      return (state.field ?? initialField(state.station)).prizes;
    });
  }

  /** A station's room; a station added after the start is loaded on first use. 404 when there is none. */
  private async room(stationId: number): Promise<StationRoom> {
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

  private unindex(stationId: number): void {
    for (const user of this.indexed.get(stationId) ?? [])
      if (this.places.get(user) === stationId) this.places.delete(user);
    this.indexed.delete(stationId);
  }

  /** The room where a user has a place, or null. */
  private roomOf(userId: number): StationRoom | null {
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
    await this.atStation('join', [userId, stationId, shopId ?? null], stationId, async (room) => {
      // A relayed call carries an absent shop as null.
      if (shopId !== undefined && shopId !== null && room.current.station.shopId !== shopId)
        throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
      await this.ask(room, { type: 'join', userId });
    });
  }

  /**
   * Gives up the caller's place at a station setting (waiting, or a turn not yet confirmed); 404
   * when the caller holds none there; 409 for a paid play in progress (it ends with its result).
   */
  leave(userId: number, shopId: number, settingId: number): Promise<{ play_reserve_id: number }> {
    return this.forUser('leave', [userId, shopId, settingId], userId, async (room) => {
      if (!room || room.current.station.shopId !== shopId)
        throw new Refusal(404, 404, SERVER_MESSAGES.reservationNotFound);
      const holder = holderOf(room.current.turn);
      const place =
        holder?.userId === userId
          ? holder
          : room.current.line.find((w) => w.userId === userId && w.settingId === settingId);
      await this.ask(room, { type: 'leave', userId, settingId });
      return { play_reserve_id: place?.reserveId ?? 0 };
    });
  }

  // ---- the play ------------------------------------------------------------------------------

  /** The player takes the turn: the play is charged and the claw resets. 409 when it is not their turn. */
  confirm(userId: number, stationId: number): Promise<PlayState> {
    return this.atStation('confirm', [userId, stationId], stationId, async (room) => {
      await this.ask(room, { type: 'confirm', userId });
      return this.playOf(room, userId)!;
    });
  }

  /**
   * A button press or release. Refused: over 25 commands a second (429, counted before anything
   * else), not the player's play (403), not the button's moment (409). A player away from the play
   * is back with it.
   */
  control(
    userId: number,
    playId: number,
    button: CraneButton,
    command: CraneCommand,
  ): Promise<{ tick: number; machine: MachineView }> {
    return this.forUser('control', [userId, playId, button, command], userId, async (room) => {
      // Counted where the room runs (or here, when none has the player), before anything else.
      this.countCommand(userId);
      if (!room) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
      const answer = await this.ask(room, { type: 'control', userId, playId, button, command });
      if (answer.kind !== 'control') throw new Error(`control answered ${answer.kind}`);
      return { tick: answer.tick, machine: answer.machine };
    });
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
  continuePlay(userId: number, playId: number): Promise<PlayState> {
    return this.forUser('continuePlay', [userId, playId], userId, async (room) => {
      if (!room) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
      await this.ask(room, { type: 'continue', userId, playId });
      return this.playOf(room, userId)!;
    });
  }

  /** The player ends their turn after a result (instead of waiting for the window to close). */
  async finishTurn(userId: number, playId: number): Promise<void> {
    await this.forUser('finishTurn', [userId, playId], userId, async (room) => {
      if (!room) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
      await this.ask(room, { type: 'finish', userId, playId });
    });
  }

  /** The caller's play on any machine, or null. A player in a grace window is back. */
  current(userId: number): Promise<PlayState | null> {
    return this.forUser('current', [userId], userId, async (room) => {
      if (!room) return null;
      await this.ask(room, { type: 'look', userId });
      return this.playOf(room, userId);
    });
  }

  /** The player's last connection closed: a running play waits for them (the grace window). */
  playerAway(userId: number): void {
    this.tell('playerAway', userId, { type: 'away', userId });
  }

  /** The player has a connection again: a play waiting in its grace window runs on. */
  playerBack(userId: number): void {
    this.tell('playerBack', userId, { type: 'back', userId });
  }

  private tell(method: 'playerAway' | 'playerBack', userId: number, event: RoomEvent): void {
    this.forUser(method, [userId], userId, async (room) => {
      await room?.dispatch(event);
    }).catch((error: unknown) => this.log('station room step failed', error));
  }

  // ---- reading -------------------------------------------------------------------------------

  /** The play on a station's machine as viewers see it, or null when it is idle (this instance's rooms only). */
  onStation(stationId: number): PlayState | null {
    return this.rooms.get(stationId)?.playView() ?? null;
  }

  /** The same, from the host when this instance is a standby (a viewer joining a station's channel). */
  async stationView(stationId: number): Promise<PlayState | null> {
    if (!isStationId(stationId)) return null;
    if (this.ownership.owns(stationId)) return this.onStation(stationId);
    if (!this.ownership.distributed) return null;
    // A station nobody runs has no play to show: a viewer never makes an instance take a station.
    const answer = await this.relayCall('stationView', [stationId]);
    return answer.answered ? (answer.value as PlayState | null) : null;
  }

  /** What the cameras draw for a station: the running machine, or null (the stored field). */
  machineOf(stationId: number): CraneState | null {
    const turn = this.rooms.get(stationId)?.current.turn;
    return turn && 'play' in turn ? turn.play.machine : null;
  }

  // ---- the operator --------------------------------------------------------------------------

  private async operate(
    method: RelayedRoomCall,
    args: readonly unknown[],
    stationId: number,
    event: RoomEvent,
  ): Promise<{ refunded_play_id: number | null }> {
    const answer = await this.atStation(method, args, stationId, async (room) => {
      const answered = await this.ask(room, event);
      return { refunded_play_id: answered.kind === 'operator' ? answered.refundedPlayId : null };
    });
    return { refunded_play_id: answer?.refunded_play_id ?? null };
  }

  /**
   * Sets a station's status. Maintenance statuses and 'change' end the play on the machine
   * (refunded exactly once when it had not finished) and the line ('cancel', or 'change' for a prize
   * change); 'open' hands the turn to the head of the line again.
   */
  setStationStatus(stationId: number, status: StationStatus): Promise<{ refunded_play_id: number | null }> {
    return this.operate('setStationStatus', [stationId, status], stationId, { type: 'setStatus', status });
  }

  /** A fault on the machine: the play is refunded once, the station goes to malfunction. */
  fault(stationId: number): Promise<{ refunded_play_id: number | null }> {
    return this.setStationStatus(stationId, 'malfunction');
  }

  /** Sets a station's stock (the operator restocks); 0 ends the line with 'change', more takes it on. */
  async restock(stationId: number, stock: number): Promise<void> {
    await this.operate('restock', [stationId, stock], stationId, { type: 'restock', stock });
  }

  /** Sets a station's base arm strength (published in each play's log from then on). */
  async setArmStrength(stationId: number, armStrength: number): Promise<void> {
    await this.operate('setArmStrength', [stationId, armStrength], stationId, { type: 'setArmStrength', armStrength });
  }

  /**
   * A new prize on a station: the play on the machine ends (refunded if unfinished) and the line
   * ends with 'change' [R4.3-3]; the station gets a new setting, a fresh field, the new name, shape
   * and stock; then it opens again.
   */
  changePrize(stationId: number, prize: PrizeChange): Promise<{ refunded_play_id: number | null }> {
    return this.operate('changePrize', [stationId, prize], stationId, { type: 'changePrize', prize });
  }

  /** Ends that play on the station's machine (refunded once when unfinished); 409 when it is not there. */
  endPlay(stationId: number, playId: number): Promise<{ refunded_play_id: number | null }> {
    return this.operate('endPlay', [stationId, playId], stationId, { type: 'endPlay', playId });
  }

  /** Takes one player out of a station's line (or off its turn, refunding an unfinished play); 404 when not there. */
  removeFromLine(stationId: number, userId: number): Promise<{ refunded_play_id: number | null }> {
    return this.operate('removeFromLine', [stationId, userId], stationId, { type: 'removeFromLine', userId });
  }

  /** Pauses a station (the line waits, no turn is offered, no continue starts) or resumes it. */
  async pause(stationId: number, paused: boolean): Promise<void> {
    await this.operate('pause', [stationId, paused], stationId, { type: 'pause', paused });
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
    this.closed = true;
    const rooms = [...this.rooms.values()];
    this.rooms.clear();
    this.places.clear();
    this.indexed.clear();
    await Promise.all(rooms.map((r) => r.close()));
  }
}
