import { z } from 'zod/mini';
import type { Server as SocketIOServer } from 'socket.io';
import { Refusal } from '../play/refusal';
import {
  NOT_HERE,
  RelayRefused,
  type AnyRoomKind,
  type RoomAddress,
  type RoomRegistry,
  type RoomRelay,
} from './room-registry';

/** The instances' event for a room event sent on another instance (server-side, never a client's). */
export const ROOM_RELAY = 'onkure:room';

/** Each instance's answer to a relayed event: only the one it is for carries one. */
export type RelayAnswer =
  | { readonly owner: false }
  | { readonly owner: true; readonly reply: unknown }
  | { readonly owner: true; readonly refusal: [Refusal['status'], number, string, Record<string, unknown>] }
  | { readonly owner: true; readonly failed: true };

/** A number in a relayed event (a user, a play, a kuji id, a seed): a non-negative int4, as stored. */
export const eventNumber = z
  .int()
  .check(z.gte(0))
  .check(z.lte(2 ** 31 - 1));
const roomNumber = eventNumber.check(z.gte(1));
/** What travels between instances: where the event goes, and the event (checked by its kind's schema). */
const relayedSchema = z.strictObject({
  to: z.union([
    z.strictObject({ room: z.string().check(z.maxLength(40)) }),
    z.strictObject({ kind: z.string().check(z.maxLength(20)), user: roomNumber }),
  ]),
  event: z.unknown(),
});

/**
 * An instance's way to the room an event is for (R10-8): the event goes to every instance over
 * the adapter's server-side channel; the instance running the room (or holding the user's place)
 * answers with the room's reply or its refusal, the others with owner: false. None answering: the
 * sender decides (it takes the room, or answers as for a user with no place).
 */
export function socketRelay(io: SocketIOServer): RoomRelay {
  return {
    async send(address: RoomAddress, event: unknown) {
      // The adapter waits for every instance it knows, up to 5 s; on that timeout the answers that
      // came are kept (an instance that just died cannot hide the owner's answer).
      const [answers, complete] = await new Promise<[RelayAnswer[], boolean]>((resolve) => {
        io.serverSideEmit(ROOM_RELAY, { to: address, event }, (error: Error | null, responses: RelayAnswer[]) =>
          resolve([Array.isArray(responses) ? responses : [], !error]),
        );
      });
      const fromOwner = answers.find((a) => a?.owner === true);
      // Not every instance answered in time: the one running the event may still run it.
      if (!fromOwner) return { answered: false, complete };
      if ('refusal' in fromOwner) throw new Refusal(...fromOwner.refusal);
      if ('failed' in fromOwner) throw new Error('the room instance failed a relayed event');
      return { answered: true, reply: fromOwner.reply };
    },
  };
}

export interface RelayServing {
  /** A failure as the refusal its caller gets (the route's mapping), or null for a fault. */
  readonly refusalOf: (error: unknown) => Refusal | null;
  /** Whether this instance takes such an event at all (the development rig only where development calls are on). */
  readonly allows: (event: unknown) => boolean;
  /** The text of a relayed event refused as malformed. */
  readonly refusedInfo: string;
  readonly log: (message: string, error?: unknown) => void;
}

/**
 * Answers the events other instances relay: the ones for this instance's rooms run here and
 * answer with the room's reply; a malformed one is refused by every instance (400).
 */
export function serveRelayedEvents<K extends Record<string, AnyRoomKind>>(
  io: SocketIOServer,
  rooms: RoomRegistry<K>,
  serving: RelayServing,
): void {
  const refused: RelayAnswer = { owner: true, refusal: [400, 400, serving.refusedInfo, {}] };
  io.on(ROOM_RELAY, (message: unknown, ack: unknown) => {
    if (typeof ack !== 'function') return;
    const answer = ack as (a: RelayAnswer) => void;
    const parsed = relayedSchema.safeParse(message);
    if (!parsed.success || !serving.allows(parsed.data.event)) return answer(refused);
    rooms.relayed(parsed.data.to, parsed.data.event).then(
      (reply) => answer(reply === NOT_HERE ? { owner: false } : { owner: true, reply: reply ?? null }),
      (error: unknown) => {
        if (error instanceof RelayRefused) return answer(refused);
        const refusal = serving.refusalOf(error);
        if (refusal)
          return answer({ owner: true, refusal: [refusal.status, refusal.code, refusal.info, { ...refusal.extra }] });
        serving.log('relayed room event failed', error);
        return answer({ owner: true, failed: true });
      },
    );
  });
}
