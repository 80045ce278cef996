import { z } from 'zod/mini';

import type { ErrorResponse as DomainErrorResponse } from '../domain';

/** Every answer carries error_code and error_info [R3-19]; 200 is success (SUCCESS_CODE in the domain) [R8-1]. */
export const errorResponseSchema = z.object({
  error_code: z.int(),
  error_info: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
export type _ErrorResponseCheck = ErrorResponse extends DomainErrorResponse ? true : never;
