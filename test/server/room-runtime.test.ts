import { z } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import type { RoomCarrier, RoomRules } from '../../server/rooms/room';
import {
  NOT_HERE,
  RelayRefused,
  RoomNotFound,
  RoomRegistry,
  RoomUnavailable,
  type RoomKind,
  type RoomRelay,
} from '../../server/rooms/room-registry';
import type { RoomOwnership } from '../../server/rooms/room-ownership';
import { ManualServerClock } from '../support/manual-server-clock';

/**
 * The generic room runtime (server/rooms/) with a small kind of its own: a counter room whose
 * users take numbered tickets through a store that answers (or refuses, or hangs) as the test
 * says, with one deadline. What it shows holds for every kind (stations, kuji boxes).
 */
interface CounterState {
  readonly holders: readonly number[];
  readonly issued: number;
  /** When the first ticket lapses (every holder is dropped then). */
  readonly deadline: number | null;
  readonly taking: number | null;
}
type CounterEvent =
  | { readonly type: 'take'; readonly userId: number }
  | { readonly type: 'taken'; readonly userId: number; readonly ticket: number }
  | { readonly type: 'refusedTake' }
  | { readonly type: 'leave'; readonly userId: number }
  | { readonly type: 'peek' }
  | { readonly type: 'clock' }
  | { readonly type: 'resumed' };
type CounterRequest = Extract<CounterEvent, { type: 'take' | 'leave' | 'peek' }>;
type CounterEffect = { readonly type: 'issue'; readonly userId: number } | { readonly type: 'save' };
type CounterAnswer = { readonly kind: 'ok' } | { readonly kind: 'ticket'; readonly ticket: number };
type CounterReply = CounterAnswer & { readonly holders: readonly number[] };

const RULES: RoomRules<CounterState, CounterEvent, CounterEffect, CounterAnswer, CounterState> = {
  transition(state, event, now) {
    switch (event.type) {
      case 'take':
        return {
          state: { ...state, taking: event.userId },
          effects: [{ type: 'issue', userId: event.userId }],
          answer: { kind: 'ok' },
        };
      case 'taken':
        return {
          state: {
            holders: [...state.holders, event.userId],
            issued: event.ticket,
            deadline: state.deadline ?? now + 1_000,
            taking: null,
          },
          effects: [{ type: 'save' }],
          answer: { kind: 'ticket', ticket: event.ticket },
        };
      case 'refusedTake':
        return { state: { ...state, taking: null }, effects: [], answer: { kind: 'ok' } };
      case 'leave':
        return {
          state: { ...state, holders: state.holders.filter((u) => u !== event.userId) },
          effects: [{ type: 'save' }],
          answer: { kind: 'ok' },
        };
      case 'peek':
        return { state, effects: [], answer: { kind: 'ok' } };
      case 'clock':
        return state.deadline !== null && now >= state.deadline
          ? { state: { ...state, holders: [], deadline: null }, effects: [{ type: 'save' }], answer: { kind: 'ok' } }
          : { state, effects: [], answer: { kind: 'ok' } };
      case 'resumed':
        return { state, effects: [], answer: { kind: 'ok' } };
    }
  },
  restore: (snapshot) => ({ state: snapshot, effects: [] }),
  nextWakeup: (state) => state.deadline,
  clockEvent: { type: 'clock' },
  resumedEvent: { type: 'resumed' },
};

const requests = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('take'), userId: z.int() }),
  z.strictObject({ type: z.literal('leave'), userId: z.int() }),
  z.strictObject({ type: z.literal('peek') }),
]) satisfies z.ZodMiniType<CounterRequest>;

/** The counters' store: what the test makes it answer. */
class CounterStore {
  readonly saved = new Map<number, CounterState>();
  issueCalls: number[] = [];
  refuse = false;
  failSave = false;
  hang: Promise<void> | null = null;
  constructor(ids: readonly number[]) {
    for (const id of ids) this.saved.set(id, { holders: [], issued: 0, deadline: null, taking: null });
  }
}

function counterKind(
  store: CounterStore,
): RoomKind<
  CounterState,
  CounterEvent,
  CounterRequest,
  CounterEffect,
  CounterAnswer,
  CounterReply,
  CounterState & { readonly id: number }
> {
  return {
    name: 'counter',
    rules: RULES as never,
    requests,
    reply: (state, _event, answer) => ({ ...answer, holders: state.holders }),
    users: (state) => state.holders,
    vacant: (state) => state.holders.length === 0,
    load: async (ids) =>
      [...store.saved].filter(([id]) => !ids || ids.includes(id)).map(([id, state]) => ({ ...state, id })),
    idOf: (snapshot) => snapshot.id,
    carrier: (id): RoomCarrier<CounterState, CounterEvent, CounterEffect, CounterState & { readonly id: number }> => ({
      load: async () => {
        const state = store.saved.get(id);
        return state ? { ...state, id } : null;
      },
      failed: (effect) => (effect.type === 'issue' ? { type: 'refusedTake' } : 'reload'),
      async carryOut(effect, room) {
        if (effect.type === 'issue') {
          store.issueCalls.push(id);
          if (store.hang) await store.hang;
          if (store.refuse) throw new Error('refused by the store');
          return { type: 'taken', userId: effect.userId, ticket: room.state.issued + 1 };
        }
        await room.write(async () => {
          if (store.failSave) throw new Error('the database is gone');
          store.saved.set(id, { ...room.state, taking: null });
        });
        return null;
      },
    }),
  };
}

const quiet = { log: () => undefined };

function counters(ids: readonly number[] = [1, 2], ownership?: RoomOwnership) {
  const clock = new ManualServerClock(new Date('2026-11-28T12:00:00+09:00'));
  const store = new CounterStore(ids);
  const rooms = new RoomRegistry(
    { counter: counterKind(store) },
    { clock, ...quiet, ...(ownership ? { ownership } : {}) },
  );
  return { clock, store, rooms };
}

describe('the room runtime (issue 41)', () => {
  it("an event's effects are carried out in order, and an effect's outcome is the next event before anything else", async () => {
    const { rooms, store } = counters();
    const answers = await Promise.all([
      rooms.send('counter', 1, { type: 'take', userId: 10 }),
      rooms.send('counter', 1, { type: 'take', userId: 11 }),
      rooms.send('counter', 1, { type: 'take', userId: 12 }),
    ]);
    // One at a time: each take saw the ticket the one before it issued.
    expect(answers.map((a) => a.kind === 'ticket' && a.ticket)).toEqual([1, 2, 3]);
    expect(answers[2]!.holders).toEqual([10, 11, 12]);
    expect(store.saved.get(1)?.holders).toEqual([10, 11, 12]);
    await rooms.close();
  });

  it("one room's hanging store call never delays another room", async () => {
    const { rooms, store } = counters();
    let release: () => void = () => undefined;
    store.hang = new Promise((resolve) => (release = resolve));
    const first = rooms.send('counter', 1, { type: 'take', userId: 10 });
    await expect.poll(() => store.issueCalls).toEqual([1]);
    store.hang = null;
    // Room 2 takes and answers while room 1 still waits on its store.
    expect(await rooms.send('counter', 2, { type: 'take', userId: 20 })).toMatchObject({ kind: 'ticket', ticket: 1 });
    release();
    expect(await first).toMatchObject({ kind: 'ticket', ticket: 1 });
    await rooms.close();
  });

  it('a refused effect takes the room back (its failed event) and the refusal reaches the caller; a failed write reloads the room from the store', async () => {
    const { rooms, store } = counters();
    store.refuse = true;
    await expect(rooms.send('counter', 1, { type: 'take', userId: 10 })).rejects.toThrow('refused by the store');
    expect(rooms.peek('counter', 1)).toMatchObject({ taking: null, holders: [] });
    store.refuse = false;
    await rooms.send('counter', 1, { type: 'take', userId: 10 });
    store.failSave = true;
    await expect(rooms.send('counter', 1, { type: 'leave', userId: 10 })).rejects.toThrow('the database is gone');
    // The store still holds player 10: so does the room, read again from it.
    expect(rooms.peek('counter', 1)?.holders).toEqual([10]);
    await rooms.close();
  });

  it('the one timer wakes the room at the deadline its state names, on the injected clock', async () => {
    const { rooms, clock } = counters();
    await rooms.send('counter', 1, { type: 'take', userId: 10 });
    clock.advance(999);
    await rooms.idle();
    expect(rooms.peek('counter', 1)?.holders).toEqual([10]);
    clock.advance(1);
    await rooms.idle();
    expect(rooms.peek('counter', 1)?.holders).toEqual([]);
    await rooms.close();
  });

  it("a user's events go to the room where they have a place; none: null", async () => {
    const { rooms } = counters();
    await rooms.send('counter', 2, { type: 'take', userId: 20 });
    expect(await rooms.sendToUser('counter', 20, { type: 'leave', userId: 20 })).toMatchObject({ holders: [] });
    expect(await rooms.sendToUser('counter', 20, { type: 'leave', userId: 20 })).toBeNull();
    await rooms.close();
  });

  it('no such room: RoomNotFound, before anything is loaded for an id out of range', async () => {
    const { rooms } = counters();
    await expect(rooms.send('counter', 3, { type: 'peek' })).rejects.toBeInstanceOf(RoomNotFound);
    await expect(rooms.send('counter', 0, { type: 'peek' })).rejects.toBeInstanceOf(RoomNotFound);
    await expect(rooms.send('counter', 2 ** 31, { type: 'peek' })).rejects.toBeInstanceOf(RoomNotFound);
    expect(rooms.running('counter')).toEqual([]);
    await rooms.close();
  });

  it('a relayed event runs only if it is one of the kind’s requests, for a room or a user here', async () => {
    const { rooms } = counters();
    await rooms.send('counter', 1, { type: 'take', userId: 10 });
    await expect(rooms.relayed({ room: 'counter:1' }, { type: 'taken', userId: 1, ticket: 99 })).rejects.toBeInstanceOf(
      RelayRefused,
    );
    await expect(rooms.relayed({ room: 'counter:1' }, { type: 'clock' })).rejects.toBeInstanceOf(RelayRefused);
    await expect(rooms.relayed({ room: 'nothing:1' }, { type: 'peek' })).rejects.toBeInstanceOf(RelayRefused);
    await expect(rooms.relayed({ kind: 'constructor', user: 1 }, { type: 'peek' })).rejects.toBeInstanceOf(
      RelayRefused,
    );
    expect(await rooms.relayed({ room: 'counter:1' }, { type: 'peek' })).toMatchObject({ holders: [10] });
    expect(await rooms.relayed({ kind: 'counter', user: 10 }, { type: 'peek' })).toMatchObject({ holders: [10] });
    expect(await rooms.relayed({ kind: 'counter', user: 11 }, { type: 'peek' })).toBe(NOT_HERE);
    expect(rooms.peek('counter', 1)?.issued).toBe(1);
    await rooms.close();
  });

  it('several instances: an event for a room that runs elsewhere travels as data; nobody answering, this instance takes the room; no answer in time: unavailable', async () => {
    let owned = false;
    const claims: string[] = [];
    const ownership: RoomOwnership = {
      distributed: true,
      owns: () => owned,
      claim: async (id) => {
        claims.push(id);
        owned = true;
        return 'here';
      },
    };
    const { rooms } = counters([1], ownership);
    const sent: unknown[] = [];
    let answer: Awaited<ReturnType<RoomRelay['send']>> = { answered: true, reply: { kind: 'ok', holders: [7] } };
    rooms.setRelay({
      send: async (address, event) => {
        sent.push({ address, event });
        return answer;
      },
    });
    expect(await rooms.send('counter', 1, { type: 'peek' })).toEqual({ kind: 'ok', holders: [7] });
    expect(sent).toEqual([{ address: { room: 'counter:1' }, event: { type: 'peek' } }]);
    answer = { answered: false, complete: false };
    await expect(rooms.send('counter', 1, { type: 'peek' })).rejects.toBeInstanceOf(RoomUnavailable);
    expect(await rooms.sendIfRunning('counter', 1, { type: 'peek' })).toBeNull();
    answer = { answered: false, complete: true };
    expect(await rooms.send('counter', 1, { type: 'take', userId: 5 })).toMatchObject({ kind: 'ticket', ticket: 1 });
    expect(claims).toEqual(['counter:1']);
    expect(rooms.running('counter')).toEqual([1]);
    await rooms.close();
  });

  it('a vacant room is given back (closed in the same turn as the check); a room with someone in it is kept', async () => {
    const { rooms } = counters();
    await rooms.send('counter', 1, { type: 'take', userId: 10 });
    await rooms.send('counter', 2, { type: 'peek' });
    expect(await rooms.release('counter:1')).toBe(false);
    expect(await rooms.release('counter:2')).toBe(true);
    expect(rooms.running('counter')).toEqual([1]);
    await rooms.close();
    // Closed for good: an event for a room no longer running here is not taken.
    await expect(rooms.send('counter', 1, { type: 'peek' })).rejects.toThrow();
  });
});
