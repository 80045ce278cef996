import { randomBytes } from 'node:crypto';

/** A new reserve token (station and kuji reservations): 24 random bytes, base64url (32 characters). */
export const newReserveToken = (): string => randomBytes(24).toString('base64url');
