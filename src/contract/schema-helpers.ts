import { z } from 'zod/mini';

/** What a `mapped` function may do besides returning its value: report why the value is refused. */
export interface MapContext {
  addIssue(issue: { code: 'custom'; message: string }): void;
}

/**
 * A schema whose parsed value is `fn` of what `schema` parsed: zod/mini's pipe into a transform,
 * with the function's input typed from the schema. `fn` may report an issue and return `z.NEVER`.
 */
export function mapped<S extends z.ZodMiniType, O>(schema: S, fn: (value: z.output<S>, ctx: MapContext) => O) {
  return z.pipe(
    schema,
    z.transform((value: z.output<S>, payload) =>
      fn(value, { addIssue: (issue) => void payload.issues.push({ ...issue, input: value }) }),
    ),
  );
}

/**
 * A safe integer with one message for a value that is not a number and another for a number that
 * is not a safe integer (classic zod's `z.number({ error }).int(message)`).
 */
export function integer(notNumber: string, notInteger: string) {
  return z.int({
    error: (issue) => (issue.code === 'invalid_type' && issue.expected !== 'int' ? notNumber : notInteger),
  });
}

/** Whether `value` (already shaped YYYY-MM-DD) names a day of the calendar: 2026-02-30 does not. */
export function isCalendarDay(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}
