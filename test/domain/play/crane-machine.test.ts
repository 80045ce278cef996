import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  command,
  CRANE,
  dropNow,
  layPrizes,
  replayPlay,
  startPlay,
  tick,
  type CraneInput,
  type CranePrize,
  type CraneState,
} from '../../../src/domain/play/crane-machine';

const T = (ms: number) => Math.round(ms / CRANE.tickMs);
const plush = (x: number, z: number, id = 1): CranePrize => ({ id, x, z, radius: 60, shape: 'plush', hue: 10 });

function run(s: CraneState, n: number): CraneState {
  for (let i = 0; i < n; i += 1) s = tick(s);
  return s;
}
function toEnd(s: CraneState): CraneState {
  for (let i = 0; i < 10_000 && s.phase !== 'done'; i += 1) s = tick(s);
  return s;
}
/** Holds → for `rightMs`, then ↑ for `backMs`, on a fresh play. */
function play(
  prizes: readonly CranePrize[],
  strength: number,
  seed: number,
  rightMs: number,
  backMs: number,
): CraneState {
  let s = startPlay(prizes, strength, seed);
  s = command(s, 'right', 'press')!;
  s = run(s, T(rightMs));
  s = command(s, 'right', 'release')!;
  s = command(s, 'back', 'press')!;
  s = run(s, T(backMs));
  s = command(s, 'back', 'release')!;
  return toEnd(s);
}
/** The hold times that bring the claw from home over (x, z). */
const msTo = (x: number, z: number) => ({
  right: ((x - CRANE.home.x) / CRANE.moveUnitsPerSecond) * 1000,
  back: ((z - CRANE.home.z) / CRANE.moveUnitsPerSecond) * 1000,
});

describe('the simulated crane machine (pure, seeded)', () => {
  it('moves right only while ① is held and back only while ② is held; each button works once, ① before ②', () => {
    let s = startPlay([plush(500, 500)], 0.5, 1);
    expect(command(s, 'back', 'press')).toBeNull(); // ② before ①
    s = command(s, 'right', 'press')!;
    s = run(s, T(1000));
    expect(s.x).toBeCloseTo(CRANE.home.x + CRANE.moveUnitsPerSecond, 0);
    s = command(s, 'right', 'release')!;
    const x = s.x;
    s = run(s, T(500));
    expect(s.x).toBe(x); // released: it stays
    expect(command(s, 'right', 'press')).toBeNull(); // ① is used up
    s = command(s, 'back', 'press')!;
    s = run(s, T(500));
    expect(s.z).toBeCloseTo(CRANE.home.z + CRANE.moveUnitsPerSecond / 2, 0);
    s = command(s, 'back', 'release')!;
    expect(s.phase).toBe('dropping');
    expect(command(s, 'back', 'press')).toBeNull(); // ② is used up
  });

  it('a button not pressed within its time limit fires by itself for a short move', () => {
    let s = startPlay([], 0.5, 1);
    s = run(s, T(CRANE.buttonLimitMs) - 1);
    expect(s.phase).toBe('ready');
    s = run(s, 1);
    expect(s.phase).toBe('movingRight');
    expect(command(s, 'right', 'release')).toBeNull(); // an automatic move cannot be taken over
    s = run(s, T(CRANE.autoMoveMs));
    expect(s.phase).toBe('waitBack');
    expect(s.x).toBeCloseTo(CRANE.home.x + (CRANE.moveUnitsPerSecond * CRANE.autoMoveMs) / 1000, 0);
    s = run(s, T(CRANE.buttonLimitMs) + T(CRANE.autoMoveMs));
    expect(['dropping', 'closing']).toContain(s.phase);
    expect(s.autoFired).toEqual(['right', 'back']);
  });

  it('stops at the wall and takes that as the release', () => {
    let s = startPlay([], 0.5, 1);
    s = command(s, 'right', 'press')!;
    s = run(s, T(10_000));
    expect(s.x).toBe(CRANE.field);
    expect(s.phase).toBe('waitBack');
  });

  it('drops, closes, lifts, returns to the chute and opens; the claw ends over the chute', () => {
    const end = play([plush(900, 900)], 0.5, 3, 1000, 1000);
    expect(end.phase).toBe('done');
    expect({ x: end.x, z: end.z }).toEqual(CRANE.home);
    expect(end.outcome).toMatchObject({ result: 'miss', grabbedPrizeId: null, wonPrizeId: null });
  });

  it('a well-placed claw at full strength wins the prize, which leaves the field', () => {
    const target = plush(500, 450);
    const { right, back } = msTo(target.x, target.z);
    let wins = 0;
    for (let seed = 1; seed <= 20; seed += 1) {
      const end = play([target], 1, seed, right, back);
      if (end.outcome!.result === 'win') {
        wins += 1;
        expect(end.prizes).toEqual([]);
        expect(end.outcome!.wonPrizeId).toBe(1);
      }
    }
    expect(wins).toBeGreaterThanOrEqual(17);
  });

  it('arm strength decides how often a grabbed prize holds to the chute', () => {
    const target = plush(500, 450);
    const { right, back } = msTo(target.x, target.z);
    const winsAt = (strength: number) =>
      Array.from({ length: 200 }, (_, seed) => play([target], strength, seed + 1, right, back)).filter(
        (s) => s.outcome!.result === 'win',
      ).length;
    const weak = winsAt(0.2);
    const strong = winsAt(0.9);
    expect(strong).toBeGreaterThan(weak + 60);
  });

  it('a claw closing beside a prize pushes it: the prize shifts after a miss', () => {
    const target = plush(500, 500);
    const { right, back } = msTo(target.x + 110, target.z); // beside it: touched, hardly grabbed
    const shifted = Array.from({ length: 30 }, (_, seed) => play([target], 0.5, seed + 1, right, back)).filter(
      (s) => s.outcome!.result === 'miss' && s.grabbedPrizeId === null,
    );
    expect(shifted.length).toBeGreaterThan(0);
    for (const s of shifted) expect(s.prizes[0]!.x).toBeLessThan(target.x); // pushed away from the claw on its right
  });

  it('dropNow lets a lapsed play drop where the claw is, and the result is still decided', () => {
    let s = startPlay([plush(500, 500)], 0.5, 7);
    s = command(s, 'right', 'press')!;
    s = run(s, T(500));
    s = toEnd(dropNow(s));
    expect(s.phase).toBe('done');
    expect(s.outcome).not.toBeNull();
  });

  it('is deterministic: the same seed, layout and inputs give the same play; replayPlay re-derives it from the log', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (seed, rightTicks, backTicks, strength) => {
          const prizes = layPrizes(seed, 3);
          let s = startPlay(prizes, strength, seed);
          const inputs: CraneInput[] = [];
          const at = (button: 'right' | 'back', cmd: 'press' | 'release') => {
            const next = command(s, button, cmd);
            if (next) {
              inputs.push({ tick: s.tick, button, command: cmd });
              s = next;
            }
          };
          at('right', 'press');
          s = run(s, rightTicks);
          at('right', 'release');
          s = run(s, 3);
          at('back', 'press');
          s = run(s, backTicks);
          at('back', 'release');
          s = toEnd(s);
          const again = replayPlay(prizes, strength, seed, inputs);
          expect(again.outcome).toEqual(s.outcome);
          expect(again.prizes).toEqual(s.prizes);
          expect(again.tick).toBe(s.tick);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('lays prizes from a seed away from the chute and each other', () => {
    const a = layPrizes(42, 5);
    expect(layPrizes(42, 5)).toEqual(a);
    for (const p of a) expect(p.x > CRANE.chute.x1 || p.z > CRANE.chute.z1).toBe(true);
    for (const p of a)
      for (const q of a) if (p !== q) expect(Math.hypot(p.x - q.x, p.z - q.z)).toBeGreaterThan(p.radius);
  });
});
