import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock';
import { clockTtl, staleFrom } from './clock-ttl';
import { CompressedText } from './compressed';

/**
 * Rendered pages, per address (path and query), with their compressed bytes. A server render is
 * always a guest's (the session lives in the browser), so one address renders the same page for
 * everyone until the data behind it changes. A page is kept until:
 *  - `clear()`: a station's status, the catalogue or the campaigns changed (the top-page cache's
 *    invalidation calls it), so such a change shows on the very next page;
 *  - `ttlMs` has passed: what changes by time or by other writers (news, carousels, new arrivals,
 *    stock) shows within that.
 * Only 200 pages are kept (a 404 is any address a client invents), at most `maxEntries`: the least
 * recently used goes first.
 */
export class RenderedPageCache {
  private readonly pages: LRUCache<string, CompressedText>;
  private hits = 0;
  private renders = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = 10_000,
    maxEntries = 256,
  ) {
    this.pages = new LRUCache({ max: maxEntries, ...clockTtl(clock) });
  }

  /** The kept page for `address`, or null. */
  get(address: string): CompressedText | null {
    const page = this.pages.get(address);
    if (!page) return null;
    this.hits += 1;
    return page;
  }

  /** Keeps a freshly rendered 200 page; answers it either way. */
  keep(address: string, status: number, html: string): CompressedText {
    this.renders += 1;
    const page = new CompressedText(html);
    if (status === 200) this.pages.set(address, page, staleFrom(this.clock.now().getTime() + this.ttlMs));
    return page;
  }

  clear(): void {
    this.pages.clear();
  }

  stats(): { hits: number; renders: number; pages: number } {
    return { hits: this.hits, renders: this.renders, pages: this.pages.size };
  }
}
