import type { Server as SocketIOServer } from 'socket.io';
import { z } from 'zod/mini';
import type { Clock } from '../clock';

/** How long a view waits for the other instances (one that does not answer is left out). */
export const INSTANCE_VIEWS_TIMEOUT_MS = 1_000;

/**
 * A console view gathered from every instance (several instances behind a load balancer: the
 * instance the console asks rarely holds what it shows): this instance answers `event` with its own
 * rows, and `gather()` asks the others, checks each answer like any input, and puts their rows
 * after its own — a row whose key this instance has wins. With one instance it is just `here()`.
 */
export function instanceViews<T>(options: {
  readonly io: SocketIOServer;
  readonly event: string;
  readonly distributed: boolean;
  readonly clock: Clock;
  readonly row: z.ZodMiniType<T>;
  readonly key: (row: T) => string | number;
  readonly here: () => T[];
}): () => Promise<T[]> {
  const { io, event } = options;
  io.on(event, (_message: unknown, ack: unknown) => {
    if (typeof ack === 'function') (ack as (rows: T[]) => void)(options.here());
  });
  const rows = z.array(options.row);
  return async () => {
    const mine = options.here();
    if (!options.distributed) return mine;
    // The adapter's own timeout (5 s) is too long for a console read every 2 s.
    let timer: { cancel(): void } | null = null;
    const answers: unknown[] = await Promise.race([
      io.serverSideEmitWithAck(event, null).catch(() => []),
      new Promise<unknown[]>(
        (resolve) => (timer = options.clock.setTimeout(() => resolve([]), INSTANCE_VIEWS_TIMEOUT_MS)),
      ),
    ]);
    (timer as { cancel(): void } | null)?.cancel();
    const seen = new Set(mine.map(options.key));
    for (const answer of answers) {
      const parsed = rows.safeParse(answer);
      if (!parsed.success) continue;
      for (const row of parsed.data) {
        if (seen.has(options.key(row))) continue;
        seen.add(options.key(row));
        mine.push(row);
      }
    }
    return mine;
  };
}
