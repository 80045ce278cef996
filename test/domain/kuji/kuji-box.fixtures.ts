import type { KujiBoxFacts, KujiDrawResult, KujiHolder, KujiPlace, KujiRoomState } from '../../../src/domain';

/** The instant the fixtures' windows count from. */
export const T0 = Date.parse('2026-11-28T12:00:00+09:00');
export const DAY = 86_400_000;
export const LIMITS = { firstReserved: 60, confirm: 180 } as const;

export const aBox = (over: Partial<KujiBoxFacts> = {}): KujiBoxFacts => ({
  boxId: 3,
  kujiId: 1,
  status: 'onSale',
  price: 500,
  saleStartsAt: T0 - DAY,
  saleEndsAt: T0 + 30 * DAY,
  remaining: 10,
  opened: true,
  revealed: false,
  ...over,
});

/** The player holding the box in every fixture but the free one, and one waiting behind. */
export const HOLDER: KujiHolder = {
  reserveId: 100,
  userId: 10,
  token: 'holder-token',
  status: 'firstReserved',
  playAt: T0,
};
export const WAITING: KujiPlace = { reserveId: 200, userId: 20, token: 'waiting-token' };
export const STRANGER = 99;

/** One representative box of each phase. */
export const PHASES = {
  free: { box: aBox(), holder: null, line: [], limits: LIMITS },
  held: { box: aBox(), holder: HOLDER, line: [WAITING], limits: LIMITS },
  drawing: { box: aBox(), holder: { ...HOLDER, status: 'confirm' }, line: [WAITING], limits: LIMITS },
  ended: { box: aBox({ status: 'endOfSale', revealed: true }), holder: null, line: [], limits: LIMITS },
} as const satisfies Record<string, KujiRoomState>;
export type KujiPhase = keyof typeof PHASES;

/** The phase a box is in. */
export function phaseOf(state: KujiRoomState): KujiPhase {
  if (state.box.status !== 'onSale') return 'ended';
  if (!state.holder) return 'free';
  return state.holder.status === 'confirm' ? 'drawing' : 'held';
}

/** A draw's answer as the store gives it (the room passes it on). */
export const aDraw = (over: Partial<KujiDrawResult> = {}): KujiDrawResult => ({
  draw_id: 7,
  kuji_id: 1,
  box_id: 3,
  tickets: [{ position: 0, rank: 'A賞', prize_name: 'Figure', img_url: '/a.svg' }],
  last_one: null,
  price_total: 500,
  tc: { tc_all: 9_500, tc_free: 9_500, tc_toll: 0 },
  remaining_count: 9,
  box_status: 'onSale',
  replayed: 0,
  ...over,
});
