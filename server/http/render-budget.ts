import type { Clock } from '../clock';

/** How many pages one client may have rendered, and how many renders may run at once. */
export interface RenderLimits {
  /** Renders per client (request IP) in a window. */
  readonly perClient: number;
  readonly windowMs: number;
  /** Renders running at once, for everyone. */
  readonly inFlight: number;
}

/**
 * A render costs about 60 ms of the event loop (five in-process API calls and React's render;
 * docs/performance.md), and every new address renders anew: a script asking for `/?x=1`, `/?x=2`…
 * would hold the server's one thread. Generous for a person (a page load is one render; moving
 * inside the app renders nothing on the server), far below a script's pace.
 */
export const DEFAULT_RENDER_LIMITS: RenderLimits = { perClient: 30, windowMs: 10_000, inFlight: 4 };

/**
 * Who gets a server-rendered page. Over the limits, the answer is the app's shell instead: the
 * page still works (the browser renders it), it just arrives without its first paint from the
 * server. An attempt is counted before the render starts, so concurrent requests cannot pass the
 * limit together.
 */
export class RenderBudget {
  private readonly clients = new Map<string, { count: number; until: number }>();
  private running = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limits: RenderLimits = DEFAULT_RENDER_LIMITS,
  ) {}

  /** Takes one render for `client`: true when it may render now (then call `release` when done). */
  take(client: string): boolean {
    const now = this.clock.now().getTime();
    if (this.clients.size > 10_000)
      for (const [key, entry] of this.clients) if (entry.until <= now) this.clients.delete(key);
    let entry = this.clients.get(client);
    if (!entry || entry.until <= now) {
      entry = { count: 0, until: now + this.limits.windowMs };
      this.clients.set(client, entry);
    }
    entry.count += 1;
    if (entry.count > this.limits.perClient || this.running >= this.limits.inFlight) return false;
    this.running += 1;
    return true;
  }

  release(): void {
    this.running = Math.max(0, this.running - 1);
  }
}
