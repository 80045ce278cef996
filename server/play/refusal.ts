import type { ERROR_INFO } from '../http/reply';

/**
 * A play or kuji call refused for a reason the caller can act on: an HTTP status, the error_code
 * the client reads and a Japanese error_info. Thrown inside a store transaction it rolls the
 * transaction back, so a refused call changes nothing.
 */
export class Refusal extends Error {
  override readonly name = 'Refusal';

  /** status 200 is for the product codes the client reads from a normal answer (531, 569-571; docs/api.md). */
  constructor(
    readonly status: keyof typeof ERROR_INFO | 200,
    readonly code: number,
    readonly info: string,
    /** More fields of the answer beside error_code and error_info (531 names its station_id). */
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(info);
  }
}

export function isRefusal(error: unknown): error is Refusal {
  return error instanceof Error && error.name === 'Refusal';
}

/** Whether a store error is a unique-constraint violation (PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
