/**
 * A refusal decided inside a repository (not found, conflict, limit): carries the HTTP status,
 * error_code and the Japanese error_info the route answers with. Thrown inside a transaction it
 * also rolls the transaction back, so a refusal never leaves a half-done change.
 */
export class AccountRefusal extends Error {
  override readonly name = 'AccountRefusal';
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 429,
    readonly info: string,
    readonly code: number = status,
  ) {
    super(info);
  }
}
export const isAccountRefusal = (e: unknown): e is AccountRefusal => e instanceof Error && e.name === 'AccountRefusal';
