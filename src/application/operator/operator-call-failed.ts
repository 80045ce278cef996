/** Why an operator call failed: the server refused it, no usable answer came, or the answer broke the contract. */
export type OperatorFailureKind = 'refused' | 'transport' | 'invalidAnswer';

/**
 * The one error every OperatorApiPort call rejects with. `status` is the HTTP status of a refusal
 * (403: no session or not this role, 401: a bad sign-in, 429: limited, 400: a bad body), 0 otherwise;
 * `info` is the server's Japanese error_info, or null when there was none.
 */
export class OperatorCallFailed extends Error {
  override readonly name = 'OperatorCallFailed';
  constructor(
    readonly kind: OperatorFailureKind,
    readonly status: number,
    readonly code: number,
    readonly info: string | null,
    readonly call: string,
    options?: { cause?: unknown },
  ) {
    super(`${call}: ${kind} ${status} ${info ?? ''}`.trim(), options);
  }
}

export function isOperatorCallFailed(error: unknown): error is OperatorCallFailed {
  return error instanceof Error && error.name === 'OperatorCallFailed';
}

/** The server's words for a failure, or null (the screen then says it in its own words). */
export function failureInfo(error: unknown): string | null {
  return isOperatorCallFailed(error) ? error.info : null;
}
