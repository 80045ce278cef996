import { Observable } from 'rxjs';
import type { BuildManifestPort, ReloadMarkPort } from '../../application';

/** Where the build writes its manifest (vite.config.ts): `{ "entry": "/assets/index-<hash>.js" }`. */
export const BUILD_MANIFEST_PATH = '/build.json';

/** The entry of a build manifest's body, or null when it is not one. */
function entryOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const entry = (body as { entry?: unknown }).entry;
  return typeof entry === 'string' && entry.length > 0 && entry.length <= 512 ? entry : null;
}

/**
 * The served build from the build manifest (a static file beside the app, never cached): its entry
 * script's address, which changes with every build that changes the code. Any failure (offline, a
 * development server with no manifest, a body that is not one) answers null.
 */
export class FetchBuildManifest implements BuildManifestPort {
  constructor(
    private readonly url: string,
    private readonly fetchFn: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  servedBuild(): Observable<string | null> {
    return new Observable<string | null>((subscriber) => {
      const controller = new AbortController();
      this.fetchFn(this.url, { cache: 'no-store', signal: controller.signal, headers: { accept: 'application/json' } })
        .then(async (res) => (res.ok ? entryOf(await res.json()) : null))
        .catch(() => null)
        .then((entry) => {
          subscriber.next(entry);
          subscriber.complete();
        });
      return () => controller.abort();
    });
  }
}

const RELOAD_KEY = 'onkure.reloadedAt';

/** The last self-reload of this tab, in session storage (it outlives the reload, not the tab). */
export class SessionReloadMark implements ReloadMarkPort {
  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null) {}

  lastReloadAt(): number | null {
    try {
      const value = Number(this.storage?.getItem(RELOAD_KEY) ?? NaN);
      return Number.isFinite(value) ? value : null;
    } catch {
      return null;
    }
  }

  markReload(at: number): void {
    try {
      this.storage?.setItem(RELOAD_KEY, String(at));
    } catch {
      // Storage full or refused: the guard then only holds within this page.
    }
  }
}
