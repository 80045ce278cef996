import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideKujiPoll,
  DOMAIN_MESSAGES,
  effectiveRemainingSeconds,
  KUJI_RESERVE_STATUSES,
  kujiRemainingSeconds,
  kujiWindowEndsAtMs,
  showsKujiQueue,
  type KujiPlayInfo,
  type KujiTimeLimits,
} from '../../../src/domain';

const limits: KujiTimeLimits = { confirm: 30, firstReserved: 60 };
const NOW = Date.UTC(2026, 3, 1, 3, 0, 0); // 2026-04-01 12:00:00 JST

function aKujiInfo(overrides: Partial<KujiPlayInfo> = {}): KujiPlayInfo {
  return {
    reserve_polling_id: 1,
    kuji_play_reserve_id: 2,
    reserve_token: 't',
    reserve_num: 2,
    reserve_status: 'reserve',
    kuji_id: 3,
    box_id: 4,
    box_status: 'onSale',
    reserve_remaintime: 0,
    play_at: '2026-04-01 11:59:50',
    ...overrides,
  };
}

describe('kuji statuses', () => {
  it('[R4.4-1] reserve statuses are reserve, firstReserved, confirm; the queue shows for firstReserved or confirm', () => {
    expect(KUJI_RESERVE_STATUSES).toEqual(['reserve', 'firstReserved', 'confirm']);
    expect(showsKujiQueue('firstReserved')).toBe(true);
    expect(showsKujiQueue('confirm')).toBe(true);
    expect(showsKujiQueue('reserve')).toBe(false);
    expect(showsKujiQueue('end')).toBe(false);
    expect(showsKujiQueue(null)).toBe(false);
  });

  it('[R4.4-2] box status ready, endOfSale, outOfStock or deleted ends polling, resets and shows the box-ended alert', () => {
    for (const box_status of ['ready', 'endOfSale', 'outOfStock', 'deleted']) {
      expect(decideKujiPoll(aKujiInfo({ box_status }))).toEqual({
        kind: 'stop',
        reason: 'boxEnded',
        effects: [
          { type: 'stopPolling' },
          { type: 'resetKujiPlayInfo' },
          { type: 'showAlert', alert: 'kujiBoxEnded', message: DOMAIN_MESSAGES.kujiBoxEnded },
        ],
      });
    }
  });

  it('[R4.4-3] a missing box id shows the reserve-not-found alert', () => {
    const d = decideKujiPoll(aKujiInfo({ box_id: null }));
    expect(d.kind === 'stop' && d.reason).toBe('boxNotFound');
    expect(d.kind === 'stop' && d.effects.at(-1)).toEqual({
      type: 'showAlert',
      alert: 'kujiReserveNotFound',
      message: DOMAIN_MESSAGES.kujiReserveNotFound,
    });
  });

  it('[R4.4-4] any status other than reserve, confirm, firstReserved ends polling and resets, without an alert', () => {
    fc.assert(
      fc.property(
        fc
          .oneof(fc.string(), fc.constant(null))
          .filter((s) => !(KUJI_RESERVE_STATUSES as readonly unknown[]).includes(s)),
        (reserve_status) => {
          expect(decideKujiPoll(aKujiInfo({ reserve_status }))).toEqual({
            kind: 'stop',
            reason: 'statusEnded',
            effects: [{ type: 'stopPolling' }, { type: 'resetKujiPlayInfo' }],
          });
        },
      ),
    );
    for (const reserve_status of KUJI_RESERVE_STATUSES) {
      expect(decideKujiPoll(aKujiInfo({ reserve_status })).kind).toBe('continue');
    }
  });

  it("[R4.4-5] a polled confirm or firstReserved status shows the queue and the server's remaining seconds; a place in line has none", () => {
    // The server answers reserve_remaintime = its maximum − seconds since play_at (kujiRemainingSeconds, below).
    expect(decideKujiPoll(aKujiInfo({ reserve_status: 'confirm', reserve_remaintime: 20 }))).toEqual({
      kind: 'continue',
      status: 'confirm',
      showQueue: true,
      remainingSeconds: 20,
    });
    fc.assert(
      fc.property(
        fc.constantFrom('confirm' as const, 'firstReserved' as const),
        fc.integer({ min: -5, max: 3600 }),
        (reserve_status, reserve_remaintime) => {
          const d = decideKujiPoll(aKujiInfo({ reserve_status, reserve_remaintime }));
          expect(d.kind === 'continue' && d.remainingSeconds).toBe(Math.max(0, reserve_remaintime));
        },
      ),
    );
    expect(decideKujiPoll(aKujiInfo({ reserve_status: 'reserve', reserve_remaintime: 30 }))).toEqual({
      kind: 'continue',
      status: 'reserve',
      showQueue: false,
      remainingSeconds: null,
    });
  });
});

describe('kuji remaining time', () => {
  const status = fc.constantFrom('confirm' as const, 'firstReserved' as const);
  const playAt = fc.integer({ min: NOW - 3_600_000, max: NOW + 60_000 });
  const maxima = fc.record({
    confirm: fc.integer({ min: 0, max: 600 }),
    firstReserved: fc.integer({ min: 0, max: 600 }),
  });

  it('[R4.4-5] remaining = maximum for the status − whole seconds since play_at, within 0…maximum, for every play_at', () => {
    fc.assert(
      fc.property(status, playAt, maxima, (s, playAtMs, lim) => {
        const r = kujiRemainingSeconds({ status: s, playAtMs, nowMs: NOW, limits: lim, polling: true });
        const elapsed = Math.floor((NOW - playAtMs) / 1000);
        const expected = Math.min(lim[s], Math.max(0, lim[s] - elapsed));
        expect(r).toBe(expected);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(lim[s]);
      }),
    );
  });

  it('[R4.4-5] remaining time never goes up as time passes', () => {
    fc.assert(
      fc.property(
        status,
        playAt,
        maxima,
        fc.boolean(),
        fc.integer({ min: 0, max: 120_000 }),
        (s, playAtMs, lim, polling, later) => {
          const at = (nowMs: number) =>
            kujiRemainingSeconds({ status: s, playAtMs, nowMs, limits: lim, polling }) ?? -1;
          expect(at(NOW + later)).toBeLessThanOrEqual(at(NOW));
        },
      ),
    );
  });

  it('[R4.4-5] statuses without a maximum have no remaining time', () => {
    expect(kujiRemainingSeconds({ status: 'reserve', playAtMs: NOW, nowMs: NOW, limits, polling: true })).toBeNull();
  });

  it('[R9-4] under 10 seconds with no polling counts as 0, for every play_at', () => {
    fc.assert(
      fc.property(status, playAt, maxima, (s, playAtMs, lim) => {
        const polled = kujiRemainingSeconds({ status: s, playAtMs, nowMs: NOW, limits: lim, polling: true }) ?? -1;
        const idle = kujiRemainingSeconds({ status: s, playAtMs, nowMs: NOW, limits: lim, polling: false });
        expect(idle).toBe(polled < 10 ? 0 : polled);
      }),
    );
    expect(effectiveRemainingSeconds(9, false)).toBe(0);
    expect(effectiveRemainingSeconds(10, false)).toBe(10);
    expect(effectiveRemainingSeconds(9, true)).toBe(9);
    expect(effectiveRemainingSeconds(-3, true)).toBe(0);
  });
});

describe("a kuji holder's window end (the server lapses and refuses on it)", () => {
  const limits = { firstReserved: 60, confirm: 30 };
  it('[R4.4-5] firstReserved ends its own maximum after play_at, confirm its own; a place in line has no window', () => {
    expect(kujiWindowEndsAtMs('firstReserved', 1_000, limits)).toBe(61_000);
    expect(kujiWindowEndsAtMs('confirm', 1_000, limits)).toBe(31_000);
    expect(kujiWindowEndsAtMs('reserve', 1_000, limits)).toBeNull();
    expect(kujiWindowEndsAtMs('end', 1_000, limits)).toBeNull();
  });

  it('[R4.4-5] the polled seconds left reach 0 exactly when the window ends, never before', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('firstReserved', 'confirm'),
        fc.integer({ min: 0, max: 200_000 }),
        (status, elapsed) => {
          const endsAt = kujiWindowEndsAtMs(status, 0, limits)!;
          const left = kujiRemainingSeconds({ status, playAtMs: 0, nowMs: elapsed, limits, polling: true })!;
          expect(left === 0).toBe(elapsed >= endsAt);
        },
      ),
    );
  });
});
