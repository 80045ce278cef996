import type { Server as SocketIOServer } from 'socket.io';
import type { ServerMetrics } from './server-metrics';

/** The instances' server-side event a probe is sent as; every instance answers it at once. */
export const PUSH_PROBE = 'onkure:push-probe';
/** How often an instance probes the others (the adapter waits 5 s for their answers). */
export const PUSH_PROBE_MS = { every: 5_000 } as const;

/**
 * Counts and times the pushes this instance sends (docs/operations.md "Metrics"). Every emit to a
 * channel goes through the namespace adapter's `broadcast` (the in-memory one, or the PostgreSQL
 * adapter that also publishes it to the others), so that one method is wrapped: the push's event
 * is counted and the time to hand it to the local sockets and the adapter observed (hop "local").
 * The adapter delivers the other instances' pushes through its parent's broadcast, not this one:
 * each push is counted once, by its sender.
 *
 * Between instances (several on PostgreSQL) a push waits for NOTIFY and LISTEN. That hop is
 * measured by a probe every 5 s through the same adapter: a server-side event every other instance
 * answers at once; half its round trip is observed (hop "cluster"), measured on this instance's
 * own clock (no clock skew between machines). No answer in time counts a probe failure.
 */
export function meterPushes(io: SocketIOServer, metrics: ServerMetrics, distributed: boolean): { stop(): void } {
  const adapter = io.of('/').adapter;
  const broadcast = adapter.broadcast.bind(adapter);
  adapter.broadcast = (packet, options) => {
    const started = process.hrtime.bigint();
    const result = broadcast(packet, options);
    metrics.pushLatency.observe({ hop: 'local' }, Number(process.hrtime.bigint() - started) / 1e9);
    const event: unknown = Array.isArray(packet.data) ? packet.data[0] : undefined;
    metrics.pushes.inc({ event: typeof event === 'string' ? event : 'other' });
    return result;
  };
  io.on(PUSH_PROBE, (answer: unknown) => {
    if (typeof answer === 'function') (answer as (reply: string) => void)('ok');
  });
  if (!distributed) return { stop: () => undefined };
  let waiting = false;
  const timer = setInterval(() => {
    if (waiting) return;
    waiting = true;
    const started = process.hrtime.bigint();
    // The adapter answers with what came within its own wait (5 s): fewer answers than
    // instances is a rejection.
    io.serverSideEmitWithAck(PUSH_PROBE).then(
      (answers: unknown[]) => {
        waiting = false;
        if (answers.length > 0)
          metrics.pushLatency.observe({ hop: 'cluster' }, Number(process.hrtime.bigint() - started) / 2e9);
      },
      () => {
        waiting = false;
        metrics.pushProbeFailures.inc();
      },
    );
  }, PUSH_PROBE_MS.every);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
