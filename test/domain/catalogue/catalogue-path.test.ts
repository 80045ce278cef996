import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUILD_TARGETS,
  buildCataloguePath,
  buildPlayPath,
  catalogueBreadcrumb,
  cleanPathRedirect,
  findSlugConflicts,
  parseCataloguePath,
  parsePlayPath,
  type CatalogueNav,
  type CatalogueSelection,
  type Character,
} from '../../../src/domain';

/** A slice of the reference server's seed, passed as data. */
const seedNav: CatalogueNav = {
  characters: [
    {
      character_id: 1,
      character_name: 'もちもちうさぎ',
      character_slug: 'mochiusa',
      sub_character: [
        { sub_character_id: 11, sub_character_name: 'ミルク', sub_character_slug: 'milk' },
        { sub_character_id: 12, sub_character_name: 'あんこ', sub_character_slug: 'anko' },
      ],
    },
    {
      character_id: 6,
      character_name: 'おばけのぽわん',
      character_slug: 'powan',
      sub_character: [{ sub_character_id: 61, sub_character_name: 'ぽわん', sub_character_slug: 'powan' }],
    },
  ],
  tabs: [
    { tab_slug: 'home', tab_name: 'ホーム' },
    { tab_slug: 'all', tab_name: 'すべて' },
    { tab_slug: 'new', tab_name: '新着' },
    { tab_slug: 'plush', tab_name: 'ぬいぐるみ' },
    { tab_slug: 'vip', tab_name: 'VIP' },
    { tab_slug: 'point-ticket', tab_name: 'ポイントチケット景品' },
  ],
};

const nonWeb = fc.constantFrom(...BUILD_TARGETS.filter((t) => t !== 'web'));
const slug = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,11}$/);

/** Any catalogue whose tab slugs differ from character and sub-character slugs (see findSlugConflicts). */
const catalogue: fc.Arbitrary<CatalogueNav> = fc
  .record({
    tabs: fc.uniqueArray(
      slug.map((s) => `t-${s}`),
      { minLength: 1, maxLength: 6 },
    ),
    characters: fc.uniqueArray(
      fc.record({
        slug: slug.map((s) => `c-${s}`),
        subs: fc.uniqueArray(fc.oneof(slug, fc.string({ minLength: 1, maxLength: 6 })), { maxLength: 4 }),
      }),
      { minLength: 1, maxLength: 5, selector: (c) => c.slug },
    ),
  })
  .map(({ tabs, characters }) => ({
    tabs: tabs.map((t) => ({ tab_slug: t, tab_name: t })),
    characters: characters.map((c, i): Character => ({
      character_id: i + 1,
      character_name: c.slug,
      character_slug: c.slug,
      sub_character: c.subs
        .filter((s) => !s.startsWith('t-'))
        .map((s, j) => ({ sub_character_id: j + 1, sub_character_name: s, sub_character_slug: s })),
    })),
  }));

/** A selection that the catalogue knows, with an optional keyword. */
function selectionOf(nav: CatalogueNav): fc.Arbitrary<CatalogueSelection> {
  return fc
    .record({
      c: fc.option(fc.constantFrom(...nav.characters)),
      subPick: fc.nat(),
      wantSub: fc.boolean(),
      tab: fc.option(fc.constantFrom(...nav.tabs.map((t) => t.tab_slug))),
      keyword: fc.option(fc.string({ maxLength: 12 })),
    })
    .map(({ c, subPick, wantSub, tab, keyword }) => {
      const sub =
        c && wantSub && c.sub_character.length > 0 ? c.sub_character[subPick % c.sub_character.length] : undefined;
      const kw = keyword?.trim();
      return {
        ...(c ? { character: c.character_slug } : {}),
        ...(sub ? { subCharacter: sub.sub_character_slug } : {}),
        ...(tab !== null ? { tab } : {}),
        ...(kw ? { keyword: kw } : {}),
      };
    });
}

describe('catalogue paths', () => {
  it('[R2.3-1] web paths are character / sub-character / tab with an optional keyword query', () => {
    expect(buildCataloguePath('web', { character: 'mochiusa', subCharacter: 'milk', tab: 'plush' })).toBe(
      '/mochiusa/milk/plush',
    );
    expect(buildCataloguePath('web', { character: 'mochiusa', tab: 'vip', keyword: ' うさぎ ぬい ' })).toBe(
      '/mochiusa/vip?keyword=%E3%81%86%E3%81%95%E3%81%8E%20%E3%81%AC%E3%81%84',
    );
    expect(buildCataloguePath('web', { tab: 'all', keyword: '   ' })).toBe('/all');
    expect(buildCataloguePath('web', {})).toBe('/');
    expect(() => buildCataloguePath('web', { subCharacter: 'milk' })).toThrow(RangeError);
  });

  it('[R2.3-1] building then parsing gives the selection back, for every catalogue', () => {
    fc.assert(
      fc.property(
        catalogue.chain((nav) => fc.tuple(fc.constant(nav), selectionOf(nav))),
        ([nav, selection]) => {
          const path = buildCataloguePath('web', selection);
          expect(parseCataloguePath('web', nav, path)).toEqual({ ok: true, selection });
        },
      ),
    );
  });

  it('[R2.3-1] parsing then building gives the path back, for the seed catalogue', () => {
    for (const path of [
      '/',
      '/mochiusa',
      '/mochiusa/milk',
      '/mochiusa/milk/plush',
      '/mochiusa/plush',
      '/point-ticket',
      '/powan/powan/all?keyword=%E3%81%BD',
    ]) {
      const parsed = parseCataloguePath('web', seedNav, path);
      expect(parsed.ok && buildCataloguePath('web', parsed.selection)).toBe(path);
    }
  });

  it('[R2.3-2] on non-web builds the path builder returns the root', () => {
    fc.assert(
      fc.property(nonWeb, catalogue.chain(selectionOf), (target, selection) => {
        expect(buildCataloguePath(target, selection)).toBe('/');
      }),
    );
  });

  it('[R2.3-3] a segment that is no known tab, character or sub-character is bad navigation', () => {
    expect(parseCataloguePath('web', seedNav, '/nekomaru')).toEqual({
      ok: false,
      badSegment: 'nekomaru',
      message: 'Page Not Found /nekomaru',
    });
    expect(parseCataloguePath('web', seedNav, '/mochiusa/kuromaru/plush')).toMatchObject({
      ok: false,
      badSegment: 'kuromaru',
    });
    expect(parseCataloguePath('web', seedNav, '/plush/mochiusa')).toMatchObject({ ok: false, badSegment: 'mochiusa' });
    expect(parseCataloguePath('web', seedNav, '/mochiusa/milk/plush/extra')).toMatchObject({
      ok: false,
      badSegment: 'extra',
    });
    expect(parseCataloguePath('web', seedNav, '/%E0%A4%A')).toMatchObject({ ok: false });
    fc.assert(
      fc.property(
        catalogue,
        slug.map((s) => `x-${s}`),
        (nav, unknown) => {
          expect(parseCataloguePath('web', nav, `/${unknown}`)).toMatchObject({ ok: false, badSegment: unknown });
        },
      ),
    );
  });

  it('[R2.3-3] reports catalogues whose slugs would make paths ambiguous', () => {
    expect(findSlugConflicts(seedNav)).toEqual([]);
    expect(
      findSlugConflicts({
        ...seedNav,
        tabs: [...seedNav.tabs, { tab_slug: 'milk', tab_name: 'x' }, { tab_slug: 'powan', tab_name: 'y' }],
      }),
    ).toEqual(['milk', 'powan']);
  });

  it('[R2.3-4] on web a path with a hash is redirected to the clean path', () => {
    expect(cleanPathRedirect('web', '/mochiusa/plush?keyword=a#top')).toBe('/mochiusa/plush?keyword=a');
    expect(cleanPathRedirect('web', '#x')).toBe('/');
    expect(cleanPathRedirect('web', '/mochiusa')).toBeNull();
    expect(cleanPathRedirect('ios', '/#x')).toBeNull();
  });

  it('[R2.3-5] on non-web builds any route with tag parameters gives the 404 Page Not Found', () => {
    fc.assert(
      fc.property(nonWeb, fc.array(slug, { minLength: 1, maxLength: 3 }), (target, segments) => {
        const path = `/${segments.join('/')}`;
        expect(parseCataloguePath(target, seedNav, path)).toEqual({
          ok: false,
          badSegment: segments[0],
          message: `Page Not Found ${path}`,
        });
      }),
    );
    expect(parseCataloguePath('android', seedNav, '/')).toEqual({ ok: true, selection: {} });
  });

  it('[R2.3-6] the play path is /play/{id} off web and /play/{character}/{sub}/{type}/{id} on web, and reads back', () => {
    const at = { stationId: 42, character: 'mochiusa', subCharacter: 'milk', tab: 'plush' };
    expect(buildPlayPath('web', at)).toBe('/play/mochiusa/milk/plush/42');
    expect(buildPlayPath('yahoo', at)).toBe('/play/42');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        slug,
        fc.string({ minLength: 1, maxLength: 5 }),
        slug,
        fc.constantFrom(...BUILD_TARGETS),
        (stationId, character, subCharacter, tab, target) => {
          const loc = { stationId, character, subCharacter, tab };
          expect(parsePlayPath(target, buildPlayPath(target, loc))).toEqual(target === 'web' ? loc : { stationId });
        },
      ),
    );
    expect(parsePlayPath('web', '/play/42')).toBeNull();
    expect(parsePlayPath('ios', '/play/a/b/c/42')).toBeNull();
    expect(parsePlayPath('ios', '/play/0')).toBeNull();
  });

  it('[R2.3-7] the breadcrumb starts with ホーム then 景品一覧', () => {
    expect(catalogueBreadcrumb('web', seedNav, {}, 'https://onkure.example/')).toEqual([
      { label: 'ホーム', href: 'https://onkure.example/' },
      { label: '景品一覧', href: null },
    ]);
    expect(catalogueBreadcrumb('web', seedNav, { character: 'mochiusa', subCharacter: 'milk', tab: 'plush' })).toEqual([
      { label: 'ホーム', href: '/' },
      { label: '景品一覧', href: '/' },
      { label: 'もちもちうさぎ', href: '/mochiusa' },
      { label: 'ミルク', href: '/mochiusa/milk' },
      { label: 'ぬいぐるみ', href: null },
    ]);
    expect(catalogueBreadcrumb('mobage', seedNav, { character: 'mochiusa' }).map((c) => c.label)).toEqual([
      'ホーム',
      '景品一覧',
    ]);
  });
});
