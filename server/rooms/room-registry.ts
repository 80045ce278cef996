import type { z } from 'zod/mini';
import type { Clock } from '../clock';
import { Room, RoomClosed, type RoomCarrier, type RoomRules } from './room';
import { roomId, type RoomOwnership, EVERY_ROOM_HERE } from './room-ownership';

/**
 * A kind of room (a station, a kuji box): its pure rules, the events a caller may send it, the
 * answer a caller gets, and how its rooms are loaded and carry their effects out.
 *
 * @typeParam S the room's state; E every event it hears; Q the events a caller may send (a part of
 *   E); F its effects; A the transition's answer; R the caller's answer as data; Snap the stored room.
 */
export interface RoomKind<S, E, Q extends E, F, A, R, Snap> {
  /** The kind's name, the first part of its rooms' ids (`station` in `station:12`). */
  readonly name: string;
  readonly rules: RoomRules<S, E, F, A, Snap>;
  /**
   * The events a caller may send, checked before anything runs: between instances an event is
   * data that any role on the database could publish (docs/deployment.md).
   */
  readonly requests: z.ZodMiniType<Q>;
  /** The caller's answer once its event (and every outcome it led to) was taken: data only. */
  reply(state: S, event: Q, answer: A, now: number): R;
  /** The users with a place in the room: a user's events go to the room where they have one. */
  users(state: S): readonly number[];
  /** Whether nobody is in the room (no line, no play): it may then stop here and run elsewhere. */
  vacant(state: S): boolean;
  /** The rooms as the store holds them: every one of this kind, or the ones named. */
  load(ids?: readonly number[]): Promise<Snap[]>;
  idOf(snapshot: Snap): number;
  /** How one room of this kind carries its effects out. */
  carrier(id: number): RoomCarrier<S, E, F, Snap>;
}

// The registry holds kinds of any types; each kind's own types come back through these.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyRoomKind = RoomKind<any, any, any, any, any, any, any>;
export type StateOf<K> = K extends RoomKind<infer S, any, any, any, any, any, any> ? S : never;
export type RequestOf<K> = K extends RoomKind<any, any, infer Q, any, any, any, any> ? Q : never;
export type ReplyOf<K> = K extends RoomKind<any, any, any, any, any, infer R, any> ? R : never;
/* eslint-enable @typescript-eslint/no-explicit-any */
type AnyRoom = Room<unknown, unknown, unknown, unknown, unknown>;

/** No room of that kind has this id (404 at the edge). */
export class RoomNotFound extends Error {
  override readonly name = 'RoomNotFound';
  constructor(
    readonly kind: string,
    readonly id: number,
  ) {
    super(`no ${kind} ${id}`);
  }
}

/** The room runs on an instance that did not answer in time, or is moving between instances (503 at the edge). */
export class RoomUnavailable extends Error {
  override readonly name = 'RoomUnavailable';
  constructor(readonly roomId: string) {
    super(`room ${roomId} is unavailable`);
  }
}

/** Where an event goes: one room, or the room where a user has a place. */
export type RoomAddress = { readonly room: string } | { readonly kind: string; readonly user: number };

/** How an instance reaches the others: an event for a room it does not run, answered by the instance that does. */
export interface RoomRelay {
  send(address: RoomAddress, event: unknown): Promise<RelayResult>;
}

/** The answer of a relayed event: from the instance it was for, or none (no instance runs it). */
export type RelayResult =
  | { readonly answered: true; readonly reply: unknown }
  /** complete: every instance answered (none runs it); else some did not in time (one may run it). */
  | { readonly answered: false; readonly complete: boolean };

const NO_RELAY: RoomRelay = { send: async () => ({ answered: false, complete: true }) };

/** A relayed event this instance does not run (another instance's room or user). */
export const NOT_HERE = Symbol('not here');

/** A room number worth looking up (a positive 32-bit integer): others are refused before any lock. */
export const isRoomNumber = (id: unknown): id is number =>
  Number.isSafeInteger(id) && (id as number) > 0 && (id as number) < 2 ** 31;

/**
 * Every room of this instance, of every kind, by room id (docs/architecture.md, "Rooms"). A room
 * starts here from the store when the instance takes it (every one at start with the embedded
 * store) or at its first event, and stops when the instance gives it back. The registry only
 * routes: an event for a room that runs elsewhere travels there as data (validated by its kind's
 * request schema) and its answer comes back as data; an event for a user goes to the room where
 * the user has a place. What an answer means to HTTP or a socket is for the edge to say.
 */
export class RoomRegistry<K extends Record<string, AnyRoomKind>> {
  private readonly rooms = new Map<string, AnyRoom>();
  private readonly loading = new Map<string, Promise<AnyRoom | null>>();
  /** Per kind: user → the room where the user has a place (one place per user and kind). */
  private readonly places = new Map<string, Map<number, string>>();
  private readonly indexed = new Map<string, readonly number[]>();
  private relay: RoomRelay = NO_RELAY;
  /** Stopped for good: no room starts here any more. */
  private closed = false;

  constructor(
    private readonly kinds: K,
    private readonly deps: {
      readonly clock: Clock;
      readonly log: (message: string, error?: unknown) => void;
      /** Which rooms run here: all with the embedded store; those whose lock it holds on PostgreSQL. */
      readonly ownership?: RoomOwnership;
    },
  ) {
    for (const name of Object.keys(kinds)) this.places.set(name, new Map());
  }

  private get ownership(): RoomOwnership {
    return this.deps.ownership ?? EVERY_ROOM_HERE;
  }

  /** How this instance reaches the instances running other rooms (several instances). */
  setRelay(relay: RoomRelay): void {
    this.relay = relay;
  }

  // ---- sending -------------------------------------------------------------------------------

  /**
   * An event for a room: run here when the room runs here; else relayed to the instance that runs
   * it. When no instance answers for it (none runs it: a room just given back, or whose instance
   * died), this instance takes it and runs the event; when another holds it but did not answer (it
   * is loading the room), the event is relayed again a moment later, and after about 2 s it fails
   * (RoomUnavailable). RoomNotFound when there is no such room.
   */
  async send<N extends keyof K & string>(kind: N, id: number, event: RequestOf<K[N]>): Promise<ReplyOf<K[N]>> {
    const name = roomId(kind, id);
    if (!isRoomNumber(id)) throw new RoomNotFound(kind, id);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      if (this.ownership.owns(name)) {
        try {
          return await this.run(kind, await this.room(kind, id), event);
        } catch (error) {
          // Given back meanwhile: the event goes to the instance that runs the room now.
          if (!(error instanceof RoomClosed)) throw error;
        }
      }
      if (!this.ownership.distributed) break;
      const answer = await this.relay.send({ room: name }, event);
      if (answer.answered) return answer.reply as ReplyOf<K[N]>;
      // An instance that did not answer in time may be running the event: never run it a second time.
      if (!answer.complete) break;
      const claimed = await this.ownership.claim(name);
      if (claimed === 'missing') throw new RoomNotFound(kind, id);
      if (claimed === 'elsewhere') await new Promise<void>((resolve) => this.deps.clock.setTimeout(resolve, 250));
    }
    throw new RoomUnavailable(name);
  }

  /**
   * An event for a room only if an instance runs it (a viewer never makes an instance take a
   * room): its answer, or null when none does.
   */
  async sendIfRunning<N extends keyof K & string>(
    kind: N,
    id: number,
    event: RequestOf<K[N]>,
  ): Promise<ReplyOf<K[N]> | null> {
    if (!isRoomNumber(id)) return null;
    const name = roomId(kind, id);
    if (this.ownership.owns(name)) return this.run(kind, await this.room(kind, id), event);
    if (!this.ownership.distributed) return null;
    const answer = await this.relay.send({ room: name }, event);
    return answer.answered ? (answer.reply as ReplyOf<K[N]>) : null;
  }

  /**
   * An event for the room of this kind where the user has a place: run here when it is here; else
   * relayed to the instance where they have one; null when none has (each caller says what that
   * means: no play, 403, 404).
   */
  async sendToUser<N extends keyof K & string>(
    kind: N,
    userId: number,
    event: RequestOf<K[N]>,
  ): Promise<ReplyOf<K[N]> | null> {
    const room = this.roomOfUser(kind, userId);
    if (room) {
      try {
        return await this.run(kind, room, event);
      } catch (error) {
        if (!(error instanceof RoomClosed)) throw error;
      }
    }
    if (!this.ownership.distributed) return null;
    const answer = await this.relay.send({ kind, user: userId }, event);
    if (answer.answered) return answer.reply as ReplyOf<K[N]>;
    // An instance that did not answer in time may hold the user's place: no "no place" answer.
    if (!answer.complete) throw new RoomUnavailable(`${kind}:user`);
    return null;
  }

  /**
   * Runs an event another instance relayed, when it is for this instance (its room runs here, or
   * its user has a place here); NOT_HERE otherwise. The kind must exist and the event must be one
   * of its requests (RelayRefused otherwise): nothing else runs.
   */
  async relayed(address: RoomAddress, event: unknown): Promise<unknown> {
    const kind = 'room' in address ? address.room.split(':')[0]! : address.kind;
    const id = 'room' in address ? Number(address.room.slice(kind.length + 1)) : address.user;
    if (!Object.hasOwn(this.kinds, kind) || !isRoomNumber(id)) throw new RelayRefused();
    const checked = this.kinds[kind]!.requests.safeParse(event);
    if (!checked.success) throw new RelayRefused();
    if ('room' in address) {
      if (address.room !== roomId(kind, id) || !this.ownership.owns(address.room)) return NOT_HERE;
      return this.run(kind, await this.room(kind, id), checked.data);
    }
    const room = this.roomOfUser(kind, id);
    return room ? this.run(kind, room, checked.data) : NOT_HERE;
  }

  private run(kind: string, room: AnyRoom, event: unknown): Promise<never> {
    const definition = this.kinds[kind]!;
    return room.ask(event, (state, answer) =>
      definition.reply(state, event, answer, this.deps.clock.now().getTime()),
    ) as Promise<never>;
  }

  // ---- reading -------------------------------------------------------------------------------

  /** A room's state here, or null when it does not run here (nothing is loaded or relayed). */
  peek<N extends keyof K & string>(kind: N, id: number): StateOf<K[N]> | null {
    return (this.rooms.get(roomId(kind, id))?.state as StateOf<K[N]> | undefined) ?? null;
  }

  /** The rooms of a kind running here (tests, /healthz/stations). */
  running(kind: keyof K & string): number[] {
    const prefix = `${kind}:`;
    return [...this.rooms.keys()]
      .filter((id) => id.startsWith(prefix))
      .map((id) => Number(id.slice(prefix.length)))
      .sort((a, b) => a - b);
  }

  // ---- lifetime ------------------------------------------------------------------------------

  /** At start: every room of every kind from the store, each resumed where it was. */
  async start(): Promise<void> {
    for (const kind of Object.keys(this.kinds)) {
      for (const snapshot of await this.kinds[kind]!.load()) await this.build(kind, snapshot);
    }
  }

  /** This instance now runs the room (its lock is held): its room, resumed. False: no such room. */
  async adopt(id: string): Promise<boolean> {
    const [kind, number] = this.parse(id);
    try {
      await this.room(kind, number);
      return true;
    } catch (error) {
      // Whatever came of it, no room of this id runs here once its lock is given up.
      await this.drop(id);
      if (error instanceof RoomNotFound) return false;
      throw error;
    }
  }

  /**
   * Stops running the room here when nobody is in it and nothing is queued, so that another
   * instance can take it: an event arriving after this is refused by the closed room and relayed
   * to the new owner. True when stopped.
   */
  async release(id: string): Promise<boolean> {
    const room = this.rooms.get(id);
    if (!room) return !this.loading.has(id);
    const [kind] = this.parse(id);
    const closing = room.closeIf((state) => this.kinds[kind]!.vacant(state));
    if (closing === false) return false;
    this.rooms.delete(id);
    this.unindex(kind, id);
    return closing;
  }

  /** Resolves when every room has run what is queued and written (tests, shutdown). */
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
    for (const places of this.places.values()) places.clear();
    this.indexed.clear();
    await Promise.all(rooms.map((r) => r.close()));
  }

  // ---- the rooms -----------------------------------------------------------------------------

  private parse(id: string): [string, number] {
    const at = id.indexOf(':');
    const kind = id.slice(0, at);
    const number = Number(id.slice(at + 1));
    if (!Object.hasOwn(this.kinds, kind) || !isRoomNumber(number)) throw new Error(`not a room id: ${id}`);
    return [kind, number];
  }

  /** A room here; one not running yet is loaded from the store. RoomNotFound when the store has none. */
  private async room(kind: string, id: number): Promise<AnyRoom> {
    const name = roomId(kind, id);
    const loaded = this.rooms.get(name);
    if (loaded) return loaded;
    let pending = this.loading.get(name);
    if (!pending) {
      pending = this.kinds[kind]!.load([id]).then(([snapshot]) =>
        snapshot === undefined ? null : this.build(kind, snapshot),
      );
      this.loading.set(name, pending);
      void pending.finally(() => this.loading.delete(name)).catch(() => undefined);
    }
    const room = await pending;
    if (!room) throw new RoomNotFound(kind, id);
    return room;
  }

  private async build(kind: string, snapshot: unknown): Promise<AnyRoom> {
    const definition = this.kinds[kind]!;
    const number = definition.idOf(snapshot);
    const name = roomId(kind, number);
    // Stopped meanwhile (the locks were lost, or the server stops): the room does not start here.
    if (this.closed) throw new RoomClosed(name);
    const now = this.deps.clock.now().getTime();
    const room: AnyRoom = new Room(
      name,
      definition.rules.restore(snapshot, now).state,
      definition.rules,
      definition.carrier(number),
      {
        clock: this.deps.clock,
        log: this.deps.log,
        stepped: () => this.reindex(kind, name, room),
      },
    );
    this.rooms.set(name, room);
    try {
      await room.open(snapshot);
    } catch (error) {
      // Not resumed: the room does not run (a later event or round loads it again).
      await this.drop(name);
      throw error;
    }
    return room;
  }

  /** Stops a room here whatever it holds (its adoption failed; the store keeps its state). */
  private async drop(id: string): Promise<void> {
    const room = this.rooms.get(id);
    if (!room) return;
    this.rooms.delete(id);
    this.unindex(this.parse(id)[0], id);
    await room.close().catch(() => undefined);
  }

  /** Keeps the who-is-where index after a room's step. */
  private reindex(kind: string, id: string, room: AnyRoom): void {
    const before = this.indexed.get(id) ?? [];
    const after = this.kinds[kind]!.users(room.state);
    if (before.length === after.length && before.every((u, i) => u === after[i])) return;
    const places = this.places.get(kind)!;
    for (const user of before) if (places.get(user) === id) places.delete(user);
    for (const user of after) places.set(user, id);
    this.indexed.set(id, after);
  }

  private unindex(kind: string, id: string): void {
    const places = this.places.get(kind)!;
    for (const user of this.indexed.get(id) ?? []) if (places.get(user) === id) places.delete(user);
    this.indexed.delete(id);
  }

  private roomOfUser(kind: string, userId: number): AnyRoom | null {
    const id = this.places.get(kind)?.get(userId);
    return id === undefined ? null : (this.rooms.get(id) ?? null);
  }
}

/** A relayed event that is not one: an unknown kind, a bad address, an event its kind does not take. */
export class RelayRefused extends Error {
  override readonly name = 'RelayRefused';
  constructor() {
    super('relayed event refused');
  }
}
