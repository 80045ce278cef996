import { parseBuildTarget, type BuildTarget } from '../src/domain/build-target.ts';

/**
 * Reads ONKURE_TARGET for a build or a server start; on a bad value prints the domain's message
 * (which names every allowed value) and exits with status 1 [R1-1].
 */
export function resolveBuildTargetOrExit(raw: string | undefined, what: 'build' | 'server start'): BuildTarget {
  const result = parseBuildTarget(raw);
  if (!result.ok) {
    console.error(`onkure: ${what} stopped. ${result.message}`);
    process.exit(1);
  }
  return result.target;
}
