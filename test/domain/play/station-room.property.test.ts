import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PLAY_TIMINGS,
  STATION_STATUSES,
  transition,
  type RoomEffect,
  type RoomEvent,
  type RoomWrite,
  type StationRoomState,
} from '../../../src/domain';
import { aStation, T0 } from './station-room.fixtures';

/**
 * Any sequence of events, run through the pure room the way the server's room runs it (each
 * `addToLine` and `startPlay` answered by its outcome event), must keep the money right:
 * - a play is charged only from a turn that holds no unfinished play;
 * - every charged play ends at most once, with a recorded result or a refund, never both;
 * - a refund gives back exactly what the charge took;
 * - at every moment a charged play is recorded, refunded, or the play the turn holds (not lost);
 * - once the station is open and time runs on, every charged play ends.
 */
type Command =
  | {
      readonly kind: 'join' | 'leave' | 'confirm' | 'continue' | 'finish' | 'look' | 'away' | 'back';
      readonly user: number;
    }
  | { readonly kind: 'control'; readonly user: number; readonly button: 'right' | 'back'; readonly press: boolean }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'status'; readonly status: (typeof STATION_STATUSES)[number] }
  | { readonly kind: 'restock'; readonly stock: number }
  | { readonly kind: 'changePrize' };

const user = fc.integer({ min: 1, max: 4 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('join', 'confirm', 'continue', 'finish'), user }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('leave', 'look', 'away', 'back'), user }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('control'),
      user,
      button: fc.constantFrom('right', 'back'),
      press: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('wait'),
      ms: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 200_000 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status'), status: fc.constantFrom(...STATION_STATUSES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restock'), stock: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('changePrize') }) },
);

interface Ledger {
  charged: Map<number, number>;
  refunded: Map<number, number>;
  recorded: Set<number>;
}

/** Runs the room like the server: one event at a time, outcomes of writes fed back as events. */
class World {
  state: StationRoomState = {
    station: aStation({ stock: 2 }),
    field: null,
    line: [],
    turn: { phase: 'idle' },
  };
  now = T0;
  private nextReserve = 1;
  private nextPlay = 1;
  readonly money: Ledger = { charged: new Map(), refunded: new Map(), recorded: new Set() };

  constructor(private readonly refuseStart: () => boolean) {}

  /** The play the turn holds unfinished, if any. */
  heldPlay(): number | null {
    const t = this.state.turn;
    if (t.phase === 'resetting' || t.phase === 'playing' || t.phase === 'away') return t.play.playId;
    return null;
  }

  resultPlay(): number | null {
    const t = this.state.turn;
    return t.phase === 'result' ? t.play.playId : null;
  }

  currentPlayId(): number {
    const t = this.state.turn;
    return 'play' in t
      ? t.play.playId
      : t.phase === 'starting' && t.resume.phase === 'result'
        ? t.resume.play.playId
        : 0;
  }

  send(event: RoomEvent): void {
    const step = transition(this.state, event, this.now);
    this.state = step.state;
    for (const effect of step.effects) this.carryOut(effect);
  }

  private carryOut(effect: RoomEffect): void {
    if (effect.type === 'commit') for (const w of effect.writes) this.write(w);
    if (effect.type === 'addToLine') {
      this.send({ type: 'joined', reserveId: this.nextReserve++, userId: effect.userId, settingId: 1 });
    }
    if (effect.type === 'startPlay') {
      // The invariant the room itself must keep: never a second charge while a play is unfinished.
      expect(this.heldPlay()).toBeNull();
      if (this.refuseStart()) {
        this.send({ type: 'startRefused' });
        return;
      }
      const playId = this.nextPlay++;
      this.money.charged.set(playId, effect.price);
      this.send({
        type: 'playStarted',
        started: {
          playId,
          userId: effect.userId,
          currency: effect.currency,
          price: effect.price,
          seed: playId * 7,
          armStrength: 0.9,
          assistLevel: 0,
          gaugeMisses: 0,
          charged: { free: effect.price, toll: 0 },
        },
      });
    }
  }

  private write(w: RoomWrite): void {
    if (w.kind === 'refund') {
      expect(this.money.refunded.has(w.playId), `play ${w.playId} refunded twice`).toBe(false);
      expect(this.money.recorded.has(w.playId), `play ${w.playId} refunded after its result`).toBe(false);
      expect(w.charged.free + w.charged.toll).toBe(this.money.charged.get(w.playId));
      this.money.refunded.set(w.playId, w.charged.free + w.charged.toll);
    }
    if (w.kind === 'recordResult') {
      expect(this.money.recorded.has(w.playId), `play ${w.playId} recorded twice`).toBe(false);
      expect(this.money.refunded.has(w.playId), `play ${w.playId} recorded after a refund`).toBe(false);
      this.money.recorded.add(w.playId);
    }
  }

  run(c: Command): void {
    switch (c.kind) {
      case 'join':
      case 'confirm':
      case 'look':
      case 'away':
      case 'back':
        this.send({ type: c.kind, userId: c.user });
        return;
      case 'leave':
        this.send({ type: 'leave', userId: c.user, settingId: 1 });
        return;
      case 'continue':
      case 'finish':
        this.send({ type: c.kind, userId: c.user, playId: this.currentPlayId() });
        return;
      case 'control':
        this.send({
          type: 'control',
          userId: c.user,
          playId: this.currentPlayId(),
          button: c.button,
          command: c.press ? 'press' : 'release',
        });
        return;
      case 'wait':
        this.advance(c.ms);
        return;
      case 'status':
        this.send({ type: 'setStatus', status: c.status });
        return;
      case 'restock':
        this.send({ type: 'restock', stock: c.stock });
        return;
      case 'changePrize':
        this.send({ type: 'changePrize', prize: { prizeName: 'Cat plush', prizeShape: 'box', stock: 2 } });
        return;
    }
  }

  /** Time runs on: the room hears `clock` at each tick and deadline on the way, as its timer would call it. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (let guard = 0; guard < 100_000; guard += 1) {
      const t = this.state.turn;
      const due =
        t.phase === 'playing'
          ? t.nextTickAt
          : t.phase === 'away'
            ? t.graceDeadline
            : 'deadline' in t
              ? t.deadline
              : null;
      if (due === null || due > until) break;
      this.now = Math.max(this.now, due);
      this.send({ type: 'clock' });
    }
    this.now = until;
  }

  /** No charged play is lost: each is recorded, refunded, or held by the turn right now. */
  checkNothingLost(): void {
    for (const playId of this.money.charged.keys()) {
      const ended = this.money.recorded.has(playId) || this.money.refunded.has(playId);
      expect(ended || this.heldPlay() === playId, `play ${playId} lost in ${this.state.turn.phase}`).toBe(true);
    }
    const result = this.resultPlay();
    if (result !== null) expect(this.money.recorded.has(result)).toBe(true);
  }
}

describe('[R10-1] no sequence of events charges a play twice or loses a charged play (property)', () => {
  it('holds over random sequences of players, buttons, time, faults and prize changes', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 80 }), fc.infiniteStream(fc.boolean()), (commands, refusals) => {
        const world = new World(() => refusals.next().value);
        for (const c of commands) {
          world.run(c);
          world.checkNothingLost();
        }
        // Then the station opens, everyone stops calling, and time runs on: every play ends.
        world.send({ type: 'setStatus', status: 'open' });
        world.advance(PLAY_TIMINGS.graceMs + 10 * 60_000);
        world.checkNothingLost();
        expect(world.heldPlay()).toBeNull();
        for (const playId of world.money.charged.keys()) {
          expect(world.money.recorded.has(playId) || world.money.refunded.has(playId), `play ${playId}`).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a play left alone runs to its result through its button limits (15 s each) and the claw', () => {
    const world = new World(() => false);
    world.run({ kind: 'join', user: 1 });
    world.run({ kind: 'confirm', user: 1 });
    world.advance(PLAY_TIMINGS.resetMs + 2 * PLAY_TIMINGS.buttonLimitMs);
    for (let s = 0; s < 60 && world.state.turn.phase !== 'result'; s += 1) world.advance(1000);
    expect(world.state.turn.phase).toBe('result');
    expect(world.money.recorded.size).toBe(1);
  });
});
