import { LRUCache } from 'lru-cache';
import type { TopPageCatalogue } from '../../src/domain';
import type { Clock } from '../clock';
import { clockTtl, staleFrom } from '../http/clock-ttl';
import { CompressedText } from '../http/compressed';
import { ok } from '../http/reply';

/** What a top-page answer depends on besides time and the store. */
export interface TopPageKey {
  readonly shopId: number;
  /** Signed in on a target that shows the virtual crane tab (the answer's tab list differs). */
  readonly showVirtualCrane: boolean;
  readonly fesId?: number;
}

/** A top page as built from the store, and the first moment time alone changes it (null: never). */
export interface BuiltTopPage {
  readonly page: TopPageCatalogue;
  readonly validUntil: Date | null;
}

/**
 * The top page's answer per shop (and per tab-list variant and festival), kept with its compressed
 * bytes so the store is read, the JSON written and the bytes compressed once per change rather than
 * once per request. An entry ends when:
 *  - `invalidate()` is called: a station's status changed, or the catalogue or the campaigns did
 *    (services.ts calls it from the play loop's station events and the operator's changes);
 *  - time alone changes the answer (`validUntil`: a station stops being new, a festival starts or
 *    ends).
 * Requests that miss at the same moment share one build. A build that fails (an unknown shop) is
 * not kept. At most `maxEntries` are kept (a festival id is the caller's choice): the least recently
 * used goes first.
 */
export class TopPageCache {
  private readonly answers: LRUCache<string, Promise<CompressedText>>;
  private readonly listeners: (() => void)[] = [];
  private hits = 0;
  private builds = 0;

  constructor(
    private readonly build: (key: TopPageKey, now: Date) => Promise<BuiltTopPage>,
    private readonly clock: Clock,
    maxEntries = 64,
  ) {
    this.answers = new LRUCache({ max: maxEntries, ...clockTtl(clock) });
  }

  /** The current answer for `key`: from the cache, or built now. Rejects as the build does. */
  answer(key: TopPageKey): Promise<CompressedText> {
    const id = `${key.shopId}/${key.showVirtualCrane ? 1 : 0}/${key.fesId ?? ''}`;
    const kept = this.answers.get(id);
    if (kept) {
      this.hits += 1;
      return kept;
    }
    this.builds += 1;
    const built = this.build(key, this.clock.now());
    const answer = built.then(({ page }) => new CompressedText(JSON.stringify(ok(page))));
    // Kept without an end while it builds, so later requests share it; an invalidation or eviction
    // meanwhile leaves it out.
    this.answers.set(id, answer);
    built.then(
      ({ validUntil }) => {
        if (validUntil && this.answers.peek(id) === answer)
          this.answers.set(id, answer, staleFrom(validUntil.getTime()));
      },
      () => {
        if (this.answers.peek(id) === answer) this.answers.delete(id);
      },
    );
    return answer;
  }

  /** Drops every kept answer: the next request builds from the store. Listeners (the rendered pages) drop theirs too. */
  invalidate(): void {
    this.answers.clear();
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` whenever the kept answers are dropped. */
  onInvalidate(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** How often an answer came from the cache and how often it was built (benchmarks, tests). */
  stats(): { hits: number; builds: number; entries: number } {
    return { hits: this.hits, builds: this.builds, entries: this.answers.size };
  }
}
