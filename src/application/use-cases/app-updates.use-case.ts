import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import { BUILD_MANIFEST_CHECK_MS, isNewBuild, reloadAllowed } from '../../domain';
import type { BuildManifestPort, ReloadMarkPort } from '../ports/app-update.port';
import type { ClockPort, ScheduledTask } from '../ports/clock.port';
import type { NavigatorPort } from '../ports/navigator.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface AppUpdateState {
  /** The build this page runs ('' until started). */
  readonly running: string;
  /** The server serves another build: the next navigation loads it. */
  readonly newBuild: boolean;
}

/**
 * Keeps a long-open page on the build the server serves [R9-13]: the build manifest is read every
 * hour (BUILD_MANIFEST_CHECK_MS); once it names another build, the next navigation inside the app
 * becomes a full page load, so the player gets the new build between pages and never in the middle
 * of one (a play, a payment). A page whose code chunk cannot load (it was deployed away) reloads at
 * once. Either reload is skipped within 10 s of the last one (RELOAD_GUARD_MS), so it never loops.
 * App-lifetime: one per container.
 */
@injectable()
export class AppUpdates extends StateStore<AppUpdateState> {
  private timer: ScheduledTask | null = null;

  constructor(
    @inject(TOKENS.BuildManifestPort) private readonly manifest: BuildManifestPort,
    @inject(TOKENS.ReloadMarkPort) private readonly marks: ReloadMarkPort,
    @inject(TOKENS.NavigatorPort) private readonly navigator: NavigatorPort,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
  ) {
    super({ running: '', newBuild: false });
    this.own(() => this.timer?.cancel());
  }

  /** Starts the hourly check for the build `running` (its id as the manifest names it). */
  start(running: string): void {
    if (this.disposed || this.snapshot.running !== '') return;
    this.setState({ running, newBuild: false });
    this.schedule();
  }

  /**
   * The app moved to `path` inside the page: when a new build is served, loads `path` from the
   * server instead (a full page load of the new build). True when it did.
   */
  navigated(path: string): boolean {
    if (!this.snapshot.newBuild || !this.mayReload()) return false;
    this.navigator.goTo(path);
    return true;
  }

  /** A code chunk failed to load (a new build replaced it): reloads the page, unless it just did. */
  chunkFailed(): boolean {
    if (!this.mayReload()) return false;
    this.navigator.reload();
    return true;
  }

  private mayReload(): boolean {
    const now = this.clock.now();
    if (!reloadAllowed(now, this.marks.lastReloadAt())) return false;
    this.marks.markReload(now);
    return true;
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => void this.check(), BUILD_MANIFEST_CHECK_MS);
  }

  private async check(): Promise<void> {
    if (this.disposed) return;
    let served: string | null = null;
    try {
      served = await firstValueFrom(this.manifest.servedBuild().pipe(this.untilDisposed()), { defaultValue: null });
    } catch {
      served = null;
    }
    if (this.disposed) return;
    if (isNewBuild(this.snapshot.running, served)) this.setState((s) => ({ ...s, newBuild: true }));
    else this.schedule();
  }
}
