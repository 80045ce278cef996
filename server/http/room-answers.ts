import { PLAY_ERROR } from '../../src/contract';
import type {
  KujiBoxAnswer,
  KujiBoxRefusal,
  OperatorEvent,
  RoomRefusal,
  RoomReply,
  StationRequest,
} from '../../src/domain';

/** The operator's other events at a station: the machine's controls (docs/agent-protocol.md), a staff assist's answer [R11-9]. */
type MachineOperatorEvent = Extract<
  StationRequest,
  { type: 'emergencyStop' | 'resumeMachine' | 'homeMachine' | 'setDriver' | 'answerAssist' }
>;
import type { Rooms } from '../rooms/kinds';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import { RoomNotFound, RoomUnavailable } from '../rooms/room-registry';

/** Each station room refusal as the player reads it: an HTTP status, the error_code and a Japanese error_info. */
export function stationRefusal(refusal: RoomRefusal, stationId: number | null): Refusal {
  switch (refusal) {
    case 'notYourTurn':
      return new Refusal(409, 409, SERVER_MESSAGES.notYourTurn);
    case 'notYourPlay':
      return new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
    case 'buttonNotReady':
      return new Refusal(409, 409, SERVER_MESSAGES.buttonNotReady);
    case 'continueClosed':
      return new Refusal(409, 409, SERVER_MESSAGES.continueClosed);
    case 'playingNow':
      return new Refusal(409, 409, SERVER_MESSAGES.stationPlayingNow);
    case 'stationMaintenance':
      return new Refusal(
        200,
        PLAY_ERROR.maintenance.code,
        PLAY_ERROR.maintenance.info,
        stationId === null ? {} : { station_id: stationId },
      );
    case 'prizeChanging':
      return new Refusal(409, 409, SERVER_MESSAGES.stationPrizeChange);
    case 'soldOut':
      return new Refusal(409, 409, SERVER_MESSAGES.stationSoldOut);
    case 'alreadyInLine':
      return new Refusal(409, 409, SERVER_MESSAGES.alreadyReservedHere);
    case 'reservationNotFound':
      return new Refusal(404, 404, SERVER_MESSAGES.reservationNotFound);
    case 'stationPaused':
      return new Refusal(409, 409, SERVER_MESSAGES.stationPaused);
    case 'noPlay':
      return new Refusal(409, 409, SERVER_MESSAGES.stationNoPlay);
    case 'stationNotFound':
      return new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
    case 'machineDown':
      return new Refusal(409, 409, SERVER_MESSAGES.machineDown);
    case 'machineBusy':
      return new Refusal(409, 409, SERVER_MESSAGES.machineBusy);
    case 'assistNotAvailable':
      return new Refusal(409, 409, SERVER_MESSAGES.assistNotAvailable);
    case 'assistPending':
      return new Refusal(409, 409, SERVER_MESSAGES.assistPending);
    case 'noAssist':
      return new Refusal(409, 409, SERVER_MESSAGES.noAssist);
  }
}

/** What a room's caller hears when the registry could not reach the room: none such (404), or not now (503). */
export function roomFailure(error: unknown): Refusal | null {
  if (error instanceof RoomNotFound)
    return new Refusal(
      404,
      404,
      error.kind === 'kuji' ? SERVER_MESSAGES.kujiNotFound : SERVER_MESSAGES.stationNotFound,
    );
  if (error instanceof RoomUnavailable) return new Refusal(503, 503, SERVER_MESSAGES.stationOnAnotherInstance);
  return null;
}

/** A station room's reply that is not a refusal. */
export type StationAnswer = Exclude<RoomReply, { readonly kind: 'refused' }>;

/**
 * The reply of a station room's event, or its refusal thrown as the player reads it (so that the
 * route answers it); the registry's own failures too. A null reply (the caller has no place in any
 * room) is passed on for the call to say what that means. `stationId`: the room's, when the event
 * was sent to a station (not to a user's place).
 */
export async function atStation<R extends RoomReply | null>(
  stationId: number | null,
  reply: Promise<R>,
): Promise<Exclude<R, { readonly kind: 'refused' }>> {
  let answer: R;
  try {
    answer = await reply;
  } catch (error) {
    throw roomFailure(error) ?? error;
  }
  if (answer !== null && answer.kind === 'refused') throw stationRefusal(answer.refusal, stationId);
  return answer as Exclude<R, { readonly kind: 'refused' }>;
}

/** The reply of a kind, narrowed to the answer the call expects (a room answering another kind is a fault). */
export function expectReply<K extends StationAnswer['kind']>(
  answer: StationAnswer,
  kind: K,
): Extract<StationAnswer, { readonly kind: K }> {
  if (answer.kind !== kind) throw new Error(`a station room answered ${answer.kind} where ${kind} was expected`);
  return answer as Extract<StationAnswer, { readonly kind: K }>;
}

/**
 * An operator's event for a station (its status, stock, strength, prize, a play or a place ended,
 * a pause): the play it stopped and refunded, if any; its refusal thrown as the operator reads it.
 */
export async function operateStation(
  rooms: Rooms,
  stationId: number,
  event: OperatorEvent | MachineOperatorEvent,
): Promise<{ refunded_play_id: number | null; settings_pending: boolean }> {
  const answer = await atStation(stationId, rooms.send('station', stationId, event));
  return answer.kind === 'operator'
    ? { refunded_play_id: answer.refundedPlayId, settings_pending: answer.pending === true }
    : { refunded_play_id: null, settings_pending: false };
}

/** Each kuji box room refusal as the player (or the operator) reads it; `notActive` is the caller's to tell apart. */
export function kujiRefusal(refusal: Exclude<KujiBoxRefusal, 'notActive'>, remaining = 0): Refusal {
  switch (refusal) {
    case 'notFound':
      return new Refusal(404, 404, SERVER_MESSAGES.kujiNotFound);
    case 'outOfPeriod':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiOutOfPeriod);
    case 'notOnSale':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiBoxNotOnSale);
    case 'empty':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiBoxEmpty);
    case 'alreadyReserved':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiAlreadyReserved);
    case 'notYourTurn':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiNotYourTurn);
    case 'reservationEnded':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiReservationEnded);
    case 'notEnoughTickets':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiNotEnoughTickets(remaining));
    case 'drawTooLarge':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiDrawTooLarge);
    case 'stockFixed':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiStockFixed);
    case 'seedPublished':
      return new Refusal(409, 409, SERVER_MESSAGES.kujiSeedPublished);
  }
}

/**
 * The reply of a kuji box room's event, or its refusal thrown as the caller reads it; the
 * registry's own failures too. A reservation the box does not hold active is told apart by
 * `notActive` (unknown: 404, ended: 409).
 */
export async function atKuji(
  reply: Promise<KujiBoxAnswer>,
  notActive: () => Promise<Refusal> = async () => kujiRefusal('reservationEnded'),
): Promise<Exclude<KujiBoxAnswer, { readonly kind: 'refused' }>> {
  let answer: KujiBoxAnswer;
  try {
    answer = await reply;
  } catch (error) {
    throw roomFailure(error) ?? error;
  }
  if (answer.kind !== 'refused') return answer;
  if (answer.refusal === 'notActive') throw await notActive();
  throw kujiRefusal(answer.refusal, answer.remaining);
}
