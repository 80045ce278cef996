// What `npm start` compares to decide whether dist/client must be built again: the settings baked
// into the build (ONKURE_TARGET, every VITE_* variable, and NODE_ENV, which picks React's
// development or production build) and the newest source change.

/** The environment that shapes a build, in a stable order. NODE_ENV counts even when unset. */
export function buildEnvOf(env) {
  const shaping = Object.entries(env).filter(([k]) => k === 'ONKURE_TARGET' || k.startsWith('VITE_'));
  shaping.push(['NODE_ENV', env.NODE_ENV ?? '']);
  return Object.fromEntries(shaping.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Whether a build stamped with `stamp` ({ builtAt, env }) still matches `buildEnv` and sources changed at `newestSourceMtime`. */
export function buildIsCurrent(stamp, buildEnv, newestSourceMtime) {
  if (!stamp || typeof stamp.builtAt !== 'number') return false;
  return JSON.stringify(stamp.env) === JSON.stringify(buildEnv) && newestSourceMtime <= stamp.builtAt;
}
