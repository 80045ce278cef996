import { z } from 'zod/mini';
import {
  KUJI_BOX_STATUSES,
  kujiBoxUsers,
  kujiNextWakeup,
  kujiTransition,
  restoreKujiBox,
  type KujiBoxAnswer,
  type KujiBoxEffect,
  type KujiBoxEvent,
  type KujiBoxRequest,
  type KujiBoxSnapshot,
  type KujiRoomState,
  type PushNotice,
} from '../../src/domain';
import { kujiDrawRequestSchema, reserveTokenSchema } from '../../src/contract';
import { operatorKujiBoxStockSchema } from '../../src/contract/operator.schema';
import { SERVER_MESSAGES } from '../messages';
import type { RoomKind } from '../rooms/room-registry';
import type { KujiBoxStore } from './kuji-box-store';
import { eventNumber as anyId } from '../rooms/room-relay';

const token = reserveTokenSchema;

/** The events a caller may send a kuji box room, as they travel between instances (checked on arrival). */
export const kujiBoxRequestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('join'), userId: anyId, kujiId: anyId }),
  z.strictObject({ type: z.literal('cancel'), userId: anyId, token, kujiId: anyId }),
  z.strictObject({
    type: z.literal('draw'),
    userId: anyId,
    token,
    kujiId: anyId,
    count: kujiDrawRequestSchema.shape.count,
    requestId: kujiDrawRequestSchema.shape.request_id,
  }),
  z.strictObject({ type: z.literal('setStatus'), status: z.enum(KUJI_BOX_STATUSES) }),
  z.strictObject({ type: z.literal('setStock'), prizes: operatorKujiBoxStockSchema.shape.prizes }),
  z.strictObject({ type: z.literal('look') }),
]) satisfies z.ZodMiniType<KujiBoxRequest>;

/** A kuji box room, as the registry runs it. */
export type KujiKind = RoomKind<
  KujiRoomState,
  KujiBoxEvent,
  KujiBoxRequest,
  KujiBoxEffect,
  KujiBoxAnswer,
  KujiBoxAnswer,
  KujiBoxSnapshot
>;

/** What the kuji box rooms tell the players; the realtime hub implements it. */
export interface KujiBoxEvents {
  /** A box's line changed (kuji_reserve_change=1 on its channel). */
  kujiLineChanged(kujiId: number, boxId: number): void;
  /** A box ended (play_end=1 on its channel). */
  kujiBoxEnded(kujiId: number, boxId: number): void;
  push(userId: number, push: PushNotice): void;
}

export interface KujiKindDeps {
  readonly store: KujiBoxStore;
  /** Read at each use: the realtime hub is wired after the rooms exist. */
  readonly events: () => KujiBoxEvents;
}

/**
 * Kuji boxes as rooms (docs/kuji.md): the domain's `kujiTransition` over a box's line, holder,
 * window and tickets; effects carried out through the SqlKujiBoxStore (the draw with its charge in
 * one transaction) and the realtime hub. Each box has its own queue and timer, so one box's slow
 * write never delays another box.
 */
export function kujiKind(deps: KujiKindDeps): KujiKind {
  const { store } = deps;
  return {
    name: 'kuji',
    rules: {
      transition: kujiTransition,
      restore: restoreKujiBox,
      nextWakeup: kujiNextWakeup,
      clockEvent: { type: 'clock' },
      resumedEvent: { type: 'resumed' },
    },
    requests: kujiBoxRequestSchema,
    reply: (_state, _event, answer) => answer,
    users: kujiBoxUsers,
    vacant: (state) => state.holder === null && state.line.length === 0,
    load: (ids) => store.loadBoxes(ids),
    idOf: (snapshot) => snapshot.box.boxId,
    carrier: (boxId) => ({
      load: async () => (await store.loadBoxes([boxId]))[0] ?? null,
      // A refused place, draw or stock changed nothing; a failed write may have left the store behind the room.
      failed: (effect) => (effect.type === 'commit' ? 'reload' : null),
      async carryOut(effect, room) {
        const { kujiId } = room.state.box;
        switch (effect.type) {
          case 'commit':
            await room.write(() => store.commit(boxId, effect.writes));
            return null;
          case 'addToLine':
            return { type: 'joined', place: await room.write(() => store.addToLine(boxId, effect)) };
          case 'findDraw':
            return {
              type: 'drawChecked',
              request: effect.request,
              previous: await room.write(() => store.findDraw(effect.request)),
            };
          case 'draw': {
            const draw = await room.write(() => store.draw(boxId, effect));
            return { type: 'drawn', draw, count: effect.count, lastOne: effect.lastOne, at: effect.at };
          }
          case 'setStock':
            return { type: 'stockSet', remaining: await room.write(() => store.setStock(boxId, effect.prizes)) };
          case 'lineChanged':
            deps.events().kujiLineChanged(kujiId, boxId);
            return null;
          case 'turnNow':
            deps.events().push(effect.userId, {
              kind: 'turnNow',
              kuji_id: kujiId,
              box_id: boxId,
              reserve_num: 1,
              title: SERVER_MESSAGES.kujiTurnTitle,
              message: SERVER_MESSAGES.kujiTurnBody(room.state.limits.firstReserved),
            });
            return null;
          case 'boxEnded':
            deps.events().kujiBoxEnded(kujiId, boxId);
            return null;
        }
      },
    }),
  };
}
