import type { DeclaredRoute } from '../http/route';
import type { ServerMetrics } from '../metrics/server-metrics';
import type { FastifyInstance } from 'fastify';
import type { Server as SocketIOServer } from 'socket.io';
import type { Clock } from '../clock';
import type { ServerConfig } from '../config';
import type { RenderedPageCache } from '../http/page-cache';
import type { PageRendererFactory } from '../http/pages';
import type { RateLimits } from '../http/rate-limit';
import type { RenderLimits } from '../http/render-budget';
import type { KujiBoxStore } from '../kuji/kuji-box-store';
import type { SignalingTimings } from '../live/signaling';
import type { AgentBounds } from '../agent/agent-gateway';
import type { PlayStore } from '../play/rooms/play-ports';
import type { RoomHost } from '../rooms/room-host';
import type { Services } from '../services';
import type { Store } from '../store/store';

export interface ServerOptions {
  /** The clock every service reads and schedules with (default: the machine's); tests pass a manual one. */
  readonly clock?: Clock;
  readonly logger?: boolean;
  /** Where the log lines go instead of stdout (tests read a run's logs). */
  readonly logStream?: { write(line: string): void };
  /** Start the store as a copy of this dump (a migrated, seeded store; tests use one per run). */
  readonly template?: Blob;
  /** Per-client limits on sign-up, login, code sending and purchase; 'unlimited' only for tests. */
  readonly rateLimits?: RateLimits | 'unlimited';
  /** How many pages a client may have rendered, and how many renders run at once (over them: the shell). */
  readonly renderLimits?: RenderLimits;
  /** How long a client may take; the defaults (DEFAULT_TIMEOUTS) suit production, tests shorten them. */
  readonly timeouts?: Partial<Timeouts>;
  /** Where each play's seed comes from (default: crypto random); tests pin it to make plays repeatable. */
  readonly playSeeds?: () => number;
  /** The live feed's signaling deadlines (connect, answer, ping); tests shorten them. */
  readonly signalingTimings?: Partial<SignalingTimings>;
  /**
   * The clock of the signaling deadlines and pings alone (default: `clock`). Tests give it a manual
   * clock, so that a deadline falls when the test says, not when a loaded machine is slow, while the
   * video itself runs in real time.
   */
  readonly signalingClock?: Clock;
  /** The agent protocol's bounds (heartbeat, silence, …); tests shorten them. */
  readonly agentBounds?: Partial<AgentBounds>;
  /** Wraps the station rooms' store (tests inject a slow or failing write). */
  readonly playStore?: (store: PlayStore) => PlayStore;
  /** Wraps the kuji box rooms' store (tests inject a slow or failing write). */
  readonly kujiStore?: (store: KujiBoxStore) => KujiBoxStore;
  /**
   * Renders each page on the server with its data (the app's server composition root; server/main.ts
   * passes it). Without it, every page is the app's empty shell and the browser renders it.
   */
  readonly renderPages?: PageRendererFactory;
  /**
   * When this instance loses its locks while running rooms (on PostgreSQL): by default the process
   * ends (fail-stop: a supervisor starts it again, as a standby). Tests observe it.
   */
  readonly onHostLost?: (error: unknown) => void;
  /** How often a standby instance tries for the leader lock (default 2 s). */
  readonly hostRetryMs?: number;
}

/** Time limits on a client's connection and request (docs/security.md). */
export interface Timeouts {
  /** The whole request, headers and body, must arrive within this (else 408 and the socket closes). */
  readonly requestMs: number;
  /** The headers must arrive within this (at most requestMs). */
  readonly headersMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveMs: number;
  /** A socket with no traffic at all is destroyed after this. */
  readonly connectionMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 10_000,
  connectionMs: 60_000,
};

/**
 * What the server's parts share (server/composition/): built once by createOnkureServer and
 * handed to each plugin. The store and the services appear once they exist.
 */
export interface ServerParts {
  readonly app: FastifyInstance;
  readonly config: ServerConfig;
  readonly options: ServerOptions;
  readonly clock: Clock;
  readonly io: SocketIOServer;
  readonly roomHost: RoomHost;
  /** Rendered pages, kept per address until the data behind them changes (docs/server-rendering.md). */
  readonly pages: RenderedPageCache;
  /** The instance's metrics (docs/operations.md). */
  readonly metrics: ServerMetrics;
  /** The store once it is open, migrated and seeded (null before). */
  readonly store: () => Store | null;
  /** Why the store could not start, if it could not. */
  readonly storeFailed: () => boolean;
  /** Resolves once the store is ready (rejects when it failed). */
  readonly ready: Promise<void>;
  /** The services once the API is registered (null before). */
  services: Services | null;
  /** Resolves once the rooms are resumed (this instance's; none on a standby yet). */
  recovered: Promise<void> | null;
  /** The API's calls as declared (filled once the API plugin has registered them). */
  routes: readonly DeclaredRoute[];
  /** The leader's start (rooms resumed, sweeps running), once this instance leads. */
  hostWork: Promise<void>;
  /** Called once this instance leads. */
  readonly markHosting: () => void;
}
