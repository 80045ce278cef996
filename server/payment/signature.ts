import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a provider callback carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const SIGNATURE_HEADER = 'onkure-provider-signature';
/** A callback signed longer ago than this (or this far in the future) is refused as a replay. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

const mac = (secret: string, timestamp: number, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** Signs a callback body at `nowMs` (the provider's side). */
export function signPayload(secret: string, body: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${mac(secret, t, body)}`;
}

export type SignatureCheck = 'ok' | 'missing' | 'malformed' | 'mismatch' | 'stale';

/**
 * Checks a callback's signature header against its raw body (the service's side): the HMAC in
 * constant time, then the timestamp within SIGNATURE_TOLERANCE_MS of `nowMs` (a captured callback
 * replayed later is refused even with a good signature).
 */
export function verifySignature(secret: string, header: unknown, body: string, nowMs: number): SignatureCheck {
  if (typeof header !== 'string' || header === '') return 'missing';
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return 'malformed';
  const t = Number(match[1]);
  const expected = Buffer.from(mac(secret, t, body), 'hex');
  const given = Buffer.from(match[2]!, 'hex');
  if (!timingSafeEqual(expected, given)) return 'mismatch';
  if (Math.abs(nowMs - t * 1000) > SIGNATURE_TOLERANCE_MS) return 'stale';
  return 'ok';
}
