import fc from 'fast-check';
import { z } from 'zod/mini';
import { anyJson } from './fuzz-values';

/** The part of JSON Schema (draft 2020-12, as zod writes it) this generator reads. */
interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Record<string, JsonSchema>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly prefixItems?: readonly JsonSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly pattern?: string;
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly $ref?: string;
  readonly $defs?: Record<string, JsonSchema>;
}

/**
 * Values a zod schema accepts, most of the time: the schema as JSON Schema (zod's own
 * `toJSONSchema`, what it cannot express read as "anything"), turned into a fast-check arbitrary.
 * Refinements JSON Schema cannot say (a date that exists, a sum) are not followed: those values
 * are refused by the server, which is what a fuzz wants some of anyway.
 */
export function schemaArbitrary(schema: z.ZodMiniType): fc.Arbitrary<unknown> {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  } catch {
    return anyJson;
  }
  return fromJsonSchema(json, json.$defs ?? {}, 0);
}

const SAFE = Number.MAX_SAFE_INTEGER;

function fromJsonSchema(s: JsonSchema, defs: Record<string, JsonSchema>, depth: number): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  const next = (child: JsonSchema) => fromJsonSchema(child, defs, depth + 1);
  if (s.$ref) {
    const name = s.$ref.replace(/^#\/\$defs\//, '');
    const target = defs[name];
    return target ? next(target) : anyJson;
  }
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const choices = s.anyOf ?? s.oneOf;
  if (choices && choices.length > 0) return fc.oneof(...choices.map(next));
  if (s.allOf && s.allOf.length > 0) return next(s.allOf[0]!);
  if (Array.isArray(s.type)) return fc.oneof(...(s.type as string[]).map((type) => next({ ...s, type })));
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = Math.max(-SAFE, s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? -SAFE));
      const max = Math.min(SAFE, s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : (s.maximum ?? SAFE));
      // Small values most of the time (ids, counts and amounts that exist), the bounds sometimes.
      const small = fc.integer({ min: Math.max(min, -3), max: Math.max(Math.max(min, -3), Math.min(max, 50)) });
      return min <= max ? fc.oneof(small, fc.integer({ min, max }), fc.constantFrom(min, max)) : fc.constant(min);
    }
    case 'number': {
      const min = s.minimum ?? s.exclusiveMinimum ?? -1e9;
      const max = s.maximum ?? s.exclusiveMaximum ?? 1e9;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return stringArbitrary(s);
    case 'array': {
      const items = s.items ? next(s.items) : anyJson;
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map(next));
      const minLength = s.minItems ?? 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 4, 4)) });
    }
    case 'object': {
      const properties = s.properties ?? {};
      const keys = Object.keys(properties);
      if (keys.length === 0)
        return s.additionalProperties === false
          ? fc.constant({})
          : fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 });
      return fc.record(Object.fromEntries(keys.map((key) => [key, next(properties[key]!)])), {
        requiredKeys: keys.filter((key) => s.required?.includes(key)),
      });
    }
    default:
      return anyJson;
  }
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, s.maxLength ?? 40);
  if (s.pattern) {
    const matching = patternArbitrary(s.pattern, minLength, maxLength);
    if (matching) return matching;
  }
  switch (s.format) {
    case 'email':
      return fc.emailAddress();
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
    case 'date':
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.webUrl();
    default: {
      // Japanese and formatted values that fit the bounds (none may: a filter that can never pass
      // would spin for ever, so the fitting ones are chosen first).
      const fitting = ['テスト', '東京都千代田区', '090-1234-5678', '1000001'].filter(
        (value) => value.length >= minLength && value.length <= maxLength,
      );
      return fc.oneof(
        fc.string({ minLength, maxLength }),
        fc.string({ unit: 'grapheme', minLength, maxLength }),
        ...(fitting.length > 0 ? [fc.constantFrom(...fitting)] : []),
      );
    }
  }
}

/** One character class repeated: `^[A-Za-z0-9_-]+$`, `^\\d{7}$`, `^.*$`. */
const REPEATED_CLASS = /^\^(\[(?:\\.|[^\]\\])+\]|\\[dws]|\.)(\+|\*|\{\d+(?:,\d*)?\})\$$/;

/**
 * Strings that match a pattern and fit the length bounds, or null when none can be made (a pattern
 * JavaScript reads otherwise, or one whose matches seldom fit). A filter on the length alone could
 * spin for ever: fast-check's `stringMatching` makes short strings for `+`, and an id of 16 to 64
 * characters is almost never one of them. So a repeated class is given the bounds itself, and any
 * other pattern is filtered only when a tenth of its matches fit.
 */
function patternArbitrary(pattern: string, minLength: number, maxLength: number): fc.Arbitrary<string> | null {
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength;
  const repeated = REPEATED_CLASS.exec(pattern);
  if (repeated) {
    // The pattern's own count, within the schema's bounds.
    const [, atLeast = '0', comma, atMost] = /^\{(\d+)(,?)(\d*)\}$/.exec(repeated[2]!) ?? [];
    const [patternMin, patternMax] =
      repeated[2] === '+'
        ? [1, Infinity]
        : repeated[2] === '*'
          ? [0, Infinity]
          : [Number(atLeast), comma ? (atMost ? Number(atMost) : Infinity) : Number(atLeast)];
    const least = Math.max(minLength, patternMin);
    const most = Math.min(maxLength, patternMax);
    if (least > most) return null;
    return fc.stringMatching(new RegExp(`^${repeated[1]}{${least},${most}}$`));
  }
  let matching: fc.Arbitrary<string>;
  try {
    matching = fc.stringMatching(new RegExp(pattern));
  } catch {
    return null;
  }
  const fitting = fc.sample(matching, { numRuns: 200, seed: 46 }).filter(fits);
  if (fitting.length >= 20) return matching.filter(fits);
  return fitting.length > 0 ? fc.constantFrom(...new Set(fitting)) : null;
}
