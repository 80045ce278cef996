import { describe, expect, it } from 'vitest';
import {
  KUJI_BOX_EVENT_TYPES,
  kujiNextWakeup,
  kujiTransition,
  MAX_LEDGER_AMOUNT,
  restoreKujiBox,
  type KujiBoxAnswer,
  type KujiBoxEffect,
  type KujiBoxEvent,
  type KujiBoxEventType,
  type KujiBoxWrite,
  type KujiDrawRequest,
} from '../../../src/domain';
import {
  aBox,
  aDraw,
  HOLDER,
  LIMITS,
  PHASES,
  phaseOf,
  STRANGER,
  T0,
  WAITING,
  type KujiPhase,
} from './kuji-box.fixtures';

/** Before every window of the fixtures ends, and after all of them (for `clock`). */
const EARLY = T0 + 1000;
const LATE = T0 + LIMITS.confirm * 1000 + 60_000;

const REQUEST: KujiDrawRequest = {
  userId: HOLDER.userId,
  token: HOLDER.token,
  kujiId: 1,
  count: 3,
  requestId: 'request-1',
};

/** One representative event of each type, from the holder where an event has a caller. */
const EVENTS: Record<KujiBoxEventType, KujiBoxEvent> = {
  join: { type: 'join', userId: 30, kujiId: 1 },
  joined: { type: 'joined', place: { reserveId: 300, userId: 30, token: 'new-token', asHolder: false, at: EARLY } },
  cancel: { type: 'cancel', userId: HOLDER.userId, token: HOLDER.token, kujiId: 1 },
  draw: { type: 'draw', ...REQUEST },
  drawChecked: { type: 'drawChecked', request: REQUEST, previous: null },
  drawn: { type: 'drawn', draw: aDraw(), count: 3, lastOne: false, at: EARLY },
  setStatus: { type: 'setStatus', status: 'endOfSale' },
  setStock: { type: 'setStock', prizes: [{ rank: 'A賞', quantity: 2 }] },
  stockSet: { type: 'stockSet', remaining: 12 },
  look: { type: 'look' },
  clock: { type: 'clock' },
  resumed: { type: 'resumed' },
};

/**
 * Every (phase, event) pair: the phase after the step and the answer (a refusal by its reason).
 * Every box but the free and the ended one has a player waiting behind the holder, so a holder who
 * goes is followed by the next ('held' again, for the next player).
 */
const TABLE: Record<KujiPhase, Record<KujiBoxEventType, string>> = {
  free: {
    join: 'free ok',
    joined: 'free ok',
    cancel: 'free notActive',
    draw: 'free ok',
    drawChecked: 'free notActive',
    drawn: 'free drawn',
    setStatus: 'ended box',
    setStock: 'free stockFixed',
    stockSet: 'free ok',
    look: 'free ok',
    clock: 'free ok',
    resumed: 'free ok',
  },
  held: {
    join: 'held ok',
    joined: 'held ok',
    cancel: 'held ok',
    draw: 'held ok',
    drawChecked: 'held ok',
    drawn: 'drawing drawn',
    setStatus: 'ended box',
    setStock: 'held stockFixed',
    stockSet: 'held ok',
    look: 'held ok',
    clock: 'held ok',
    resumed: 'held ok',
  },
  drawing: {
    join: 'drawing ok',
    joined: 'drawing ok',
    cancel: 'held ok',
    draw: 'drawing ok',
    drawChecked: 'drawing ok',
    drawn: 'drawing drawn',
    setStatus: 'ended box',
    setStock: 'drawing stockFixed',
    stockSet: 'drawing ok',
    look: 'drawing ok',
    clock: 'held ok',
    resumed: 'drawing ok',
  },
  ended: {
    join: 'ended notOnSale',
    joined: 'ended ok',
    cancel: 'ended notActive',
    draw: 'ended ok',
    drawChecked: 'ended notActive',
    drawn: 'ended drawn',
    setStatus: 'ended box',
    setStock: 'ended stockFixed',
    stockSet: 'ended ok',
    look: 'ended ok',
    clock: 'ended ok',
    resumed: 'ended ok',
  },
};

const answerText = (a: KujiBoxAnswer): string => (a.kind === 'refused' ? a.refusal : a.kind);
const writesOf = (effects: readonly KujiBoxEffect[]): KujiBoxWrite[] =>
  effects.flatMap((e) => (e.type === 'commit' ? e.writes : e.type === 'draw' ? e.writes : []));
const types = (effects: readonly KujiBoxEffect[]) => effects.map((e) => e.type);

describe('[R4.4-5] a kuji box room as one pure state machine (every phase × every event)', () => {
  for (const phase of Object.keys(PHASES) as KujiPhase[]) {
    for (const type of KUJI_BOX_EVENT_TYPES) {
      it(`${phase} × ${type} → ${TABLE[phase][type]}`, () => {
        const step = kujiTransition(PHASES[phase], EVENTS[type], type === 'clock' ? LATE : EARLY);
        expect(`${phaseOf(step.state)} ${answerText(step.answer)}`).toBe(TABLE[phase][type]);
        // A step writes at most once (one transaction), before the world is told; a box has one holder at most.
        expect(step.effects.filter((e) => e.type === 'commit' || e.type === 'draw').length).toBeLessThanOrEqual(1);
        expect(step.effects.findIndex((e) => e.type === 'commit')).toBeLessThanOrEqual(0);
        if (step.state.box.status !== 'onSale') expect([step.state.holder, step.state.line]).toEqual([null, []]);
      });
    }
  }

  it('a clock that strikes before any window ends changes nothing', () => {
    for (const phase of Object.keys(PHASES) as KujiPhase[]) {
      const box = PHASES[phase];
      expect(kujiTransition(box, { type: 'clock' }, EARLY)).toEqual({
        state: box,
        effects: [],
        answer: { kind: 'ok' },
      });
    }
  });

  it("nobody but the holder draws or gives up the holder's place: a stranger's events change nothing in any phase", () => {
    for (const phase of Object.keys(PHASES) as KujiPhase[]) {
      for (const event of [
        { type: 'cancel', userId: STRANGER, token: HOLDER.token, kujiId: 1 },
        { type: 'drawChecked', request: { ...REQUEST, userId: STRANGER }, previous: null },
        { type: 'drawChecked', request: { ...REQUEST, token: 'guessed-token' }, previous: null },
        { type: 'drawChecked', request: { ...REQUEST, kujiId: 2 }, previous: null },
      ] satisfies KujiBoxEvent[]) {
        const step = kujiTransition(PHASES[phase], event, EARLY);
        expect(step.state, `${phase} × ${event.type}`).toBe(PHASES[phase]);
        expect(step.effects).toEqual([]);
        expect(step.answer).toEqual({ kind: 'refused', refusal: 'notActive' });
      }
    }
  });
});

describe('[R4.4-5] the line of a box, step by step', () => {
  it('the first player to join a free box holds it from now; the next waits in line; each place is written by the store', () => {
    const first = kujiTransition(PHASES.free, EVENTS.join, EARLY);
    expect(first.effects).toEqual([{ type: 'addToLine', userId: 30, kujiId: 1, asHolder: true, at: EARLY }]);
    const held = kujiTransition(
      PHASES.free,
      { type: 'joined', place: { reserveId: 300, userId: 30, token: 'new-token', asHolder: true, at: EARLY } },
      EARLY,
    );
    expect(held.state.holder).toEqual({
      reserveId: 300,
      userId: 30,
      token: 'new-token',
      status: 'firstReserved',
      playAt: EARLY,
    });
    expect(types(held.effects)).toEqual(['lineChanged']);
    expect(kujiTransition(PHASES.held, EVENTS.join, EARLY).effects).toEqual([
      { type: 'addToLine', userId: 30, kujiId: 1, asHolder: false, at: EARLY },
    ]);
    const queued = kujiTransition(PHASES.held, EVENTS.joined, EARLY);
    expect(queued.state.line.map((p) => p.reserveId)).toEqual([WAITING.reserveId, 300]);
    // The same place answered twice is taken once.
    expect(kujiTransition(queued.state, EVENTS.joined, EARLY).state).toBe(queued.state);
  });

  it('a place is refused: another kuji or a deleted box (404), outside the sale period, not on sale, sold out, a second place here', () => {
    const refusal = (box: Parameters<typeof aBox>[0], event: KujiBoxEvent = EVENTS.join) =>
      kujiTransition({ ...PHASES.free, box: aBox(box) }, event, EARLY).answer;
    expect(refusal({}, { type: 'join', userId: 30, kujiId: 2 })).toEqual({ kind: 'refused', refusal: 'notFound' });
    expect(refusal({ status: 'deleted' })).toEqual({ kind: 'refused', refusal: 'notFound' });
    expect(refusal({ saleStartsAt: EARLY + 1 })).toEqual({ kind: 'refused', refusal: 'outOfPeriod' });
    expect(refusal({ saleEndsAt: EARLY })).toEqual({ kind: 'refused', refusal: 'outOfPeriod' });
    expect(refusal({ status: 'ready' })).toEqual({ kind: 'refused', refusal: 'notOnSale' });
    expect(refusal({ remaining: 0 })).toEqual({ kind: 'refused', refusal: 'empty' });
    for (const userId of [HOLDER.userId, WAITING.userId])
      expect(kujiTransition(PHASES.held, { type: 'join', userId, kujiId: 1 }, EARLY).answer).toEqual({
        kind: 'refused',
        refusal: 'alreadyReserved',
      });
  });

  it('[R4.4-4] the holder who gives up hands the box to the first in line, told "your turn"; a waiting player leaves the line', () => {
    const gone = kujiTransition(PHASES.held, EVENTS.cancel, EARLY);
    expect(writesOf(gone.effects)).toEqual([
      {
        kind: 'endPlaces',
        reserveIds: [HOLDER.reserveId],
        status: 'cancel',
        reason: 'user_cancel',
        drawer: null,
        at: EARLY,
      },
      { kind: 'holder', reserveId: WAITING.reserveId, status: 'firstReserved', at: EARLY },
    ]);
    expect(types(gone.effects)).toEqual(['commit', 'turnNow', 'lineChanged']);
    expect(gone.state).toMatchObject({ holder: { ...WAITING, status: 'firstReserved', playAt: EARLY }, line: [] });
    const left = kujiTransition(
      PHASES.held,
      { type: 'cancel', userId: WAITING.userId, token: WAITING.token, kujiId: 1 },
      EARLY,
    );
    expect(writesOf(left.effects)).toEqual([
      {
        kind: 'endPlaces',
        reserveIds: [WAITING.reserveId],
        status: 'cancel',
        reason: 'user_cancel',
        drawer: null,
        at: EARLY,
      },
    ]);
    expect(left.state).toMatchObject({ holder: HOLDER, line: [] });
  });

  it("[R4.4-5] the holder's windows: firstReserved from taking the box, confirm from each draw; lapsed, the place ends (timeout) and the next holds the box", () => {
    expect(kujiNextWakeup(PHASES.held)).toBe(T0 + LIMITS.firstReserved * 1000);
    expect(kujiNextWakeup(PHASES.drawing)).toBe(T0 + LIMITS.confirm * 1000);
    expect(kujiTransition(PHASES.held, { type: 'clock' }, T0 + LIMITS.firstReserved * 1000 - 1).effects).toEqual([]);
    const lapsed = kujiTransition(PHASES.held, { type: 'clock' }, T0 + LIMITS.firstReserved * 1000);
    expect(writesOf(lapsed.effects)).toEqual([
      {
        kind: 'endPlaces',
        reserveIds: [HOLDER.reserveId],
        status: 'end',
        reason: 'timeout',
        drawer: null,
        at: T0 + LIMITS.firstReserved * 1000,
      },
      { kind: 'holder', reserveId: WAITING.reserveId, status: 'firstReserved', at: T0 + LIMITS.firstReserved * 1000 },
    ]);
    expect(types(lapsed.effects)).toEqual(['commit', 'turnNow', 'lineChanged']);
    // Nobody waits: the box is free after the lapse.
    const alone = kujiTransition({ ...PHASES.held, line: [] }, { type: 'clock' }, LATE);
    expect(alone.state.holder).toBeNull();
    expect(kujiNextWakeup(alone.state)).toBe(aBox().saleEndsAt);
  });
});

describe('the draw, step by step (docs/kuji.md)', () => {
  it('a request id is looked up first: a draw already made is answered again, whatever happened since', () => {
    expect(kujiTransition(PHASES.ended, EVENTS.draw, EARLY).effects).toEqual([{ type: 'findDraw', request: REQUEST }]);
    const replay = aDraw({ replayed: 1 });
    const again = kujiTransition(PHASES.ended, { type: 'drawChecked', request: REQUEST, previous: replay }, EARLY);
    expect(again).toEqual({ state: PHASES.ended, effects: [], answer: { kind: 'drawn', draw: replay } });
  });

  it('refused before anything is written, in order: not your turn, window lapsed (it lapses now), not on sale, out of period, empty, too few left, too large', () => {
    const check = (state = PHASES.held, request: Partial<KujiDrawRequest> = {}, now = EARLY) =>
      kujiTransition(state, { type: 'drawChecked', request: { ...REQUEST, ...request }, previous: null }, now);
    expect(check(PHASES.held, { userId: WAITING.userId, token: WAITING.token }).answer).toEqual({
      kind: 'refused',
      refusal: 'notYourTurn',
    });
    const lapsed = check(PHASES.held, {}, T0 + LIMITS.firstReserved * 1000);
    expect(lapsed.answer).toEqual({ kind: 'refused', refusal: 'reservationEnded' });
    expect(lapsed.state.holder?.reserveId).toBe(WAITING.reserveId);
    expect(types(lapsed.effects)).toEqual(['commit', 'turnNow', 'lineChanged']);
    const on = (box: Parameters<typeof aBox>[0]) => ({ ...PHASES.held, box: aBox(box) });
    expect(check(on({ status: 'endOfSale' })).answer).toMatchObject({ refusal: 'notOnSale' });
    expect(check(on({ saleEndsAt: EARLY })).answer).toMatchObject({ refusal: 'outOfPeriod' });
    expect(check(on({ remaining: 0 })).answer).toMatchObject({ refusal: 'empty' });
    expect(check(on({ remaining: 2 })).answer).toEqual({ kind: 'refused', refusal: 'notEnoughTickets', remaining: 2 });
    expect(check(on({ price: MAX_LEDGER_AMOUNT })).answer).toMatchObject({ refusal: 'drawTooLarge' });
    for (const refusedStep of [check(on({ remaining: 2 })), check(on({ status: 'ready' }))])
      expect(refusedStep.effects).toEqual([]);
  });

  it('a draw that leaves tickets: charged count × price in one transaction that restarts the holder’s confirm window', () => {
    const step = kujiTransition(PHASES.held, EVENTS.drawChecked, EARLY);
    expect(step.effects).toEqual([
      {
        type: 'draw',
        request: REQUEST,
        reserveId: HOLDER.reserveId,
        count: 3,
        priceTotal: 1500,
        lastOne: false,
        at: EARLY,
        writes: [{ kind: 'holder', reserveId: HOLDER.reserveId, status: 'confirm', at: EARLY }],
      },
    ]);
    // The room changes when the draw has landed.
    expect(step.state).toBe(PHASES.held);
    const drawn = kujiTransition(PHASES.held, EVENTS.drawn, EARLY);
    expect(drawn.state).toMatchObject({ box: { remaining: 7 }, holder: { status: 'confirm', playAt: EARLY } });
    expect(drawn.effects).toEqual([]);
  });

  it('the last ticket sells the box out: the last-one prize, outOfStock, the seed published, every place ended (the drawer as drawn) and play_end — all with the draw', () => {
    const last = kujiTransition(
      { ...PHASES.drawing, box: aBox({ remaining: 4 }) },
      { type: 'drawChecked', request: { ...REQUEST, count: 'all' }, previous: null },
      EARLY,
    );
    expect(last.effects).toEqual([
      expect.objectContaining({
        type: 'draw',
        count: 4,
        priceTotal: 2000,
        lastOne: true,
        writes: [
          { kind: 'status', status: 'outOfStock' },
          { kind: 'reveal', at: EARLY },
          {
            kind: 'endPlaces',
            reserveIds: [HOLDER.reserveId, WAITING.reserveId],
            status: 'end',
            reason: 'box_ended',
            drawer: HOLDER.reserveId,
            at: EARLY,
          },
        ],
      }),
    ]);
    const soldOut = kujiTransition(
      { ...PHASES.drawing, box: aBox({ remaining: 4 }) },
      { type: 'drawn', draw: aDraw({ box_status: 'outOfStock' }), count: 4, lastOne: true, at: EARLY },
      EARLY,
    );
    expect(soldOut.state).toMatchObject({
      box: { remaining: 0, status: 'outOfStock', revealed: true },
      holder: null,
      line: [],
    });
    // The watchers hear that the box ended, not that its line changed.
    expect(types(soldOut.effects)).toEqual(['boxEnded']);
    expect(kujiNextWakeup(soldOut.state)).toBeNull();
  });

  it('a box on sale that never opened fixes its order with its first draw', () => {
    const step = kujiTransition({ ...PHASES.held, box: aBox({ opened: false }) }, EVENTS.drawChecked, EARLY);
    expect(writesOf(step.effects)[0]).toEqual({ kind: 'open', at: EARLY });
  });
});

describe('the operator and time (docs/kuji.md)', () => {
  it('on sale: the order is fixed once (never after the seed is out); any other status ends the box: seed, line, play_end', () => {
    expect(
      writesOf(
        kujiTransition(
          { ...PHASES.ended, box: aBox({ status: 'ready', opened: false }) },
          { type: 'setStatus', status: 'onSale' },
          EARLY,
        ).effects,
      ),
    ).toEqual([
      { kind: 'status', status: 'onSale' },
      { kind: 'open', at: EARLY },
    ]);
    expect(kujiTransition(PHASES.ended, { type: 'setStatus', status: 'onSale' }, EARLY).answer).toEqual({
      kind: 'refused',
      refusal: 'seedPublished',
    });
    const ended = kujiTransition(PHASES.held, { type: 'setStatus', status: 'deleted' }, EARLY);
    expect(writesOf(ended.effects)).toEqual([
      { kind: 'status', status: 'deleted' },
      { kind: 'reveal', at: EARLY },
      {
        kind: 'endPlaces',
        reserveIds: [HOLDER.reserveId, WAITING.reserveId],
        status: 'end',
        reason: 'box_ended',
        drawer: null,
        at: EARLY,
      },
    ]);
    expect(types(ended.effects)).toEqual(['commit', 'boxEnded']);
    expect(ended.answer).toEqual({ kind: 'box', kujiId: 1, boxId: 3, status: 'deleted' });
  });

  it('the stock is set before the box opens only; the room then knows the tickets the store holds', () => {
    const box = { ...PHASES.ended, box: aBox({ status: 'ready', opened: false, revealed: false }) };
    expect(kujiTransition(box, EVENTS.setStock, EARLY).effects).toEqual([
      { type: 'setStock', prizes: [{ rank: 'A賞', quantity: 2 }] },
    ]);
    expect(kujiTransition(box, EVENTS.stockSet, EARLY).state.box.remaining).toBe(12);
  });

  it("a kuji's sale ends: the seed of each box that opened is published then (its room wakes for it)", () => {
    const end = aBox().saleEndsAt;
    expect(kujiNextWakeup(PHASES.free)).toBe(end);
    const revealed = kujiTransition(PHASES.free, { type: 'clock' }, end);
    expect(writesOf(revealed.effects)).toEqual([{ kind: 'reveal', at: end }]);
    expect(revealed.state.box.revealed).toBe(true);
    expect(kujiNextWakeup(revealed.state)).toBeNull();
    // A box that never opened has no seed to publish.
    expect(kujiTransition({ ...PHASES.free, box: aBox({ opened: false }) }, { type: 'clock' }, end).effects).toEqual(
      [],
    );
  });

  it('a restart: the stored places come back as they were; what fell due meanwhile is done at resume; a box on sale with no order gets one', () => {
    const snapshot = {
      box: aBox({ opened: false }),
      places: [
        { ...WAITING, status: 'reserve' as const, playAt: null },
        { reserveId: 100, userId: 10, token: 'holder-token', status: 'firstReserved' as const, playAt: T0 },
      ],
      limits: LIMITS,
    };
    const restored = restoreKujiBox(snapshot, LATE);
    expect(restored).toEqual({
      state: { box: snapshot.box, holder: HOLDER, line: [WAITING], limits: LIMITS },
      effects: [],
    });
    const resumed = kujiTransition(restored.state, { type: 'resumed' }, LATE);
    expect(writesOf(resumed.effects)).toEqual([
      { kind: 'open', at: LATE },
      { kind: 'endPlaces', reserveIds: [HOLDER.reserveId], status: 'end', reason: 'timeout', drawer: null, at: LATE },
      { kind: 'holder', reserveId: WAITING.reserveId, status: 'firstReserved', at: LATE },
    ]);
    expect(resumed.state.holder?.reserveId).toBe(WAITING.reserveId);
    // Places stored for a box that is no longer on sale end (box_ended) as it comes back.
    const stale = restoreKujiBox({ ...snapshot, box: aBox({ status: 'endOfSale' }) }, LATE);
    expect(stale.state).toMatchObject({ holder: null, line: [] });
    expect(writesOf(stale.effects)).toEqual([
      { kind: 'endPlaces', reserveIds: [200, 100], status: 'end', reason: 'box_ended', drawer: null, at: LATE },
    ]);
  });
});
