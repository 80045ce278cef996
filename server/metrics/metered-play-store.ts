import type { EventLog } from '../logging/log-context';
import type { PlayStore } from '../play/rooms/play-ports';
import type { ServerMetrics } from './server-metrics';

/**
 * The station rooms' store, observed once each write has landed (a refused or failed write counts
 * and logs nothing): plays started and what they charged, results and refunds, counted for the
 * metrics and logged as events (with the request that set them off, docs/operations.md). A
 * station's faults are a gauge, `onkure_station_in_fault`: the room holds them, the store does not.
 */
export function meteredPlayStore(inner: PlayStore, metrics: ServerMetrics | null, events: EventLog | null): PlayStore {
  return {
    async loadRooms(ids) {
      const rooms = await inner.loadRooms(ids);
      for (const room of rooms) metrics?.stationRunning(room.station.stationId);
      return rooms;
    },
    addToLine: (stationId, userId) => inner.addToLine(stationId, userId),
    nickname: (userId) => inner.nickname(userId),
    async startPlay(stationId, start, seed) {
      const started = await inner.startPlay(stationId, start, seed);
      events?.info(
        {
          stationId,
          playId: started.playId,
          userId: started.userId,
          currency: started.currency,
          price: started.price,
          charged: started.charged,
        },
        'play started',
      );
      if (metrics) {
        metrics.plays.inc({ station_id: stationId, currency: started.currency });
        if (started.charged.toll > 0) metrics.tcCharged.inc({ kind: 'play', currency: 'paid' }, started.charged.toll);
        if (started.charged.free > 0) metrics.tcCharged.inc({ kind: 'play', currency: 'free' }, started.charged.free);
        if (started.currency === 'ticket') metrics.tcCharged.inc({ kind: 'play', currency: 'ticket' }, 1);
      }
      return started;
    },
    async commit(stationId, writes) {
      await inner.commit(stationId, writes);
      for (const write of writes) {
        if (write.kind === 'recordResult') {
          events?.info({ stationId, playId: write.playId, userId: write.userId, result: write.result }, 'play result');
          metrics?.results.inc({ station_id: stationId, result: write.result });
        } else if (write.kind === 'refund') {
          events?.info(
            { stationId, playId: write.playId, userId: write.userId, charged: write.charged },
            'play refunded',
          );
          metrics?.refunds.inc({ station_id: stationId });
          const tc = write.charged.toll + write.charged.free;
          if (tc > 0) metrics?.tcRefunded.inc({ kind: 'play' }, tc);
        }
      }
    },
  };
}
