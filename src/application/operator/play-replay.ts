import { crane, type PlayLogEntry, type PlayResult } from '../../domain';

/** One point of the claw's path: field x and z, and its height (0 top, 1 floor). */
export interface ClawPoint {
  readonly x: number;
  readonly z: number;
  readonly h: number;
}

export interface ReplayedPlay {
  /** What the domain's machine gives for the logged layout, arm strength, seed and inputs. */
  readonly result: 'win' | 'miss';
  readonly wonPrizeId: number | null;
  /** Whether it agrees with the logged result (null when the log has none: the play did not end). */
  readonly matchesLog: boolean | null;
  /** The claw's path, one point every few ticks, for drawing. */
  readonly path: readonly ClawPoint[];
}

/**
 * Replays a logged play in the browser with the domain's crane machine (`replayPlay`) and traces the
 * claw's path with the same steps: the operator sees whether the machine gives what was logged.
 */
export function replayLoggedPlay(entry: PlayLogEntry, pathEvery = 2): ReplayedPlay {
  const end = crane.replayPlay(entry.layout, entry.arm_strength, entry.seed, entry.inputs, entry.drop_at_tick);
  const result = end.outcome?.result ?? 'miss';
  const logged: PlayResult | null = entry.result;
  return {
    result,
    wonPrizeId: end.outcome?.wonPrizeId ?? null,
    matchesLog: logged === null ? null : logged === result,
    path: tracePath(entry, pathEvery),
  };
}

/** The same steps as `crane.replayPlay`, keeping where the claw was. */
function tracePath(entry: PlayLogEntry, every: number): ClawPoint[] {
  let s = crane.startPlay(entry.layout, entry.arm_strength, entry.seed);
  const queue = [...entry.inputs].sort((a, b) => a.tick - b.tick);
  const path: ClawPoint[] = [{ x: s.x, z: s.z, h: s.h }];
  let i = 0;
  for (let guard = 0; guard < 100_000 && s.phase !== 'done'; guard += 1) {
    while (i < queue.length && queue[i]!.tick <= s.tick) {
      s = crane.command(s, queue[i]!.button, queue[i]!.command) ?? s;
      i += 1;
    }
    if (entry.drop_at_tick !== null && s.tick >= entry.drop_at_tick) s = crane.dropNow(s);
    s = crane.tick(s);
    if (s.tick % every === 0) path.push({ x: s.x, z: s.z, h: s.h });
  }
  path.push({ x: s.x, z: s.z, h: s.h });
  return path;
}
