import type { Services } from '../services';
import { roomId } from '../rooms/room-ownership';
import { STATIONS_MOVED } from '../services';
import type { ServerParts } from './server-parts';

/** The station a room id names, or null for a room of another kind. */
const stationOf = (id: string): number | null =>
  id.startsWith('station:') && id === roomId('station', Number(id.slice(8))) ? Number(id.slice(8)) : null;

/** A host that lost its locks must not run rooms a moment longer: the process ends. */
function exitOnHostLost(error: unknown): void {
  console.error('onkure: lost the room locks; exiting so that a supervisor restarts this instance', error);
  process.exit(1);
}

/**
 * Starts this instance's part of the rooms and the leader's work, once the store is ready
 * (docs/deployment.md, R10-8). With the embedded store this instance runs everything. On
 * PostgreSQL each room (a station, a kuji box) runs on the instance holding its lock, the rooms
 * spread over the live instances; the leader — the instance holding the host lock — runs the
 * deadline sweeps; when an instance dies the others take its part over. Resolves once this
 * instance's rooms are resumed (at once on a standby).
 */
export function startRooms(parts: ServerParts, services: Services): Promise<void> {
  const { app, roomHost, options } = parts;
  // Stations taken before the server listened are recorded once its address is known.
  app.server.once('listening', () => {
    if (!roomHost.distributed) return;
    void (async () => {
      for (const stationId of services.rooms.running('station')) await services.feedOwners.record(stationId);
    })().catch((error: unknown) => app.log.error({ err: error }, 'could not record the stations run here'));
  });
  return parts.ready.then(async () => {
    roomHost.start({
      adopt: async (id) => {
        if (!(await services.rooms.adopt(id))) return false;
        const stationId = stationOf(id);
        // The others forward this station's feed here from now on (a failed write only leaves the
        // feed drawn from the stored field elsewhere until the next owner writes it).
        if (stationId !== null)
          await services.feedOwners
            .record(stationId)
            .catch((error: unknown) => app.log.error({ err: error }, 'could not record a station run here'));
        return true;
      },
      release: async (id) => {
        if (!(await services.rooms.release(id))) return false;
        // Its viewers reconnect and are forwarded to the station's next instance.
        const stationId = stationOf(id);
        if (stationId !== null) services.signaling.drop(stationId);
        return true;
      },
      gaveBack: () => parts.io.serverSideEmit(STATIONS_MOVED),
      lead: () => {
        app.log.info('this instance now leads (the sweeps)');
        parts.hostWork = (async () => {
          // The only instance runs every room: each resumed from the store (a kuji box on sale gets
          // its ticket order; what fell due while the server was down is done).
          if (!roomHost.distributed) await services.rooms.start();
          // Pending settlements past their expiry close; the provider's callbacks not yet taken go out again.
          services.purchases.start();
          // Prizes whose storage notices or end came while the server was down are handled now [R10-5].
          services.prizeStorage.start();
          // Free TC lots whose notices or end came while the server was down are handled now [R11-7].
          services.freeTcExpiry.start();
          // Visits of players who left while no instance saw them go (a killed instance) end.
          services.visitSweep.start();
          // Clips past their 30 days, over the folder's cap, or left by a dead instance are removed.
          services.clips.start();
          // Yesterday's money is reconciled at 00:30 JST (at once if it never was).
          services.reconciliation.start();
        })();
        // Hosting once the sweeps run and this instance took its first share of the rooms.
        Promise.all([parts.hostWork, roomHost.settled()]).then(parts.markHosting, () => undefined);
        return parts.hostWork;
      },
      lost: (error) => {
        app.log.error({ err: error }, 'lost the room locks: stopping the rooms');
        void services.rooms.close();
        services.purchases.stop();
        services.prizeStorage.stop();
        services.freeTcExpiry.stop();
        services.visitSweep.stop();
        services.clips.stop();
        services.reconciliation.stop();
        (options.onHostLost ?? exitOnHostLost)(error);
      },
    });
    // The only instance (the embedded store) serves no request before its rooms are resumed.
    if (!roomHost.distributed) await parts.hostWork;
  });
}
