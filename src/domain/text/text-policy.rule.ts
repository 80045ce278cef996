/**
 * One text policy for what players type that other players or a shipping label will show
 * (nicknames, address fields) and one e-mail check for every e-mail address (account and address).
 * Pure: the contract's zod schemas and the domain's address validation both use it.
 */

/** Why a text breaks the policy. */
export type TextProblem = 'control' | 'bidi' | 'noncharacter' | 'invisible';

// C0/C1 controls and the line/paragraph separators U+2028/U+2029.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
// Bidi embeddings/overrides (U+202A–U+202E), isolates (U+2066–U+2069) and the bidi marks: they reorder
// what surrounds the text when shown (a name that reads as something else).
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;
// Noncharacters: U+FDD0–U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, U+1FFFE …);
// lone surrogates too (not text at all).
const NONCHARACTER =
  /[\ufdd0-\ufdef\ufffe\uffff\u{1fffe}\u{1ffff}\u{2fffe}\u{2ffff}\u{3fffe}\u{3ffff}\u{4fffe}\u{4ffff}\u{5fffe}\u{5ffff}\u{6fffe}\u{6ffff}\u{7fffe}\u{7ffff}\u{8fffe}\u{8ffff}\u{9fffe}\u{9ffff}\u{afffe}\u{affff}\u{bfffe}\u{bffff}\u{cfffe}\u{cffff}\u{dfffe}\u{dffff}\u{efffe}\u{effff}\u{ffffe}\u{fffff}\u{10fffe}\u{10ffff}]|\p{Surrogate}/u;
// Characters that show nothing: whitespace, format characters (Cf: U+200B, U+FEFF, U+2060 …), and the
// Hangul fillers and other blank letters (U+115F, U+1160, U+3164, U+FFA0, U+034F, U+180E, U+2800).
// (U+115F, U+1160 and U+034F stay outside the class: they would combine with their neighbours in it.)
const INVISIBLE = /^(?:[\s\p{Cf}\u3164\uffa0\u180e\u2800]|\u115f|\u1160|\u034f)*$/u;

/** The first problem of `text` under the policy, or null when it is acceptable. */
export function textProblem(text: string): TextProblem | null {
  if (CONTROL.test(text)) return 'control';
  if (BIDI.test(text)) return 'bidi';
  if (NONCHARACTER.test(text)) return 'noncharacter';
  if (INVISIBLE.test(text)) return 'invisible';
  return null;
}

/** True when `text` is acceptable under the policy (not empty, nothing hidden, nothing reordering). */
export const isAcceptableText = (text: string): boolean => textProblem(text) === null;

/** RFC 5321's limit for a whole address. */
export const EMAIL_MAX_LENGTH = 254;

// Local part: printable ASCII without the characters that mean something in mail headers or HTML
// (space, @ " < > ( ) [ ] \ , ; :); domain: letters, digits and hyphens in dot-separated labels
// with at least one dot. Case-insensitive: callers lower-case the address for storage.
const EMAIL =
  /^[!#-'*+\-./0-9=?A-Z^-~]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** The one e-mail check (account e-mail and address e-mail): refuses `<svg/onload=alert(1)>@x.jp`. */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text);
}
