import type { PlayStore } from '../play/rooms/play-ports';
import type { ServerMetrics } from './server-metrics';

/**
 * The station rooms' store, counted for the metrics once each write has landed (a refused or failed
 * write counts nothing): plays started and what they charged, results and refunds. (A station's faults are a gauge,
 * `onkure_station_in_fault`: the room holds them, the store does not.)
 */
export function meteredPlayStore(inner: PlayStore, metrics: ServerMetrics): PlayStore {
  return {
    loadRooms: (ids) => inner.loadRooms(ids),
    addToLine: (stationId, userId) => inner.addToLine(stationId, userId),
    nickname: (userId) => inner.nickname(userId),
    async startPlay(stationId, start, seed) {
      const started = await inner.startPlay(stationId, start, seed);
      metrics.plays.inc({ station_id: stationId, currency: started.currency });
      if (started.charged.toll > 0) metrics.tcCharged.inc({ kind: 'play', currency: 'paid' }, started.charged.toll);
      if (started.charged.free > 0) metrics.tcCharged.inc({ kind: 'play', currency: 'free' }, started.charged.free);
      if (started.currency === 'ticket') metrics.tcCharged.inc({ kind: 'play', currency: 'ticket' }, 1);
      return started;
    },
    async commit(stationId, writes) {
      await inner.commit(stationId, writes);
      for (const write of writes) {
        if (write.kind === 'recordResult') metrics.results.inc({ station_id: stationId, result: write.result });
        else if (write.kind === 'refund') {
          metrics.refunds.inc({ station_id: stationId });
          const tc = write.charged.toll + write.charged.free;
          if (tc > 0) metrics.tcRefunded.inc({ kind: 'play' }, tc);
        }
      }
    },
  };
}
