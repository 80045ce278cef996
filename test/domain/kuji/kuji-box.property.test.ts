import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KUJI_BOX_STATUSES,
  kujiNextWakeup,
  kujiTransition,
  restoreKujiBox,
  type KujiBoxEffect,
  type KujiBoxEvent,
  type KujiBoxSnapshot,
  type KujiBoxWrite,
  type KujiDrawCount,
  type KujiRoomState,
} from '../../../src/domain';
import { aBox, aDraw, LIMITS, T0 } from './kuji-box.fixtures';

/**
 * Any sequence of events, run through the pure box the way the server's room runs it (each effect
 * carried out by a model of the store, its outcome fed back as the next event; restarts rebuild the
 * box from that store), must keep the box and the money right:
 * - no ticket is drawn twice, and no more are drawn than the box held;
 * - a draw is charged once, count × price, and a resent request id never draws again;
 * - a charged draw is never lost: its caller is answered with it;
 * - the room knows the tickets the store holds, and one holder at most;
 * - a box that ended has nobody holding it or waiting for it, and its line in the store is over.
 */
type Command =
  | { readonly kind: 'join' | 'cancel'; readonly user: number }
  | { readonly kind: 'draw'; readonly user: number; readonly count: KujiDrawCount; readonly resend: boolean }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'status'; readonly status: (typeof KUJI_BOX_STATUSES)[number] }
  | { readonly kind: 'stock'; readonly quantity: number }
  | { readonly kind: 'restart' };

const user = fc.integer({ min: 1, max: 4 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('join', 'cancel'), user }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('draw'),
      user,
      count: fc.constantFrom<KujiDrawCount>(1, 3, 5, 10, 'all'),
      resend: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('wait'),
      ms: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 400_000 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status'), status: fc.constantFrom(...KUJI_BOX_STATUSES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stock'), quantity: fc.integer({ min: 0, max: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart') }) },
);

interface StoredPlace {
  reserveId: number;
  userId: number;
  token: string;
  status: 'reserve' | 'firstReserved' | 'confirm' | 'cancel' | 'end';
  playAt: number | null;
}

/** The store as the box's effects leave it, and the ledger. */
class Store {
  tickets = 12;
  opened = false;
  revealed = false;
  status: KujiRoomState['box']['status'] = 'onSale';
  places: StoredPlace[] = [];
  /** Ticket positions drawn, by draw. */
  draws = new Map<string, { drawId: number; count: number; price: number; positions: number[] }>();
  nextPosition = 0;
  charged = 0;
  nextId = 1;
  constructor(
    readonly price: number,
    readonly balance: Map<number, number>,
  ) {}

  snapshot(): KujiBoxSnapshot {
    return {
      box: aBox({
        price: this.price,
        remaining: this.tickets,
        status: this.status,
        opened: this.opened,
        revealed: this.revealed,
      }),
      places: this.places
        .filter((p) => p.status === 'reserve' || p.status === 'firstReserved' || p.status === 'confirm')
        .map((p) => ({ ...p, status: p.status as 'reserve' | 'firstReserved' | 'confirm' })),
      limits: LIMITS,
    };
  }

  write(w: KujiBoxWrite): void {
    switch (w.kind) {
      case 'open':
        this.opened = true;
        break;
      case 'status':
        this.status = w.status;
        break;
      case 'reveal':
        if (this.opened) this.revealed = true;
        break;
      case 'endPlaces':
        for (const p of this.places)
          if (w.reserveIds.includes(p.reserveId) && ['reserve', 'firstReserved', 'confirm'].includes(p.status))
            p.status = w.status;
        break;
      case 'holder': {
        const p = this.places.find((x) => x.reserveId === w.reserveId)!;
        p.status = w.status;
        p.playAt = w.at;
        break;
      }
    }
  }
}

class World {
  readonly store: Store;
  state: KujiRoomState;
  now = T0;
  /** Every draw a caller was answered with (fresh ones). */
  readonly answered = new Set<number>();
  private requestSeq = 0;

  constructor(
    price: number,
    private readonly refuseCharges: boolean,
  ) {
    this.store = new Store(price, new Map([1, 2, 3, 4].map((u) => [u, 10_000])));
    this.state = restoreKujiBox(this.store.snapshot(), this.now).state;
    this.step({ type: 'resumed' });
  }

  /** One event and every outcome it leads to, as the server's room takes them. */
  step(event: KujiBoxEvent): void {
    const step = kujiTransition(this.state, event, this.now);
    this.state = step.state;
    if (step.answer.kind === 'drawn' && step.answer.draw.replayed === 0) this.answered.add(step.answer.draw.draw_id);
    for (const effect of step.effects) {
      const outcome = this.carryOut(effect);
      if (outcome) this.step(outcome);
    }
  }

  private carryOut(effect: KujiBoxEffect): KujiBoxEvent | null {
    const s = this.store;
    switch (effect.type) {
      case 'commit':
        effect.writes.forEach((w) => s.write(w));
        return null;
      case 'addToLine': {
        // The store's own check: one kuji place per player.
        if (
          s.places.some((p) => p.userId === effect.userId && ['reserve', 'firstReserved', 'confirm'].includes(p.status))
        )
          return null;
        const place: StoredPlace = {
          reserveId: s.nextId++,
          userId: effect.userId,
          token: `token-${effect.userId}-${s.nextId}`,
          status: effect.asHolder ? 'firstReserved' : 'reserve',
          playAt: effect.asHolder ? effect.at : null,
        };
        s.places.push(place);
        return { type: 'joined', place: { ...place, asHolder: effect.asHolder, at: effect.at } };
      }
      case 'findDraw': {
        const previous = s.draws.get(`${effect.request.userId}:${effect.request.requestId}`);
        return {
          type: 'drawChecked',
          request: effect.request,
          previous: previous ? aDraw({ draw_id: previous.drawId, replayed: 1 }) : null,
        };
      }
      case 'draw': {
        const cost = effect.priceTotal;
        const balance = s.balance.get(effect.request.userId)!;
        // Too little TC (or the test's refusing ledger): the whole transaction rolls back.
        if (this.refuseCharges || balance < cost) return null;
        if (effect.writes.some((w) => w.kind === 'open')) s.opened = true;
        if (effect.count > s.tickets) throw new Error(`drew ${effect.count} of ${s.tickets} tickets left`);
        const positions = Array.from({ length: effect.count }, () => s.nextPosition++);
        const drawId = s.nextId++;
        s.draws.set(`${effect.request.userId}:${effect.request.requestId}`, {
          drawId,
          count: effect.count,
          price: cost,
          positions,
        });
        s.tickets -= effect.count;
        s.balance.set(effect.request.userId, balance - cost);
        s.charged += cost;
        effect.writes.filter((w) => w.kind !== 'open').forEach((w) => s.write(w));
        return {
          type: 'drawn',
          draw: aDraw({ draw_id: drawId, price_total: cost }),
          count: effect.count,
          lastOne: effect.lastOne,
          at: effect.at,
        };
      }
      case 'setStock':
        if (s.opened) throw new Error('the stock of an opened box was set');
        s.tickets = effect.prizes.reduce((n, p) => n + p.quantity, 0);
        return { type: 'stockSet', remaining: s.tickets };
      case 'lineChanged':
      case 'turnNow':
      case 'boxEnded':
        return null;
    }
  }

  run(c: Command): void {
    const place = (u: number) =>
      this.store.places.find((p) => p.userId === u && ['reserve', 'firstReserved', 'confirm'].includes(p.status)) ??
      [...this.store.places].reverse().find((p) => p.userId === u);
    switch (c.kind) {
      case 'join':
        return this.step({ type: 'join', userId: c.user, kujiId: 1 });
      case 'cancel': {
        const p = place(c.user);
        if (p) this.step({ type: 'cancel', userId: c.user, token: p.token, kujiId: 1 });
        return;
      }
      case 'draw': {
        const p = place(c.user);
        if (!p) return;
        if (!c.resend) this.requestSeq += 1;
        this.step({
          type: 'draw',
          userId: c.user,
          token: p.token,
          kujiId: 1,
          count: c.count,
          requestId: `request-${this.requestSeq}`,
        });
        return;
      }
      case 'wait': {
        // Time passes as the room's one timer sees it: each due instant, in order.
        const until = this.now + c.ms;
        for (let at = kujiNextWakeup(this.state); at !== null && at <= until; at = kujiNextWakeup(this.state)) {
          this.now = Math.max(this.now, at);
          this.step({ type: 'clock' });
        }
        this.now = until;
        return;
      }
      case 'status':
        return this.step({ type: 'setStatus', status: c.status });
      case 'stock':
        return this.step({ type: 'setStock', prizes: [{ rank: 'A', quantity: c.quantity }] });
      case 'restart':
        this.state = restoreKujiBox(this.store.snapshot(), this.now).state;
        return this.step({ type: 'resumed' });
    }
  }

  check(): void {
    const s = this.store;
    const drawn = [...s.draws.values()].flatMap((d) => d.positions);
    expect(new Set(drawn).size, 'a ticket drawn twice').toBe(drawn.length);
    expect(s.tickets, 'tickets left').toBeGreaterThanOrEqual(0);
    expect(s.charged, 'charged exactly the tickets drawn').toBe(drawn.length * s.price);
    for (const d of s.draws.values()) expect(this.answered.has(d.drawId), 'a charged draw answered').toBe(true);
    expect(this.state.box.remaining, 'the room knows the tickets the store holds').toBe(s.tickets);
    const holders = s.places.filter((p) => p.status === 'firstReserved' || p.status === 'confirm');
    expect(holders.length, 'one holder at most').toBeLessThanOrEqual(1);
    expect(this.state.holder?.reserveId ?? null).toBe(holders[0]?.reserveId ?? null);
    const active = s.places.filter((p) => p.status === 'reserve').map((p) => p.reserveId);
    expect(this.state.line.map((p) => p.reserveId).sort()).toEqual(active.sort());
    if (this.state.box.status !== 'onSale') {
      expect([this.state.holder, this.state.line]).toEqual([null, []]);
      expect(holders.length + active.length, 'an ended box has no line in the store').toBe(0);
    }
  }
}

describe('[R10-1] [R4.4-5] any sequence of events on a kuji box keeps the tickets and the money exact', () => {
  it('no ticket twice, each draw charged once for exactly its tickets and answered, one holder, ended boxes empty (3,000 sequences)', () => {
    fc.assert(
      fc.property(
        fc.array(command, { minLength: 1, maxLength: 60 }),
        fc.constantFrom(500, 800),
        fc.boolean(),
        (commands, price, refuseSome) => {
          const world = new World(price, false);
          const refusing = new World(price, refuseSome);
          for (const c of commands) {
            world.run(c);
            world.check();
            refusing.run(c);
            refusing.check();
          }
        },
      ),
      { numRuns: 3_000 },
    );
    // 3,000 sequences are CPU work only: 8-11 s alone, more with both unit workers and an e2e run busy.
  }, 60_000);

  it('a refused charge (too little TC) changes nothing: the holder keeps the box and its window', () => {
    const world = new World(500, true);
    world.run({ kind: 'join', user: 1 });
    const before = world.state;
    world.run({ kind: 'draw', user: 1, count: 3, resend: false });
    expect(world.state).toEqual(before);
    expect(world.store.charged).toBe(0);
    world.check();
  });
});
