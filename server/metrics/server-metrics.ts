import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One sample of a gauge read when Prometheus scrapes (a station's line, its viewers…). */
export interface GaugeSample<L extends string> {
  readonly labels: Readonly<Record<L, string | number>>;
  readonly value: number;
}

/** The provider callbacks' outcomes (onkure_provider_callbacks_total{outcome}). */
export const PROVIDER_CALLBACK_OUTCOMES = ['applied', 'refused', 'bad_signature', 'error'] as const;
/** A play's currencies and results (onkure_station_plays_total{currency}, onkure_station_results_total{result}). */
const PLAY_CURRENCIES = ['tc', 'free', 'ticket'] as const;
const PLAY_RESULTS = ['win', 'miss'] as const;

/** Seconds: HTTP answers, store queries (most in ms, the slow tail in seconds). */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a push's way to the sockets (local: sub-ms; between instances: PostgreSQL's NOTIFY). */
const PUSH_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The instance's metrics in Prometheus' format (docs/operations.md "Metrics"). One registry per
 * server (tests run many in one process), every series labelled with the instance's id. Counters
 * count what this instance did; gauges describe what this instance holds (the stations it runs,
 * the agents and sockets connected to it), so a sum over instances is the service's number and a
 * station is reported by exactly one instance.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private defaultsOn = false;

  // ---- HTTP (RED) --------------------------------------------------------------------------------
  readonly httpRequests = new Counter({
    name: 'onkure_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'onkure_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method and route template.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  // ---- real time ---------------------------------------------------------------------------------
  readonly pushes = new Counter({
    name: 'onkure_pushes_total',
    help: 'Pushes sent to socket channels, by event.',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });
  readonly pushLatency = new Histogram({
    name: 'onkure_push_latency_seconds',
    help: 'A push from the instance that sends it to the sockets: local (this instance) or cluster (half a probe round trip through the adapter).',
    labelNames: ['hop'] as const,
    buckets: PUSH_BUCKETS,
    registers: [this.registry],
  });
  readonly pushProbeFailures = new Counter({
    name: 'onkure_push_probe_failures_total',
    help: 'Probes between instances that got no answer in time.',
    registers: [this.registry],
  });

  // ---- stations ----------------------------------------------------------------------------------
  readonly plays = new Counter({
    name: 'onkure_station_plays_total',
    help: 'Plays started (charged) on the stations this instance runs, by station and currency.',
    labelNames: ['station_id', 'currency'] as const,
    registers: [this.registry],
  });
  readonly results = new Counter({
    name: 'onkure_station_results_total',
    help: 'Play results on the stations this instance runs, by station and result (win, miss).',
    labelNames: ['station_id', 'result'] as const,
    registers: [this.registry],
  });
  readonly refunds = new Counter({
    name: 'onkure_station_refunds_total',
    help: 'Plays refunded (stopped unfinished), by station.',
    labelNames: ['station_id'] as const,
    registers: [this.registry],
  });

  // ---- money -------------------------------------------------------------------------------------
  readonly tcCharged = new Counter({
    name: 'onkure_tc_charged_total',
    help: 'TC taken from players, by what for (play, delivery_fee) and currency (paid or free TC, tickets).',
    labelNames: ['kind', 'currency'] as const,
    registers: [this.registry],
  });
  readonly tcRefunded = new Counter({
    name: 'onkure_tc_refunded_total',
    help: 'TC given back to players, by what for (play, delivery_fee).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly settlements = new Counter({
    name: 'onkure_settlements_total',
    help: 'Settlements of TC purchases by the status they reached (pending, paid, failed, cancelled).',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly providerCallbacks = new Counter({
    name: 'onkure_provider_callbacks_total',
    help: "The payment provider's callbacks by outcome (applied, refused, bad_signature, error).",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly deliveryRequests = new Counter({
    name: 'onkure_delivery_requests_total',
    help: 'Delivery requests written by players (their fee TC is in onkure_tc_charged_total{kind="delivery_fee"}).',
    registers: [this.registry],
  });

  // ---- the store ---------------------------------------------------------------------------------
  readonly storeDuration = new Histogram({
    name: 'onkure_store_query_duration_seconds',
    help: "The store's statements and transactions, by kind (query, transaction) and outcome (ok, error).",
    labelNames: ['kind', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor(readonly instanceId: string) {
    this.registry.setDefaultLabels({ instance_id: instanceId });
    new Gauge({
      name: 'onkure_instance_info',
      help: 'Always 1: the instance and the version it runs.',
      labelNames: ['version', 'node'] as const,
      registers: [this.registry],
    })
      .labels({ version: process.env.npm_package_version ?? 'unknown', node: process.versions.node })
      .set(1);
    // Every outcome's series exists from the start at 0: a counter series born at its first
    // increment hides that increment from increase() and rate() (Prometheus has no earlier sample),
    // so the first bad callbacks after a start would not count toward their alert.
    for (const outcome of PROVIDER_CALLBACK_OUTCOMES) this.providerCallbacks.inc({ outcome }, 0);
  }

  /**
   * A station's counters at 0 once this instance runs its room, for the same reason: the first
   * refund (or play, or result) of each station after a start would otherwise be invisible to
   * increase(), and an agent dying under a dozen stations refunds one play on each.
   */
  stationRunning(stationId: number): void {
    const station_id = String(stationId);
    this.refunds.inc({ station_id }, 0);
    for (const currency of PLAY_CURRENCIES) this.plays.inc({ station_id, currency }, 0);
    for (const result of PLAY_RESULTS) this.results.inc({ station_id, result }, 0);
  }

  /**
   * A gauge read at each scrape; its samples replace the last scrape's (a station gone is gone),
   * and no sample is no series: prom-client would export an unlabelled gauge it was not given as 0,
   * so a standby, which knows no reconciliation, said the last one ran in 1970 (issue 46).
   */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => readonly GaugeSample<L>[] | Promise<readonly GaugeSample<L>[]>,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        const samples = await read();
        if (samples.length === 0 && labelNames.length === 0) this.remove({} as Partial<Record<L, string | number>>);
        for (const sample of samples) this.set(sample.labels as Record<L, string | number>, sample.value);
      },
    });
  }

  /** The exposition text. The process' own metrics (CPU, memory, event loop, GC) start with the first scrape. */
  async text(): Promise<string> {
    if (!this.defaultsOn) {
      this.defaultsOn = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
