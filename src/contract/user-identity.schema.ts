import { integer, mapped } from './schema-helpers';
import { z } from 'zod/mini';
import { CONTRACT_MESSAGES as M } from './messages';

/** A database id on the wire: a positive 32-bit integer. */
export const idSchema = integer(M.notNumber, M.notInteger)
  .check(z.positive(M.notPositive))
  .check(z.lte(2_147_483_647, M.numberTooLarge));

/** Authenticated request identity (spec §3): every authenticated POST body carries both [R3-1][R7-4]. */
export const identitySchema = z.object({
  user_id: idSchema,
  access_token: z.string().check(z.minLength(20)).check(z.maxLength(200)),
});
export type Identity = z.infer<typeof identitySchema>;

/** A 1/0 flag as the server answers it. */
export const flag01Schema = z.union([z.literal(0), z.literal(1)]);
export type Flag01 = z.infer<typeof flag01Schema>;

/**
 * A 1/0 setting as a client may send it [R5-1][R3-18]: 1/0, true/false or '1'/'0', coerced to 1 or 0.
 * Anything else (2, 'yes', null) is refused rather than guessed.
 */
export const coercedFlagSchema = mapped(
  z.union([z.literal(0), z.literal(1), z.boolean(), z.literal('0'), z.literal('1')], { error: M.flag01 }),
  (v): Flag01 => (v === 1 || v === true || v === '1' ? 1 : 0),
);
