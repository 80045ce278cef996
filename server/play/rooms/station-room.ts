import type { PlayState } from '../../../src/contract';
import {
  nextWakeup,
  PLAY_TIMINGS,
  restoreRoom,
  roomPlayView,
  transition,
  type RoomAnswer,
  type RoomEffect,
  type RoomEvent,
  type RoomSnapshot,
  type RoomWrite,
  type StationRoomState,
} from '../../../src/domain';
import type { Clock } from '../../clock';
import { SERVER_MESSAGES } from '../../messages';
import { SerialQueue, WakeTimer } from '../../rooms/serial-queue';
import type { PlayEvents, PlayStore } from './play-ports';

export interface StationRoomDeps {
  readonly store: PlayStore;
  readonly clock: Clock;
  /** Read at each use: the realtime hub is wired after the rooms exist. */
  readonly events: () => PlayEvents;
  readonly log: (message: string, error?: unknown) => void;
  /** Where each play's seed comes from (tests pin it; the seed is published in the play log either way). */
  readonly newSeed: () => number;
  /** After every step (the registry keeps its who-is-where index). */
  readonly stepped: (room: StationRoom) => void;
  /** The machine moved one tick (the live video draws its next picture then). */
  readonly machineTicked: (stationId: number) => void;
}

/**
 * One station as one room (docs/play.md, "Station rooms"): it owns its line, its turn, its play
 * and its one timer, takes its events one at a time and never waits on another station. Every
 * decision is the domain's `transition`; the room only carries the effects out through its ports
 * (the store with the ledger inside its transactions, and the events), in order. A step's writes
 * are awaited before the next event; the running machine's checkpoints are ordered with them but
 * awaited by nobody, so a button is answered at once.
 */
/** A call reached a room that has stopped here (it runs on another instance now, or the server stops). */
export class RoomClosed extends Error {
  constructor(readonly stationId: number) {
    super(`station ${stationId}'s room is closed here`);
  }
}

export class StationRoom {
  private readonly queue = new SerialQueue();
  /** Writes in flight: every store call waits for the ones before it. */
  private writes: Promise<void> = Promise.resolve();
  private readonly timer: WakeTimer;
  private closed = false;

  constructor(
    readonly stationId: number,
    private state: StationRoomState,
    private readonly deps: StationRoomDeps,
  ) {
    this.timer = new WakeTimer(deps.clock, () => {
      if (!this.closed)
        this.dispatch({ type: 'clock' }).catch((error: unknown) => deps.log('station room step failed', error));
    });
  }

  /** The room's state now (read-only: it changes only through events). */
  get current(): StationRoomState {
    return this.state;
  }

  /** The play on the machine as viewers see it now, or null. */
  playView(): PlayState | null {
    return roomPlayView(this.state, this.deps.clock.now().getTime());
  }

  /**
   * Queues an event; resolves with the answer for its caller, or rejects with the refusal of a
   * write. A closed room (given to another instance, or shutting down) takes no event: RoomClosed.
   */
  dispatch(event: RoomEvent): Promise<RoomAnswer> {
    if (this.closed) return Promise.reject(new RoomClosed(this.stationId));
    return this.queue.run(() => this.step(event));
  }

  /** Whether nothing runs here: no play, no turn, no line, nothing queued or being written. */
  get vacant(): boolean {
    return this.state.turn.phase === 'idle' && this.state.line.length === 0 && this.queue.empty;
  }

  /** Takes the stored room and resumes it, before or between events (at start). */
  open(snapshot: RoomSnapshot): Promise<void> {
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

  /** Arms the timer for the next instant the state falls due. */
  wake(): void {
    if (!this.closed) this.timer.set(nextWakeup(this.state));
  }

  private async step(event: RoomEvent): Promise<RoomAnswer> {
    const now = this.deps.clock.now().getTime();
    const step = transition(this.state, event, now);
    this.state = step.state;
    let answer = step.answer;
    try {
      for (const effect of step.effects) {
        const outcome = await this.carryOut(effect);
        if (outcome) answer = await this.step(outcome);
      }
    } finally {
      this.deps.stepped(this);
      this.wake();
    }
    return answer;
  }

  /** Carries one effect out; an effect whose outcome the room must hear answers it as an event. */
  private async carryOut(effect: RoomEffect): Promise<RoomEvent | null> {
    const { store, log } = this.deps;
    const events = this.deps.events();
    const id = this.stationId;
    switch (effect.type) {
      case 'commit':
        await this.commit(effect.writes);
        return null;
      case 'checkpoint':
        void this.write(() => store.commit(id, [effect.write])).catch((error: unknown) =>
          log('play checkpoint failed', error),
        );
        return null;
      case 'addToLine': {
        const placed = await this.write(() => store.addToLine(id, effect.userId));
        return { type: 'joined', reserveId: placed.reserveId, userId: effect.userId, settingId: placed.settingId };
      }
      case 'startPlay':
        try {
          const started = await this.write(() => store.startPlay(id, effect, this.deps.newSeed()));
          return { type: 'playStarted', started };
        } catch (error) {
          await this.step({ type: 'startRefused' });
          throw error;
        }
      case 'lineChanged':
        events.lineChanged(id);
        return null;
      case 'playState':
        events.playState(id, effect.view);
        return null;
      case 'turnNow':
        events.push(effect.userId, {
          kind: 'turnNow',
          station_id: id,
          reserve_num: 1,
          title: SERVER_MESSAGES.turnNowTitle,
          message: SERVER_MESSAGES.turnNowBody(this.state.station.prizeName, PLAY_TIMINGS.confirmMs / 1000),
        });
        return null;
      case 'turnNear':
        events.push(effect.userId, {
          kind: 'turnNear',
          station_id: id,
          reserve_num: effect.place,
          title: SERVER_MESSAGES.turnNearTitle,
          message: SERVER_MESSAGES.turnNearBody(this.state.station.prizeName, effect.place),
        });
        return null;
      case 'reserveCancelled':
        events.reserveCancelled(effect.userId, id, effect.reason);
        return null;
      case 'stationStatus':
        events.stationStatus(id, effect.status);
        return null;
      case 'winner':
        // The winner hears of the prize at once; it waits in the prize box (docs/delivery.md).
        events.push(effect.userId, {
          kind: 'notice',
          station_id: id,
          title: SERVER_MESSAGES.prizeWonTitle,
          message: SERVER_MESSAGES.prizeWonBody(effect.prizeName),
        });
        // The announcement waits for nobody: the name is read beside the room's next steps.
        void store.nickname(effect.userId).then(
          (nickname) =>
            this.deps.events().winner({
              station_id: id,
              prize_name: effect.prizeName,
              message: SERVER_MESSAGES.winnerAnnouncement(
                nickname || SERVER_MESSAGES.anonymousPlayer,
                effect.prizeName,
              ),
            }),
          (error: unknown) => log('winner announcement failed', error),
        );
        return null;
      case 'machineTicked':
        this.deps.machineTicked(id);
        return null;
    }
  }

  /** Runs a store call after every write before it. */
  private write<T>(call: () => Promise<T>): Promise<T> {
    const run = this.writes.then(call);
    this.writes = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * A step's writes, awaited. If the store fails (not a refusal: the database itself), the state in
   * memory is ahead of the store; the room is read again from the store, which stays the truth.
   */
  private async commit(writes: readonly RoomWrite[]): Promise<void> {
    try {
      await this.write(() => this.deps.store.commit(this.stationId, writes));
    } catch (error) {
      if (this.reloading) throw error;
      this.deps.log(`station ${this.stationId}: a write failed; the room is read again from the store`, error);
      const [snapshot] = await this.deps.store.loadRooms([this.stationId]).catch(() => []);
      if (snapshot) await this.restore(snapshot).catch((again: unknown) => this.deps.log('room reload failed', again));
      throw error;
    }
  }

  private reloading = false;

  /**
   * Takes the room as the store holds it and resumes it (`restoreRoom`, then `resumed`): at start,
   * and after a failed write. Run inside the queue (a step) or before the room takes events.
   */
  async restore(snapshot: RoomSnapshot): Promise<void> {
    this.reloading = true;
    try {
      const restored = restoreRoom(snapshot, this.deps.clock.now().getTime());
      this.state = restored.state;
      for (const effect of restored.effects) await this.carryOut(effect);
      await this.step({ type: 'resumed' });
    } finally {
      this.reloading = false;
    }
  }
}
