import { RELOAD_GUARD_MS } from '../constants';

/**
 * Whether the served build is another than the one running: a build id the server names and this
 * page does not run. An unknown served build (the manifest could not be read) is not a new one.
 */
export function isNewBuild(running: string, served: string | null): boolean {
  return served !== null && served !== '' && served !== running;
}

/**
 * Whether the page may reload itself now [R9-13]: not within RELOAD_GUARD_MS (10 s) of its last
 * reload, so a page that keeps failing after a reload (a stale cache between it and the server, a
 * build that is itself broken) does not reload in a loop.
 */
export function reloadAllowed(now: number, lastReloadAt: number | null): boolean {
  return lastReloadAt === null || now - lastReloadAt >= RELOAD_GUARD_MS || now < lastReloadAt;
}
