import type { BuildTarget } from '../build-target';
import { DOMAIN_MESSAGES } from '../messages';
import type { Character } from './character.entity';
import { isInformationTag } from './editorial.entity';
import type { TabListItem } from './prize.entity';

/** The catalogue a path is read against: passed in, never hard-coded. */
export interface CatalogueNav {
  readonly characters: readonly Character[];
  readonly tabs: readonly Pick<TabListItem, 'tab_slug' | 'tab_name'>[];
}

/** What a catalogue path selects (slugs), plus the keyword query. */
export interface CatalogueSelection {
  readonly character?: string;
  readonly subCharacter?: string;
  readonly tab?: string;
  readonly keyword?: string;
}

/** The query parameter of the keyword search. */
export const KEYWORD_QUERY_PARAM = 'keyword';

const enc = (segment: string): string => encodeURIComponent(segment);

/**
 * The catalogue path for a selection [R2.3-1, R2.3-2]. On web: '/{character}/{subCharacter}/{tab}'
 * with whichever segments are chosen, in that order, plus '?keyword=…' when a non-blank keyword is
 * given (trimmed). On every other target: '/' (the native and portal builds have one list page).
 * Throws RangeError for a sub-character without its character.
 */
export function buildCataloguePath(target: BuildTarget, selection: CatalogueSelection): string {
  if (target !== 'web') return '/';
  if (selection.subCharacter !== undefined && selection.character === undefined) {
    throw new RangeError('A sub-character segment needs its character segment');
  }
  const segments = [selection.character, selection.subCharacter, selection.tab].filter(
    (s): s is string => s !== undefined && s !== '',
  );
  const keyword = selection.keyword?.trim() ?? '';
  const query = keyword === '' ? '' : `?${KEYWORD_QUERY_PARAM}=${enc(keyword)}`;
  return `/${segments.map(enc).join('/')}${query}`;
}

/** The parts of a path text: path, query (without '?'), hash (without '#'). */
function splitUrl(url: string): { readonly path: string; readonly query: string; readonly hash: string | null } {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  return {
    path: queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt),
    query: queryAt === -1 ? '' : beforeHash.slice(queryAt + 1),
    hash: hashAt === -1 ? null : url.slice(hashAt + 1),
  };
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function readKeyword(query: string): string | undefined {
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (name !== KEYWORD_QUERY_PARAM) continue;
    const value = safeDecode((eq === -1 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' '))?.trim();
    return value === undefined || value === '' ? undefined : value;
  }
  return undefined;
}

/** The 404 message: 'Page Not Found' followed by the full path [R2.1-5, R2.3-5]. */
export function pageNotFoundMessage(fullPath: string): string {
  return `${DOMAIN_MESSAGES.pageNotFound} ${fullPath}`;
}

export type CataloguePathResult =
  | { readonly ok: true; readonly selection: CatalogueSelection }
  | { readonly ok: false; readonly badSegment: string; readonly message: string };

/**
 * Reads a catalogue path (path, optional query and hash) [R2.3-3, R2.3-5].
 * - Non-web: any tag segment is a 404 ('Page Not Found' + path); the bare root is the list.
 * - Web: segments are read by position — a character, then one of its sub-characters, then a tab;
 *   or a tab alone. A segment that is none of these (or one segment too many, or undecodable) is
 *   bad navigation, answered with the 404 message.
 * A sub-character slug shadows a tab slug at the same position; `findSlugConflicts` reports such
 * catalogues.
 */
export function parseCataloguePath(target: BuildTarget, nav: CatalogueNav, url: string): CataloguePathResult {
  const { path, query } = splitUrl(url);
  const raw = path.split('/').filter((s) => s !== '');
  const keyword = readKeyword(query);
  const fail = (badSegment: string): CataloguePathResult => ({
    ok: false,
    badSegment,
    message: pageNotFoundMessage(path === '' ? '/' : path),
  });
  if (target !== 'web')
    return raw.length > 0 ? fail(raw[0] ?? '') : { ok: true, selection: keyword === undefined ? {} : { keyword } };

  const segments: string[] = [];
  for (const r of raw) {
    const s = safeDecode(r);
    if (s === null) return fail(r);
    segments.push(s);
  }
  const isTab = (s: string): boolean => nav.tabs.some((t) => t.tab_slug === s);
  const selection: { character?: string; subCharacter?: string; tab?: string; keyword?: string } = {};
  let i = 0;
  const first = segments[0];
  const character = first === undefined ? undefined : nav.characters.find((c) => c.character_slug === first);
  if (character) {
    selection.character = character.character_slug;
    i = 1;
    const second = segments[1];
    if (second !== undefined && character.sub_character.some((s) => s.sub_character_slug === second)) {
      selection.subCharacter = second;
      i = 2;
    }
  }
  const next = segments[i];
  if (next !== undefined && isTab(next)) {
    selection.tab = next;
    i += 1;
  }
  if (i < segments.length) return fail(segments[i] ?? '');
  if (keyword !== undefined) selection.keyword = keyword;
  return { ok: true, selection };
}

/** Slugs that would make a path ambiguous: a character slug equal to a tab slug, or a sub slug equal to a tab slug. */
export function findSlugConflicts(nav: CatalogueNav): readonly string[] {
  const tabs = new Set(nav.tabs.map((t) => t.tab_slug));
  const conflicts = new Set<string>();
  for (const c of nav.characters) {
    if (tabs.has(c.character_slug)) conflicts.add(c.character_slug);
    for (const s of c.sub_character) if (tabs.has(s.sub_character_slug)) conflicts.add(s.sub_character_slug);
  }
  return [...conflicts];
}

/**
 * On web, a path with a hash fragment is redirected to the same path without it (the query stays)
 * [R2.3-4]. null when no redirect is due (no hash, or not web).
 */
export function cleanPathRedirect(target: BuildTarget, url: string): string | null {
  if (target !== 'web') return null;
  const hashAt = url.indexOf('#');
  if (hashAt === -1) return null;
  const clean = url.slice(0, hashAt);
  return clean === '' ? '/' : clean;
}

/** Where a station is listed, for its web play path. */
export interface PlayLocation {
  readonly stationId: number;
  readonly character: string;
  readonly subCharacter: string;
  readonly tab: string;
}

/** Play path [R2.3-6]: /play/{stationId} on non-web builds, /play/{character}/{subCharacter}/{tab}/{stationId} on web. */
export function buildPlayPath(target: BuildTarget, location: PlayLocation): string {
  if (target !== 'web') return `/play/${location.stationId}`;
  return `/play/${[location.character, location.subCharacter, location.tab].map(enc).join('/')}/${location.stationId}`;
}

/**
 * The station a play screen shows (§2.1): the `{stationId}` of /game/{stationId} when the route has
 * one (a positive id of at most 9 digits), else the station of a play path for this target; null
 * when it is neither.
 */
export function playScreenStationId(
  target: BuildTarget,
  gameStationId: string | undefined,
  pathname: string,
): number | null {
  if (gameStationId !== undefined) return /^[1-9]\d{0,8}$/.test(gameStationId) ? Number(gameStationId) : null;
  return parsePlayPath(target, pathname)?.stationId ?? null;
}

/** Reads a play path back; null when it is not one for this target [R2.3-6]. */
export function parsePlayPath(target: BuildTarget, url: string): PlayLocation | { readonly stationId: number } | null {
  const segments = splitUrl(url)
    .path.split('/')
    .filter((s) => s !== '');
  if (segments[0] !== 'play') return null;
  const last = segments[segments.length - 1] ?? '';
  if (!/^[1-9]\d*$/.test(last)) return null;
  const stationId = Number(last);
  if (target !== 'web') return segments.length === 2 ? { stationId } : null;
  if (segments.length !== 5) return null;
  const [character, subCharacter, tab] = segments.slice(1, 4).map(safeDecode);
  if (character == null || subCharacter == null || tab == null) return null;
  return { stationId, character, subCharacter, tab };
}

/** One breadcrumb step; the current page has no href. */
export interface Crumb {
  readonly label: string;
  readonly href: string | null;
}

/**
 * The catalogue breadcrumb [R2.3-7]: 'ホーム' (the service top page), then '景品一覧' (the list
 * root), then on web the chosen character, sub-character and tab by name. The last step is the
 * current page.
 */
export function catalogueBreadcrumb(
  target: BuildTarget,
  nav: CatalogueNav,
  selection: CatalogueSelection,
  homeHref = '/',
): readonly Crumb[] {
  const crumbs: Crumb[] = [
    { label: DOMAIN_MESSAGES.breadcrumbHome, href: homeHref },
    { label: DOMAIN_MESSAGES.breadcrumbPrizeList, href: buildCataloguePath(target, {}) },
  ];
  if (target === 'web') {
    const character = nav.characters.find((c) => c.character_slug === selection.character);
    const sub = character?.sub_character.find((s) => s.sub_character_slug === selection.subCharacter);
    const tab = nav.tabs.find((t) => t.tab_slug === selection.tab);
    if (character)
      crumbs.push({
        label: character.character_name,
        href: buildCataloguePath(target, { character: character.character_slug }),
      });
    if (character && sub)
      crumbs.push({
        label: sub.sub_character_name,
        href: buildCataloguePath(target, { character: character.character_slug, subCharacter: sub.sub_character_slug }),
      });
    if (tab)
      crumbs.push({
        label: tab.tab_name,
        href: buildCataloguePath(target, {
          character: character?.character_slug,
          subCharacter: sub?.sub_character_slug,
          tab: tab.tab_slug,
        }),
      });
  }
  const last = crumbs[crumbs.length - 1];
  if (last) crumbs[crumbs.length - 1] = { label: last.label, href: null };
  return crumbs;
}

/**
 * Where a carousel slide leads (its type_id, spec §3): 1 an information page '/information/{link}',
 * 2 a prize search for the keyword `link` (the catalogue path of the target), 3 the game screen of
 * station `link`. A link that does not fit its type leads to the top page.
 */
export function carouselHref(
  target: BuildTarget,
  slide: { readonly type_id: 1 | 2 | 3; readonly link: string },
): string {
  const link = slide.link.trim();
  if (slide.type_id === 1) return isInformationTag(link) ? `/information/${link}` : '/';
  if (slide.type_id === 2) return link ? buildCataloguePath(target, { keyword: link }) : '/';
  return /^[1-9]\d{0,9}$/.test(link) ? `/game/${link}` : '/';
}
