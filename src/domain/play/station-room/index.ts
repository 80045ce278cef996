/** A station room's rules: one pure state machine per station (docs/play.md, "Station rooms"). */
export * from './room.types';
export { transition, stationReply } from './transition';
export { restoreRoom } from './restore';
export { nextWakeup, roomPlayView, roomUsers, holderOf, playIdOf } from './room-view';
export { stationPlayable, placeInLine, machineReady } from './room-line';
export { initialField, refilledField } from './room-play';
