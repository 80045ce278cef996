import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A clip's id: 16 random bytes in base64url (22 characters); nothing else names a clip. */
export const CLIP_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export const newClipId = (): string => randomBytes(16).toString('base64url');

/** A clip's signing secret (stored with it, never answered). */
export const newViewSecret = (): string => randomBytes(32).toString('base64url');

/** How long an address given to a clip's player or an operator opens its files. */
export const VIEW_KEY_TTL_MS = 60 * 60_000;
/** Expiries are rounded up to this step, so the same address is given for a while (the browser's cache). */
const VIEW_KEY_STEP_MS = 10 * 60_000;

/** The key of an address that opens the clip's files until `expiresS` (seconds since the epoch). */
function keyOf(clipId: string, secret: string, expiresS: number): string {
  return createHmac('sha256', secret).update(`${clipId}.${expiresS}`).digest().subarray(0, 16).toString('base64url');
}

/** A fresh view key for a clip: its expiry (seconds) and key, for `?e=&k=`. */
export function viewKey(clipId: string, secret: string, nowMs: number): { e: number; k: string } {
  const expiresMs = Math.ceil((nowMs + VIEW_KEY_TTL_MS) / VIEW_KEY_STEP_MS) * VIEW_KEY_STEP_MS;
  const e = expiresMs / 1000;
  return { e, k: keyOf(clipId, secret, e) };
}

/** Whether `?e=&k=` opens the clip now: the key is the clip's for that expiry, and it has not passed. */
export function viewKeyValid(clipId: string, secret: string, nowMs: number, e: unknown, k: unknown): boolean {
  if (typeof e !== 'string' || typeof k !== 'string' || !/^\d{1,12}$/.test(e) || !/^[\w-]{22}$/.test(k)) return false;
  const expiresS = Number(e);
  if (expiresS * 1000 <= nowMs || expiresS * 1000 > nowMs + VIEW_KEY_TTL_MS + VIEW_KEY_STEP_MS) return false;
  return timingSafeEqual(Buffer.from(keyOf(clipId, secret, expiresS)), Buffer.from(k));
}
