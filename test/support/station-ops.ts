import { roomPlayView, type OperatorEvent, type PlayView, type StationStatus } from '../../src/domain';
import type { OnkureServer } from '../../server/app';
import { operateStation } from '../../server/http/room-answers';

/**
 * What the operator routes and the realtime hub do to a station's room, for tests that set a
 * station up without the HTTP round trip: the same events through the same edge (refusals thrown
 * as the routes throw them).
 */
export function stationOps(server: OnkureServer) {
  const rooms = () => server.services().rooms;
  const operate = (stationId: number, event: OperatorEvent) => operateStation(rooms(), stationId, event);
  return {
    operate,
    setStatus: (stationId: number, status: StationStatus) => operate(stationId, { type: 'setStatus', status }),
    /** A fault on the machine (the operator's /operator/fault). */
    fault: (stationId: number) => operate(stationId, { type: 'setStatus', status: 'malfunction' }),
    setArmStrength: (stationId: number, armStrength: number) =>
      operate(stationId, { type: 'setArmStrength', armStrength }),
    /** The player's last connection closed (what the realtime hub tells the room). */
    away: (userId: number) => rooms().sendToUser('station', userId, { type: 'away', userId }),
    /** The play on a station's machine now, from the room running here (null: none, or not here). */
    playOn: (stationId: number): PlayView | null => {
      const state = rooms().peek('station', stationId);
      return state ? roomPlayView(state, server.services().clock.now().getTime()) : null;
    },
  };
}
