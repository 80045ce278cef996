import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';

interface Update {
  readonly maintenance?: { readonly station_id: number; readonly station_status: string };
}

/**
 * Times an operator's status change of a station to every socket on the `top` channel (bench:cluster,
 * the soak's push probe): `change` makes the call once every socket listens; the answer is, per
 * socket, the milliseconds from the call to its `update` naming that station and status, or null
 * when none came within `timeoutMs`.
 */
export async function timeStatusPush(
  sockets: readonly Socket[],
  stationId: number,
  status: string,
  change: () => Promise<unknown>,
  timeoutMs: number,
): Promise<(number | null)[]> {
  let started = 0;
  const arrived = sockets.map(
    (socket) =>
      new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          socket.off('update', onUpdate);
          resolve(null);
        }, timeoutMs);
        const onUpdate = (u: Update) => {
          if (u.maintenance?.station_id !== stationId || u.maintenance.station_status !== status) return;
          clearTimeout(timer);
          socket.off('update', onUpdate);
          resolve(performance.now() - started);
        };
        socket.on('update', onUpdate);
      }),
  );
  started = performance.now();
  await change();
  return Promise.all(arrived);
}
