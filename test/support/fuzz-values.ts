import fc from 'fast-check';

/** Arbitrary JSON-ish values, including the awkward ones: huge numbers, long strings, nesting. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constant(Number.MAX_SAFE_INTEGER),
    fc.constant(-1),
    fc.constant(2_147_483_648),
    fc.constant(9_999_999_999),
    fc.constant(1e308),
    fc.constant('a\u0000b'),
    fc.constant('\u0000'),
    fc.string(),
    fc.string({ minLength: 300, maxLength: 2000 }),
    fc.constantFrom('', '0', '1', 'null', '<script>alert(1)</script>', "' OR 1=1 --", '𠮷野家'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 12 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/**
 * Bodies built from a valid one: each field replaced, dropped or joined by junk, plus wholly random
 * bodies. Identity fields are mutated too, so most of these must be refused.
 */
export function mutatedBodies(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const mutateOne =
    keys.length === 0
      ? fc.constant(valid)
      : fc
          .tuple(fc.constantFrom(...keys), anyJson, fc.constantFrom('replace', 'drop', 'extra'))
          .map(([key, junk, how]) => {
            const copy: Record<string, unknown> = { ...valid };
            if (how === 'replace') copy[key] = junk;
            else if (how === 'drop') delete copy[key];
            else copy[`${key}_x`] = junk;
            return copy;
          });
  return fc.oneof(mutateOne, anyJson, fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 8 }));
}
