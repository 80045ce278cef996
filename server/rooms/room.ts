import type { Clock } from '../clock';
import { SerialQueue, WakeTimer } from './serial-queue';

/**
 * A kind of room's rules, all pure (they live in src/domain): the step from a state and an event
 * to the next state, the effects to carry out and the caller's answer; the room as a restart finds
 * it in the store; the next instant it must look at the time.
 */
export interface RoomRules<S, E, F, A, Snap> {
  transition(
    state: S,
    event: E,
    now: number,
  ): { readonly state: S; readonly effects: readonly F[]; readonly answer: A };
  /** The room as the store holds it, resumed after a (re)start: its state and the effects that tidy the store. */
  restore(snapshot: Snap, now: number): { readonly state: S; readonly effects: readonly F[] };
  /** When the state falls due next (a deadline), or null. */
  nextWakeup(state: S): number | null;
  /** The event the room hears when that instant has come. */
  readonly clockEvent: E;
  /** The event the room hears once it has been restored (it hands out what the restart held back). */
  readonly resumedEvent: E;
}

/** What the effects of one room see of it while they are carried out. */
export interface RoomHandle<S> {
  readonly id: string;
  readonly state: S;
  /** Runs a store call after every write before it: writes land in the order of their effects. */
  write<T>(call: () => Promise<T>): Promise<T>;
}

/** How one room carries its effects out (the kind's ports: the store with the ledger, the pushes). */
export interface RoomCarrier<S, E, F, Snap> {
  /** Carries `effect` out; the event the room must hear of its outcome, or null. */
  carryOut(effect: F, room: RoomHandle<S>): Promise<E | null>;
  /**
   * Carrying `effect` out failed (a refusal of the store, too little TC, the database). What the
   * room does before the error goes on to its caller: hear an event that takes it back to where it
   * was; 'reload' itself from the store (a failed write may have left the store behind the room);
   * or nothing (the effect changed nothing the room holds).
   */
  failed(effect: F, error: unknown): E | 'reload' | null;
  /** The room as the store holds it now (null: it no longer exists). */
  load(): Promise<Snap | null>;
}

export interface RoomDeps {
  readonly clock: Clock;
  readonly log: (message: string, error?: unknown) => void;
  /** After every step (the registry keeps its who-is-where index). */
  readonly stepped: () => void;
}

/** A call reached a room that has stopped here (it runs on another instance now, or the server stops). */
export class RoomClosed extends Error {
  override readonly name = 'RoomClosed';
  constructor(readonly roomId: string) {
    super(`room ${roomId} is closed here`);
  }
}

/**
 * One room (docs/architecture.md, "Rooms"): a state that changes only through its events, taken one
 * at a time from one serial queue, and one timer for the next instant the state falls due. Every
 * decision is the kind's pure `transition`; the room only carries the effects out in order through
 * its carrier, and an effect whose outcome the rules must hear answers it as the next event before
 * anything else runs. Nothing is shared with another room but the store, so one room's slow write
 * never delays another.
 */
export class Room<S, E, F, A, Snap> implements RoomHandle<S> {
  private readonly queue = new SerialQueue();
  /** Writes in flight: every store call waits for the ones before it. */
  private writes: Promise<void> = Promise.resolve();
  private readonly timer: WakeTimer;
  private closed = false;
  private reloading = false;

  constructor(
    readonly id: string,
    private current: S,
    private readonly rules: RoomRules<S, E, F, A, Snap>,
    private readonly carrier: RoomCarrier<S, E, F, Snap>,
    private readonly deps: RoomDeps,
  ) {
    this.timer = new WakeTimer(deps.clock, () => {
      if (!this.closed)
        this.dispatch(rules.clockEvent).catch((error: unknown) => deps.log(`room ${id}: a timed step failed`, error));
    });
  }

  /** The room's state now (read-only: it changes only through events). */
  get state(): S {
    return this.current;
  }

  /**
   * Queues an event; resolves with the answer for its caller (the last answer of the steps it led
   * to), or rejects with the failure of an effect. A closed room takes no event: RoomClosed.
   */
  dispatch(event: E): Promise<A> {
    if (this.closed) return Promise.reject(new RoomClosed(this.id));
    return this.queue.run(() => this.step(event));
  }

  /** Like `dispatch`, then `read` of the room as the steps left it, in the same turn of the queue. */
  ask<R>(event: E, read: (state: S, answer: A) => R): Promise<R> {
    if (this.closed) return Promise.reject(new RoomClosed(this.id));
    return this.queue.run(async () => {
      const answer = await this.step(event);
      return read(this.current, answer);
    });
  }

  /** Whether nothing is queued or running now. */
  get quiet(): boolean {
    return this.queue.empty;
  }

  /** Takes the stored room and resumes it, before or between events (when the room starts here). */
  open(snapshot: Snap): Promise<void> {
    return this.queue.run(() => this.restore(snapshot));
  }

  /** Resolves when no event is queued and every write has landed. */
  async idle(): Promise<void> {
    await this.queue.idle();
    await this.writes;
  }

  /** Stops the timer and waits for what is queued; the store keeps every deadline for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    this.timer.cancel();
    await this.idle();
  }

  /** Closes the room in the same turn as `check` holds (nothing can slip in between); false when it does not. */
  closeIf(check: (state: S) => boolean): Promise<boolean> | false {
    if (!this.queue.empty || !check(this.current)) return false;
    return this.close().then(() => true);
  }

  write<T>(call: () => Promise<T>): Promise<T> {
    const run = this.writes.then(call);
    this.writes = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async step(event: E): Promise<A> {
    const step = this.rules.transition(this.current, event, this.deps.clock.now().getTime());
    this.current = step.state;
    let answer = step.answer;
    try {
      for (const effect of step.effects) {
        const outcome = await this.carry(effect);
        if (outcome !== null) answer = await this.step(outcome);
      }
    } finally {
      this.deps.stepped();
      if (!this.closed) this.timer.set(this.rules.nextWakeup(this.current));
    }
    return answer;
  }

  private async carry(effect: F): Promise<E | null> {
    try {
      return await this.carrier.carryOut(effect, this);
    } catch (error) {
      const back = this.carrier.failed(effect, error);
      if (back === 'reload') {
        if (!this.reloading) await this.reload(error);
      } else if (back !== null) await this.step(back);
      throw error;
    }
  }

  /** A write failed: the state in memory may be ahead of the store, which stays the truth. */
  private async reload(cause: unknown): Promise<void> {
    this.deps.log(`room ${this.id}: a write failed; the room is read again from the store`, cause);
    const snapshot = await this.carrier.load().catch(() => null);
    if (snapshot !== null)
      await this.restore(snapshot).catch((again: unknown) => this.deps.log(`room ${this.id}: reload failed`, again));
  }

  /** The room as the store holds it, resumed: its tidying effects, then the resumed event. */
  private async restore(snapshot: Snap): Promise<void> {
    this.reloading = true;
    try {
      const restored = this.rules.restore(snapshot, this.deps.clock.now().getTime());
      this.current = restored.state;
      for (const effect of restored.effects) await this.carry(effect);
      await this.step(this.rules.resumedEvent);
    } finally {
      this.reloading = false;
    }
  }
}
