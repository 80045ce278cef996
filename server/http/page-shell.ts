import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/** The built page the server sends (and renders into), and what its CSP must allow for it. */
export interface PageShell {
  readonly html: string;
  /** CSP sources of the inlined styles ('sha256-…'), for style-src. */
  readonly styleHashes: readonly string[];
}

/** A stylesheet larger than this stays a file (inlining it would cost every page more than it saves). */
const MAX_INLINE_CSS_BYTES = 48 * 1024;

/**
 * Reads the built page (dist/client/index.html) and inlines its stylesheets: the app's whole CSS is
 * small (about 5 KB compressed), so the first paint needs no request but the page itself. Each
 * inlined style is allowed by its hash in the CSP, so style-src stays without 'unsafe-inline'.
 * Null when there is no built page.
 */
export function readPageShell(staticDir: string): PageShell | null {
  const root = resolve(staticDir);
  const index = join(root, 'index.html');
  if (!existsSync(index)) return null;
  const styleHashes: string[] = [];
  const html = readFileSync(index, 'utf8').replace(
    /<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[^"?#]+\.css)">/g,
    (tag, file: string) => {
      const path = resolve(root, file);
      if (!path.startsWith(root + sep) || !existsSync(path)) return tag;
      const css = readFileSync(path, 'utf8').replace(/<\/style/gi, '<\\/style');
      if (Buffer.byteLength(css) > MAX_INLINE_CSS_BYTES) return tag;
      styleHashes.push(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
      return `<style>${css}</style>`;
    },
  );
  return { html, styleHashes };
}
