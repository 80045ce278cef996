import type { Observable } from 'rxjs';

/** The build the server serves now (its build manifest), as a build id; null when it cannot be read. */
export interface BuildManifestPort {
  servedBuild(): Observable<string | null>;
}

/** Remembers when this tab last reloaded itself (across the reload: session storage in a browser). */
export interface ReloadMarkPort {
  lastReloadAt(): number | null;
  markReload(at: number): void;
}
