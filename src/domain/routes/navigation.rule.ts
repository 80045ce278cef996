/**
 * Where the service's home is (spec §2.6) [R2.6-5]: the app state's top-page base address, then
 * '/'. An empty base means this site's own root.
 */
export function serviceHomeHref(topPageBaseUrl: string): string {
  return `${topPageBaseUrl.replace(/\/+$/, '')}/`;
}

/** The layouts a page may ask for; 'default' unless it sets another [R2.1-4]. */
export type LayoutName = 'default' | 'plain';

/** The layout of the deepest route that names one, else 'default' [R2.1-4]. */
export function layoutOf(handles: readonly unknown[]): LayoutName {
  for (let i = handles.length - 1; i >= 0; i -= 1) {
    const layout = (handles[i] as { layout?: unknown } | null | undefined)?.layout;
    if (layout === 'default' || layout === 'plain') return layout;
  }
  return 'default';
}

/** The "Page Not Found" line of a failed route validation, with the full path [R2.1-5]. */
export function fullPathOf(location: {
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** Where to go after signing in: `next` when it is a path on this site, else '/' (no open redirect). */
export function safeNextPath(next: string | null | undefined): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')
    ? next
    : '/';
}
