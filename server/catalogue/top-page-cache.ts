import type { TopPageCatalogue } from '../../src/domain';
import type { Clock } from '../clock';
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

interface Entry {
  readonly answer: Promise<CompressedText>;
  validUntil: number;
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
 * not kept. At most `maxEntries` are kept (a festival id is the caller's choice).
 */
export class TopPageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners: (() => void)[] = [];
  private hits = 0;
  private builds = 0;

  constructor(
    private readonly build: (key: TopPageKey, now: Date) => Promise<BuiltTopPage>,
    private readonly clock: Clock,
    private readonly maxEntries = 64,
  ) {}

  /** The current answer for `key`: from the cache, or built now. Rejects as the build does. */
  answer(key: TopPageKey): Promise<CompressedText> {
    const id = `${key.shopId}/${key.showVirtualCrane ? 1 : 0}/${key.fesId ?? ''}`;
    const now = this.clock.now();
    const kept = this.entries.get(id);
    if (kept && now.getTime() < kept.validUntil) {
      this.hits += 1;
      return kept.answer;
    }
    this.builds += 1;
    const entry: Entry = {
      answer: this.build(key, now).then(({ page, validUntil }) => {
        entry.validUntil = validUntil ? validUntil.getTime() : Number.POSITIVE_INFINITY;
        return new CompressedText(JSON.stringify(ok(page)));
      }),
      // While it builds, later requests share it.
      validUntil: Number.POSITIVE_INFINITY,
    };
    entry.answer.catch(() => {
      if (this.entries.get(id) === entry) this.entries.delete(id);
    });
    this.entries.delete(id);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, entry);
    return entry.answer;
  }

  /** Drops every kept answer: the next request builds from the store. Listeners (the rendered pages) drop theirs too. */
  invalidate(): void {
    this.entries.clear();
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` whenever the kept answers are dropped. */
  onInvalidate(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** How often an answer came from the cache and how often it was built (benchmarks, tests). */
  stats(): { hits: number; builds: number; entries: number } {
    return { hits: this.hits, builds: this.builds, entries: this.entries.size };
  }
}
