import type { KujiBoxStatus, KujiDrawResult, KujiTimeLimits } from '../kuji.entity';

/*
 * The state, events and effects of one kuji box room (docs/kuji.md). A box is one room: its
 * line, its holder and their window, its tickets left and its status are one value,
 * `KujiRoomState`, and every change is `kujiTransition(state, event, now)` → { state, effects,
 * answer }. The server's room feeds it events one at a time and carries the effects out; nothing
 * here reads a clock or a store. Instants are epoch milliseconds.
 */

/** What the room knows of its box and its kuji (the store's rows; the room is their only writer). */
export interface KujiBoxFacts {
  readonly boxId: number;
  readonly kujiId: number;
  readonly status: KujiBoxStatus;
  /** TC per ticket. */
  readonly price: number;
  /** The kuji's sale period: a place or a draw only within it. */
  readonly saleStartsAt: number;
  readonly saleEndsAt: number;
  /** Tickets not drawn yet (the last-one prize is no ticket). */
  readonly remaining: number;
  /** The order of the tickets is fixed and its commitment published. */
  readonly opened: boolean;
  /** The seed of the order is published (the box ended, or its kuji's sale did). */
  readonly revealed: boolean;
}

/** A place in the box's line: the reservation, its player and the token the player polls with. */
export interface KujiPlace {
  readonly reserveId: number;
  readonly userId: number;
  readonly token: string;
}

/** The player who holds the box: firstReserved to start drawing, confirm after each draw. */
export interface KujiHolder extends KujiPlace {
  readonly status: 'firstReserved' | 'confirm';
  /** When the holder's current window began. */
  readonly playAt: number;
}

export interface KujiRoomState {
  readonly box: KujiBoxFacts;
  readonly holder: KujiHolder | null;
  /** Everyone waiting behind the holder, first first. */
  readonly line: readonly KujiPlace[];
  /** The holder's windows (the server's settings). */
  readonly limits: KujiTimeLimits;
}

/** How many tickets a draw asks for: a number, or every ticket left. */
export type KujiDrawCount = 1 | 3 | 5 | 10 | 'all';

/** A draw as the holder asks for it. */
export interface KujiDrawRequest {
  readonly userId: number;
  readonly token: string;
  readonly kujiId: number;
  readonly count: KujiDrawCount;
  readonly requestId: string;
}

/** A new place, as its write answered. */
export interface KujiJoined extends KujiPlace {
  /** Whether it holds the box at once (nobody held it), from `at`. */
  readonly asHolder: boolean;
  readonly at: number;
}

export type KujiBoxEvent =
  // the line
  | { readonly type: 'join'; readonly userId: number; readonly kujiId: number }
  | { readonly type: 'joined'; readonly place: KujiJoined }
  | { readonly type: 'cancel'; readonly userId: number; readonly token: string; readonly kujiId: number }
  // the draw
  | ({ readonly type: 'draw' } & KujiDrawRequest)
  /** The draw's request id was looked up: the draw it already made, or none. */
  | { readonly type: 'drawChecked'; readonly request: KujiDrawRequest; readonly previous: KujiDrawResult | null }
  /** The draw was made and charged, with the decisions its writes carried out. */
  | {
      readonly type: 'drawn';
      readonly draw: KujiDrawResult;
      readonly count: number;
      readonly lastOne: boolean;
      readonly at: number;
    }
  // the operator
  | { readonly type: 'setStatus'; readonly status: KujiBoxStatus }
  | { readonly type: 'setStock'; readonly prizes: readonly { readonly rank: string; readonly quantity: number }[] }
  | { readonly type: 'stockSet'; readonly remaining: number }
  /** Someone looks at the box (its fairness record): what fell due is done first. */
  | { readonly type: 'look' }
  // time, and the room rebuilt from the store after a (re)start
  | { readonly type: 'clock' }
  | { readonly type: 'resumed' };
export type KujiBoxEventType = KujiBoxEvent['type'];
export const KUJI_BOX_EVENT_TYPES: readonly KujiBoxEventType[] = [
  'join',
  'joined',
  'cancel',
  'draw',
  'drawChecked',
  'drawn',
  'setStatus',
  'setStock',
  'stockSet',
  'look',
  'clock',
  'resumed',
];

/** The events a caller may send a kuji box room (the rest are the room's own). */
export type KujiBoxRequest = Extract<
  KujiBoxEvent,
  { readonly type: 'join' | 'cancel' | 'draw' | 'setStatus' | 'setStock' | 'look' }
>;

/** Why a reservation ended (the store's `end_reason`). */
export type KujiEndReason = 'user_cancel' | 'timeout' | 'box_ended' | 'drawn';

/** A store write. The writes of one `commit` (or of one `draw`) are done in one transaction, in order. */
export type KujiBoxWrite =
  /** Fixes the order of the box's tickets from a fresh secret seed and publishes its commitment. */
  | { readonly kind: 'open'; readonly at: number }
  | { readonly kind: 'status'; readonly status: KujiBoxStatus }
  /** Publishes the box's seed. */
  | { readonly kind: 'reveal'; readonly at: number }
  /** Ends reservations: the drawer's as `drawn`, the others with `reason`. */
  | {
      readonly kind: 'endPlaces';
      readonly reserveIds: readonly number[];
      readonly status: 'cancel' | 'end';
      readonly reason: KujiEndReason;
      readonly drawer: number | null;
      readonly at: number;
    }
  /** The reservation holds the box from `at` (firstReserved), or drew at `at` (confirm). */
  | {
      readonly kind: 'holder';
      readonly reserveId: number;
      readonly status: 'firstReserved' | 'confirm';
      readonly at: number;
    };

export type KujiBoxEffect =
  | { readonly type: 'commit'; readonly writes: readonly KujiBoxWrite[] }
  /** A new place (the store checks the player holds no other kuji place); answers `joined`. */
  | {
      readonly type: 'addToLine';
      readonly userId: number;
      readonly kujiId: number;
      readonly asHolder: boolean;
      readonly at: number;
    }
  /** Looks up a draw by the player's request id; answers `drawChecked`. */
  | { readonly type: 'findDraw'; readonly request: KujiDrawRequest }
  /**
   * Draws: the draw row, the TC charge (too little refuses the whole draw), the next `count`
   * tickets of the box's order, the stock, the player's prizes, the last-one prize with the last
   * ticket, and `writes` — all in one transaction; answers `drawn`.
   */
  | {
      readonly type: 'draw';
      readonly request: KujiDrawRequest;
      readonly reserveId: number;
      readonly count: number;
      readonly priceTotal: number;
      readonly lastOne: boolean;
      readonly at: number;
      readonly writes: readonly KujiBoxWrite[];
    }
  /** Sets the stock rank by rank before the box opens; answers `stockSet`. */
  | { readonly type: 'setStock'; readonly prizes: readonly { readonly rank: string; readonly quantity: number }[] }
  // what the room tells the world
  /** The box's line changed (kuji_reserve_change on its channel). */
  | { readonly type: 'lineChanged' }
  /** The player holds the box now ("your turn", with the first window's seconds). */
  | { readonly type: 'turnNow'; readonly userId: number }
  /** The box ended (play_end on its channel). */
  | { readonly type: 'boxEnded' };

/** Why a request was refused; the server words each in Japanese with its status. */
export type KujiBoxRefusal =
  /** No such box in that kuji (or deleted). */
  | 'notFound'
  | 'outOfPeriod'
  | 'notOnSale'
  | 'empty'
  /** The caller is already in this box's line (another box's is the store's check). */
  | 'alreadyReserved'
  /** The reservation named is not an active one of this box (the edge tells unknown from ended). */
  | 'notActive'
  | 'notYourTurn'
  | 'reservationEnded'
  | 'notEnoughTickets'
  | 'drawTooLarge'
  /** The stock of a box whose order is fixed. */
  | 'stockFixed'
  /** Back on sale after the seed was published. */
  | 'seedPublished';

export type KujiBoxAnswer =
  | { readonly kind: 'ok' }
  | { readonly kind: 'refused'; readonly refusal: KujiBoxRefusal; readonly remaining?: number }
  | { readonly kind: 'drawn'; readonly draw: KujiDrawResult }
  /** The operator's status change: the box as it is after it. */
  | { readonly kind: 'box'; readonly kujiId: number; readonly boxId: number; readonly status: KujiBoxStatus };

export interface KujiBoxStep {
  readonly state: KujiRoomState;
  readonly effects: readonly KujiBoxEffect[];
  readonly answer: KujiBoxAnswer;
}

/** A box as the store holds it, to rebuild its room after a (re)start. */
export interface KujiBoxSnapshot {
  readonly box: KujiBoxFacts;
  /** The box's active reservations, in line order (queued first first). */
  readonly places: readonly (KujiPlace & {
    readonly status: 'reserve' | 'firstReserved' | 'confirm';
    readonly playAt: number | null;
  })[];
  readonly limits: KujiTimeLimits;
}
