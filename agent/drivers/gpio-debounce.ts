/*
 * The driver's own debounce of an input (the chute sensor, the home switch), on top of the
 * kernel's: a level counts once it has held for `debounceMs` without a change. Pure: time comes in
 * as an argument, and the caller arms one timer at `wakeAt` (tested on a fake clock). It guards
 * against chips whose kernel debounce is weak or missing, and against a bouncing contact that the
 * kernel's period does not cover.
 */

export interface DebounceState {
  /** The level that counts (after debounce). */
  readonly stable: boolean;
  /** The last level seen on the line, and since when. */
  readonly raw: boolean;
  readonly rawSince: number;
}

export interface DebounceStep {
  readonly state: DebounceState;
  /** Set when the stable level changed at this step. */
  readonly changed?: boolean;
  /** When to call `settle` next (the raw level differs from the stable one), or null. */
  readonly wakeAt: number | null;
}

export function initialDebounce(level: boolean, now: number): DebounceState {
  return { stable: level, raw: level, rawSince: now };
}

/** A raw level seen on the line at `now` (an edge, or a read). */
export function sawLevel(state: DebounceState, level: boolean, now: number, debounceMs: number): DebounceStep {
  const next = level === state.raw ? state : { ...state, raw: level, rawSince: now };
  return settle(next, now, debounceMs);
}

/** Time passed: the raw level counts once it has held for `debounceMs`. */
export function settle(state: DebounceState, now: number, debounceMs: number): DebounceStep {
  if (state.raw === state.stable) return { state, wakeAt: null };
  const due = state.rawSince + debounceMs;
  if (now < due) return { state, wakeAt: due };
  return { state: { ...state, stable: state.raw }, changed: state.raw, wakeAt: null };
}
