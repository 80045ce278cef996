/** The platforms one build can target (spec §1). */
export const BUILD_TARGETS = ['web', 'ios', 'android', 'yahoo', 'mobage'] as const;

export type BuildTarget = (typeof BUILD_TARGETS)[number];

/** The target used when none is configured. */
export const DEFAULT_BUILD_TARGET: BuildTarget = 'web';

export type BuildTargetResult =
  { readonly ok: true; readonly target: BuildTarget } | { readonly ok: false; readonly message: string };

export function isBuildTarget(value: unknown): value is BuildTarget {
  return typeof value === 'string' && (BUILD_TARGETS as readonly string[]).includes(value);
}

/**
 * Parses a build-target setting [R1-1]. Absent or empty means the default (web); any value other
 * than the five targets is an error whose message names the allowed values.
 */
export function parseBuildTarget(raw: string | undefined | null): BuildTargetResult {
  if (raw === undefined || raw === null || raw.trim() === '') return { ok: true, target: DEFAULT_BUILD_TARGET };
  const value = raw.trim();
  if (isBuildTarget(value)) return { ok: true, target: value };
  return {
    ok: false,
    message: `ONKURE_TARGET must be one of ${BUILD_TARGETS.join(', ')} (got "${value}").`,
  };
}

/** ios and android builds run as the native app [R1-1]. */
export function isNativeApp(target: BuildTarget): boolean {
  return target === 'ios' || target === 'android';
}
