/** The service answered with error_code other than 200 [R8-1, R8-7]. */
export class PostResponseError extends Error {
  override readonly name = 'PostResponseError';
  constructor(
    readonly code: number,
    readonly info: string,
    readonly detail: {
      readonly request: { readonly method: string; readonly url: string };
      readonly rawRequestBody: string;
      readonly response: unknown;
      readonly rawResponse: string;
      readonly context: string;
    },
  ) {
    super(`${detail.context}: error_code ${code} ${info}`);
  }
}

/** The answer did not have the shape the contract promises; `issues` says where. */
export class InvalidResponseError extends Error {
  override readonly name = 'InvalidResponseError';
  constructor(readonly context: string, readonly issues: string, options?: { cause?: unknown }) {
    super(`${context}: the answer does not match the contract (${issues})`, options);
  }
}

/** The call never got an answer: network failure, HTTP error status, or timeout. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(readonly context: string, readonly status: number | null, options?: { cause?: unknown }) {
    super(`${context}: ${status === null ? 'no answer' : `HTTP ${status}`}`, options);
  }
}

export const isPostResponseError = (e: unknown): e is PostResponseError => e instanceof Error && e.name === 'PostResponseError';
export const isInvalidResponseError = (e: unknown): e is InvalidResponseError => e instanceof Error && e.name === 'InvalidResponseError';
export const isTransportError = (e: unknown): e is TransportError => e instanceof Error && e.name === 'TransportError';

/** A call was not sent because the logout cookie is set (web) [R6-9]. */
export class LoggedOutError extends Error {
  override readonly name = 'LoggedOutError';
  constructor(readonly context: string) {
    super(`${context}: blocked, the user has logged out in this browser`);
  }
}

/** A call that needs a signed-in user was made with no session; nothing was sent. */
export class NotSignedInError extends Error {
  override readonly name = 'NotSignedInError';
  constructor(readonly context: string) {
    super(`${context}: needs a signed-in user`);
  }
}

export const isLoggedOutError = (e: unknown): e is LoggedOutError => e instanceof Error && e.name === 'LoggedOutError';
export const isNotSignedInError = (e: unknown): e is NotSignedInError => e instanceof Error && e.name === 'NotSignedInError';
