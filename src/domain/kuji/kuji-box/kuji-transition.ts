import { MAX_LEDGER_AMOUNT } from '../../wallet/wallet.entity';
import { kujiWindowEndsAtMs } from '../kuji.rule';
import type {
  KujiBoxAnswer,
  KujiBoxEffect,
  KujiBoxEvent,
  KujiBoxRefusal,
  KujiRoomState,
  KujiBoxStep,
  KujiBoxWrite,
  KujiDrawRequest,
  KujiHolder,
  KujiPlace,
} from './kuji-box.types';

const OK: KujiBoxAnswer = { kind: 'ok' };
const refused = (refusal: KujiBoxRefusal): KujiBoxAnswer => ({ kind: 'refused', refusal });

interface Stepped {
  readonly state: KujiRoomState;
  readonly answer: KujiBoxAnswer;
}

/**
 * A kuji box's rules as one pure function (docs/kuji.md): given the box's state, an event and the
 * time, the next state, the effects to carry out in order (store writes, the draw with its charge,
 * pushes) and the answer to the caller. Every (phase, event) pair is defined; a request that does not
 * fit is refused with a reason and changes nothing (a draw arriving after its holder's window lapsed
 * is refused and lapses the window at once).
 *
 * What the tests check over any sequence of events: a ticket is drawn once; a draw is charged only
 * with the tickets it takes, once (its request id never draws twice); a charged draw is never lost;
 * the box has one holder at most; once it ends, nobody holds it or waits for it.
 */
export function kujiTransition(state: KujiRoomState, event: KujiBoxEvent, now: number): KujiBoxStep {
  const effects: KujiBoxEffect[] = [];
  const before = lineSignature(state);
  const { state: next, answer } = apply(state, event, now, effects);
  // Watchers poll when the line changed; a box that ended tells them that instead.
  if (lineSignature(next) !== before && !effects.some((e) => e.type === 'boxEnded'))
    effects.push({ type: 'lineChanged' });
  return { state: next, effects: oneCommit(effects), answer };
}

function apply(state: KujiRoomState, event: KujiBoxEvent, now: number, effects: KujiBoxEffect[]): Stepped {
  const { box } = state;
  switch (event.type) {
    // ---- the line -------------------------------------------------------------------------------
    case 'join': {
      const refusal = placeRefusal(state, event.kujiId, now);
      if (refusal) return { state, answer: refused(refusal) };
      if (placeOf(state, event.userId)) return { state, answer: refused('alreadyReserved') };
      effects.push({
        type: 'addToLine',
        userId: event.userId,
        kujiId: box.kujiId,
        asHolder: state.holder === null,
        at: now,
      });
      return { state, answer: OK };
    }
    case 'joined': {
      const { place } = event;
      if (state.holder?.reserveId === place.reserveId || state.line.some((p) => p.reserveId === place.reserveId))
        return { state, answer: OK };
      // A place written for a box that ended meanwhile (its events run one at a time, so it cannot
      // happen; the rule stands anyway): nobody waits for a box that cannot be drawn.
      if (box.status !== 'onSale') {
        effects.push(commit(endPlaces([place.reserveId], 'end', 'box_ended', now)));
        return { state, answer: OK };
      }
      const taken: KujiPlace = { reserveId: place.reserveId, userId: place.userId, token: place.token };
      if (place.asHolder && state.holder === null)
        return { state: { ...state, holder: { ...taken, status: 'firstReserved', playAt: place.at } }, answer: OK };
      return { state: { ...state, line: [...state.line, taken] }, answer: OK };
    }
    case 'cancel': {
      const { holder } = state;
      const mine = (p: KujiPlace) =>
        p.token === event.token && p.userId === event.userId && event.kujiId === box.kujiId;
      if (holder && mine(holder)) {
        effects.push(commit(endPlaces([holder.reserveId], 'cancel', 'user_cancel', now)));
        return { state: promote({ ...state, holder: null }, now, effects), answer: OK };
      }
      const waiting = state.line.find(mine);
      if (!waiting) return { state, answer: refused('notActive') };
      effects.push(commit(endPlaces([waiting.reserveId], 'cancel', 'user_cancel', now)));
      return { state: { ...state, line: state.line.filter((p) => p !== waiting) }, answer: OK };
    }

    // ---- the draw -------------------------------------------------------------------------------
    case 'draw': {
      const { type: _type, ...request } = event;
      // The same request id answers the first draw again, whatever happened since: looked up first.
      effects.push({ type: 'findDraw', request });
      return { state, answer: OK };
    }
    case 'drawChecked':
      if (event.previous) return { state, answer: { kind: 'drawn', draw: event.previous } };
      return draw(state, event.request, now, effects);
    case 'drawn': {
      const holder = state.holder;
      if (event.lastOne) {
        effects.push({ type: 'boxEnded' });
        return {
          state: {
            ...state,
            box: { ...box, remaining: 0, status: 'outOfStock', opened: true, revealed: true },
            holder: null,
            line: [],
          },
          answer: { kind: 'drawn', draw: event.draw },
        };
      }
      return {
        state: {
          ...state,
          box: { ...box, remaining: Math.max(0, box.remaining - event.count), opened: true },
          holder: holder && { ...holder, status: 'confirm', playAt: event.at },
        },
        answer: { kind: 'drawn', draw: event.draw },
      };
    }

    // ---- the operator ---------------------------------------------------------------------------
    case 'setStatus': {
      if (event.status === 'onSale') {
        // The seed gives away the order of every ticket left: a box whose seed is out stays ended.
        if (box.revealed) return { state, answer: refused('seedPublished') };
        effects.push(
          commit({ kind: 'status', status: 'onSale' }, ...(box.opened ? [] : [{ kind: 'open', at: now } as const])),
        );
        const after = { ...state, box: { ...box, status: event.status, opened: true } };
        return { state: promote(after, now, effects), answer: boxAnswer(after) };
      }
      // Any other status ends the box: its seed is published and its line is over.
      const after = endBox(state, event.status, null, now, effects);
      return { state: after, answer: boxAnswer(after) };
    }
    case 'setStock':
      if (box.opened) return { state, answer: refused('stockFixed') };
      effects.push({ type: 'setStock', prizes: event.prizes });
      return { state, answer: OK };
    case 'stockSet':
      return { state: { ...state, box: { ...box, remaining: event.remaining } }, answer: OK };

    // ---- time and restarts ----------------------------------------------------------------------
    case 'clock':
    case 'look':
      return { state: timePassed(state, now, effects), answer: OK };
    case 'resumed': {
      let after = state;
      // A box on sale has its order fixed (at the first start, or one put on sale while stopped).
      if (box.status === 'onSale' && !box.opened) {
        effects.push(commit({ kind: 'open', at: now }));
        after = { ...after, box: { ...box, opened: true } };
      }
      // What fell due while the server was down: lapses, the sale's end; then a free box is handed on.
      return { state: promote(timePassed(after, now, effects), now, effects), answer: OK };
    }
  }
}

/** The holder draws: every check before anything is written, then one transaction with the charge. */
function draw(state: KujiRoomState, request: KujiDrawRequest, now: number, effects: KujiBoxEffect[]): Stepped {
  const { box, holder } = state;
  const mine = (p: KujiPlace) =>
    p.token === request.token && p.userId === request.userId && request.kujiId === box.kujiId;
  if (!holder || !mine(holder)) return { state, answer: refused(state.line.some(mine) ? 'notYourTurn' : 'notActive') };
  // The window is the server's: a draw after it lapsed is refused, and the lapse happens now.
  const endsAt = kujiWindowEndsAtMs(holder.status, holder.playAt, state.limits);
  if (endsAt !== null && endsAt <= now)
    return { state: lapse(state, now, effects), answer: refused('reservationEnded') };
  if (box.status !== 'onSale') return { state, answer: refused('notOnSale') };
  if (!onSaleAt(state, now)) return { state, answer: refused('outOfPeriod') };
  const remaining = box.remaining;
  const count = request.count === 'all' ? remaining : request.count;
  if (remaining === 0) return { state, answer: refused('empty') };
  if (count > remaining) return { state, answer: { kind: 'refused', refusal: 'notEnoughTickets', remaining } };
  const priceTotal = count * box.price;
  if (priceTotal > MAX_LEDGER_AMOUNT) return { state, answer: refused('drawTooLarge') };
  const lastOne = count === remaining;
  const writes: KujiBoxWrite[] = box.opened ? [] : [{ kind: 'open', at: now }];
  // The last ticket sells the box out: it ends, its seed is published, its line is over (the
  // drawer's place as drawn). Otherwise the holder's confirm window starts again.
  if (lastOne) writes.push(...endingWrites(state, 'outOfStock', holder.reserveId, now));
  else writes.push({ kind: 'holder', reserveId: holder.reserveId, status: 'confirm', at: now });
  effects.push({ type: 'draw', request, reserveId: holder.reserveId, count, priceTotal, lastOne, at: now, writes });
  return { state, answer: OK };
}

/** The writes that end a box: its status, its seed published (once opened), every place ended. */
function endingWrites(
  state: KujiRoomState,
  status: KujiRoomState['box']['status'],
  drawer: number | null,
  now: number,
): KujiBoxWrite[] {
  const places = [...(state.holder ? [state.holder.reserveId] : []), ...state.line.map((p) => p.reserveId)];
  return [
    { kind: 'status', status },
    ...(state.box.opened && !state.box.revealed ? [{ kind: 'reveal', at: now } as const] : []),
    ...(places.length > 0 ? [endPlaces(places, 'end', 'box_ended', now, drawer)] : []),
  ];
}

/** The operator ends the box (any status but on sale). */
function endBox(
  state: KujiRoomState,
  status: KujiRoomState['box']['status'],
  drawer: number | null,
  now: number,
  effects: KujiBoxEffect[],
): KujiRoomState {
  effects.push(commit(...endingWrites(state, status, drawer, now)), { type: 'boxEnded' });
  return {
    ...state,
    box: { ...state.box, status, revealed: state.box.revealed || state.box.opened },
    holder: null,
    line: [],
  };
}

/** Time passed: a holder whose window ran out lapses; a kuji whose sale ended has its boxes' seeds published. */
function timePassed(state: KujiRoomState, now: number, effects: KujiBoxEffect[]): KujiRoomState {
  let after = state;
  const holder = state.holder;
  const endsAt = holder ? kujiWindowEndsAtMs(holder.status, holder.playAt, state.limits) : null;
  if (endsAt !== null && endsAt <= now) after = lapse(after, now, effects);
  if (after.box.opened && !after.box.revealed && now >= after.box.saleEndsAt) {
    effects.push(commit({ kind: 'reveal', at: now }));
    after = { ...after, box: { ...after.box, revealed: true } };
  }
  return after;
}

/** The holder's window lapsed: their place ends ('timeout') and the next in line holds the box. */
function lapse(state: KujiRoomState, now: number, effects: KujiBoxEffect[]): KujiRoomState {
  if (!state.holder) return state;
  effects.push(commit(endPlaces([state.holder.reserveId], 'end', 'timeout', now)));
  return promote({ ...state, holder: null }, now, effects);
}

/** Nobody holds the box: the first in line does, from now, and is told. */
function promote(state: KujiRoomState, now: number, effects: KujiBoxEffect[]): KujiRoomState {
  const head = state.line[0];
  if (state.holder || !head || state.box.status !== 'onSale') return state;
  const holder: KujiHolder = { ...head, status: 'firstReserved', playAt: now };
  effects.push(commit({ kind: 'holder', reserveId: head.reserveId, status: 'firstReserved', at: now }), {
    type: 'turnNow',
    userId: head.userId,
  });
  return { ...state, holder, line: state.line.slice(1) };
}

/** Why a new place in this box is refused now, or null. */
function placeRefusal(state: KujiRoomState, kujiId: number, now: number): KujiBoxRefusal | null {
  const { box } = state;
  if (kujiId !== box.kujiId || box.status === 'deleted') return 'notFound';
  if (!onSaleAt(state, now)) return 'outOfPeriod';
  if (box.status !== 'onSale') return 'notOnSale';
  if (box.remaining <= 0) return 'empty';
  return null;
}

const onSaleAt = (state: KujiRoomState, now: number): boolean =>
  state.box.saleStartsAt <= now && now < state.box.saleEndsAt;

const placeOf = (state: KujiRoomState, userId: number): KujiPlace | null =>
  state.holder?.userId === userId ? state.holder : (state.line.find((p) => p.userId === userId) ?? null);

const boxAnswer = (state: KujiRoomState): KujiBoxAnswer => ({
  kind: 'box',
  kujiId: state.box.kujiId,
  boxId: state.box.boxId,
  status: state.box.status,
});

function endPlaces(
  reserveIds: readonly number[],
  status: 'cancel' | 'end',
  reason: 'user_cancel' | 'timeout' | 'box_ended',
  at: number,
  drawer: number | null = null,
): KujiBoxWrite {
  return { kind: 'endPlaces', reserveIds, status, reason, drawer, at };
}

const commit = (...writes: KujiBoxWrite[]): KujiBoxEffect => ({ type: 'commit', writes });

/** Who holds the box and who waits: a step that changes it tells the box's watchers. */
function lineSignature(state: KujiRoomState): string {
  return `${state.holder?.reserveId ?? '-'}|${state.line.map((p) => p.reserveId).join(',')}`;
}

/** A step's writes as one transaction, before anything is told: what the step changes lands whole. */
function oneCommit(effects: KujiBoxEffect[]): KujiBoxEffect[] {
  const commits = effects.filter((e) => e.type === 'commit');
  if (commits.length === 0) return effects;
  return [commit(...commits.flatMap((e) => e.writes)), ...effects.filter((e) => e.type !== 'commit')];
}

/**
 * When the box must look at the time next: its holder's window end, or its kuji's sale end while
 * its seed is still secret; null when nothing falls due.
 */
export function kujiNextWakeup(state: KujiRoomState): number | null {
  const holder = state.holder;
  const windowEnd = holder ? kujiWindowEndsAtMs(holder.status, holder.playAt, state.limits) : null;
  const saleEnd = state.box.opened && !state.box.revealed ? state.box.saleEndsAt : null;
  if (windowEnd === null) return saleEnd;
  return saleEnd === null ? windowEnd : Math.min(windowEnd, saleEnd);
}

/** The players with a place in the box (the holder first), for routing their events to it. */
export function kujiBoxUsers(state: KujiRoomState): number[] {
  return [...(state.holder ? [state.holder.userId] : []), ...state.line.map((p) => p.userId)];
}
