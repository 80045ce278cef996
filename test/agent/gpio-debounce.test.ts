import { describe, expect, it } from 'vitest';
import { initialDebounce, sawLevel, settle, type DebounceState } from '../../agent/drivers/gpio-debounce';

/* The driver's own debounce, pure: time is the argument (a fake clock). */

const DEBOUNCE = 20;

describe('gpio debounce', () => {
  it('counts a level once it has held for the debounce period, not before', () => {
    let state = initialDebounce(false, 0);
    const seen = sawLevel(state, true, 100, DEBOUNCE);
    expect(seen).toMatchObject({ wakeAt: 120 });
    expect(seen.changed).toBeUndefined();
    state = seen.state;
    expect(settle(state, 119, DEBOUNCE)).toMatchObject({ wakeAt: 120, state: { stable: false } });
    expect(settle(state, 120, DEBOUNCE)).toMatchObject({ changed: true, wakeAt: null, state: { stable: true } });
  });

  it('ignores a blip shorter than the period', () => {
    let state: DebounceState = initialDebounce(false, 0);
    state = sawLevel(state, true, 100, DEBOUNCE).state;
    const back = sawLevel(state, false, 110, DEBOUNCE);
    expect(back).toMatchObject({ wakeAt: null, state: { stable: false } });
    expect(back.changed).toBeUndefined();
    expect(settle(back.state, 500, DEBOUNCE).changed).toBeUndefined();
  });

  it('restarts the period at every bounce, and changes once', () => {
    let state: DebounceState = initialDebounce(false, 0);
    const changes: boolean[] = [];
    for (const [at, level] of [
      [100, true],
      [105, false],
      [108, true],
      [112, false],
      [115, true],
    ] as const) {
      const step = sawLevel(state, level, at, DEBOUNCE);
      if (step.changed !== undefined) changes.push(step.changed);
      state = step.state;
    }
    expect(settle(state, 134, DEBOUNCE)).toMatchObject({ wakeAt: 135 });
    const step = settle(state, 135, DEBOUNCE);
    expect(step.changed).toBe(true);
    expect(changes).toEqual([]);
  });

  it('a repeated level (a read, no edge) does not restart the period', () => {
    let state = sawLevel(initialDebounce(false, 0), true, 100, DEBOUNCE).state;
    state = sawLevel(state, true, 115, DEBOUNCE).state;
    expect(settle(state, 120, DEBOUNCE).changed).toBe(true);
  });

  it('with a zero period a level counts at once', () => {
    expect(sawLevel(initialDebounce(false, 0), true, 5, 0)).toMatchObject({ changed: true, wakeAt: null });
  });
});
