import { z } from 'zod';

/** error_code 200 means success [R8-1]; every answer carries error_code and error_info [R3-19]. */
export const SUCCESS_CODE = 200;

export const errorResponseSchema = z.object({
  error_code: z.number().int(),
  error_info: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
