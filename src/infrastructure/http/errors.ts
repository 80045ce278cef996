/** What a failed call carries, whatever went wrong [R8-7]. */
export interface FailedRequestDetail {
  readonly request: { readonly method: string; readonly url: string };
  readonly rawRequestBody: string;
  /** The parsed answer, or null when there was none or it was not JSON. */
  readonly response: unknown;
  readonly rawResponse: string;
  readonly context: string;
}

/** Why a call failed: the service refused it (error_code ≠ 200), no usable answer came, or the answer broke the contract. */
export type FailureKind = 'refused' | 'transport' | 'invalidAnswer';

/**
 * Every failed service call raises this error [R8-7]: it carries the request, the raw request body,
 * the parsed and the raw response and the context. `kind` says why; `code` and `info` are the
 * answer's error_code and error_info when the service refused the call [R8-1], else 0 and ''.
 * TransportError and InvalidResponseError are its two other kinds, with the same name.
 */
export class PostResponseError extends Error {
  override readonly name = 'PostResponseError';
  readonly kind: FailureKind = 'refused';
  constructor(
    readonly code: number,
    readonly info: string,
    readonly detail: FailedRequestDetail,
    options?: { cause?: unknown; message?: string },
  ) {
    super(
      options?.message ?? `${detail.context}: error_code ${code} ${info}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}

const noDetail = (context: string): FailedRequestDetail => ({
  request: { method: '', url: '' },
  rawRequestBody: '',
  response: null,
  rawResponse: '',
  context,
});

/** The answer did not have the shape the contract promises; `issues` says where. */
export class InvalidResponseError extends PostResponseError {
  override readonly kind = 'invalidAnswer';
  constructor(
    readonly context: string,
    readonly issues: string,
    detail: Partial<FailedRequestDetail> = {},
    options?: { cause?: unknown },
  ) {
    super(
      0,
      '',
      { ...noDetail(context), ...detail },
      { ...options, message: `${context}: the answer does not match the contract (${issues})` },
    );
  }
}

/** The call got no usable answer: network failure, timeout, or an HTTP error without a service body. */
export class TransportError extends PostResponseError {
  override readonly kind = 'transport';
  constructor(
    readonly context: string,
    readonly status: number | null,
    detail: Partial<FailedRequestDetail> = {},
    options?: { cause?: unknown },
  ) {
    super(
      0,
      '',
      { ...noDetail(context), ...detail },
      { ...options, message: `${context}: ${status === null ? 'no answer' : `HTTP ${status}`}` },
    );
  }
}

/** Any failed service call [R8-7]. */
export const isPostResponseError = (e: unknown): e is PostResponseError =>
  e instanceof Error && e.name === 'PostResponseError';
/** A call the service refused with an error_code other than 200 [R8-1]. */
export const isRefusedResponse = (e: unknown): e is PostResponseError => isPostResponseError(e) && e.kind === 'refused';
export const isInvalidResponseError = (e: unknown): e is InvalidResponseError =>
  isPostResponseError(e) && e.kind === 'invalidAnswer';
export const isTransportError = (e: unknown): e is TransportError => isPostResponseError(e) && e.kind === 'transport';

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
export const isNotSignedInError = (e: unknown): e is NotSignedInError =>
  e instanceof Error && e.name === 'NotSignedInError';
