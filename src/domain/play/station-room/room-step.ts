import type { RoomAnswer, RoomRefusal, StationRoomState } from './room.types';

/** A step's new state and its answer (its effects are pushed onto the step's list as it goes). */
export interface Stepped {
  readonly state: StationRoomState;
  readonly answer: RoomAnswer;
}

export const OK: RoomAnswer = { kind: 'ok' };
export const PLAY: RoomAnswer = { kind: 'play' };
export const refused = (refusal: RoomRefusal): RoomAnswer => ({ kind: 'refused', refusal });
