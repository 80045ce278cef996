import { z } from 'zod/mini';
import { CRANE_BUTTONS, CRANE_COMMANDS } from '../../../src/contract';
import {
  operatorArmStrengthSchema,
  operatorStationSettingsSchema,
  operatorChangePrizeSchema,
  operatorRestockSchema,
} from '../../../src/contract/operator.schema';
import {
  MACHINE_PHASES,
  nextWakeup,
  PLAY_TIMINGS,
  restoreRoom,
  roomUsers,
  SETTINGS_CHANGE_REASONS,
  stationReply,
  STATION_STATUSES,
  transition,
  type RoomAnswer,
  type RoomEffect,
  type MachineCommand,
  type MachineLink,
  type RoomEvent,
  type RoomReply,
  type RoomSnapshot,
  type StationRequest,
  type StationRoomState,
} from '../../../src/domain';
import { SERVER_MESSAGES } from '../../messages';
import type { RoomCarrier, RoomHandle } from '../../rooms/room';
import type { RoomKind } from '../../rooms/room-registry';
import type { PlayEvents, PlayRecording, PlayStore } from './play-ports';
import { eventNumber as anyId } from '../../rooms/room-relay';

const prizeSchema = z.strictObject({
  id: anyId,
  x: z.number(),
  z: z.number(),
  radius: z.number(),
  shape: z.enum(['box', 'plush', 'capsule']),
  hue: z.number(),
});
const machineReportSchema = z.strictObject({
  playId: z.nullable(anyId),
  phase: z.enum(MACHINE_PHASES),
  sensor: z.enum(['clear', 'blocked']),
  stopped: z.boolean(),
  position: z.nullable(z.strictObject({ x: z.number(), z: z.number(), h: z.number(), grip: z.number() })),
  sim: z.nullable(z.strictObject({ tick: anyId, prizes: z.array(prizeSchema).check(z.maxLength(16)) })),
});
/** A room's command to its machine, as it travels to the instance holding the agent's connection. */
export const machineCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('start'),
    playId: anyId,
    armStrength: z.number(),
    sim: z.strictObject({ seed: z.int(), layout: z.array(prizeSchema).check(z.maxLength(16)) }),
  }),
  z.strictObject({ type: z.enum(['press', 'release']), playId: anyId, button: z.enum(CRANE_BUTTONS) }),
  z.strictObject({ type: z.literal('drop'), playId: anyId }),
  z.strictObject({ type: z.enum(['home', 'stop', 'resume']) }),
]);

/** Who changed a station's settings and why, as it travels with the change [R11-6]. */
const changeReason = {
  reason: z.optional(z.enum(SETTINGS_CHANGE_REASONS)),
  operator: z.optional(z.nullable(z.string().check(z.maxLength(100)))),
};

/** The events a caller may send a station room, as they travel between instances (checked on arrival). */
export const stationRequestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('join'), userId: anyId, shopId: z.optional(z.nullable(anyId)) }),
  z.strictObject({ type: z.literal('leave'), userId: anyId, settingId: anyId, shopId: z.optional(anyId) }),
  z.strictObject({ type: z.literal('confirm'), userId: anyId }),
  z.strictObject({
    type: z.literal('control'),
    userId: anyId,
    playId: anyId,
    button: z.enum(CRANE_BUTTONS),
    command: z.enum(CRANE_COMMANDS),
  }),
  z.strictObject({ type: z.literal('continue'), userId: anyId, playId: anyId }),
  z.strictObject({ type: z.literal('finish'), userId: anyId, playId: anyId }),
  z.strictObject({ type: z.literal('look'), userId: anyId }),
  z.strictObject({ type: z.literal('view') }),
  z.strictObject({ type: z.literal('away'), userId: anyId }),
  z.strictObject({ type: z.literal('back'), userId: anyId }),
  z.strictObject({ type: z.literal('setStatus'), status: z.enum(STATION_STATUSES) }),
  z.strictObject({ type: z.literal('restock'), stock: operatorRestockSchema.shape.stock }),
  z.strictObject({ type: z.literal('prizeOut') }),
  z.strictObject({
    type: z.literal('changeSettings'),
    patch: z.strictObject({
      armStrength: z.optional(operatorArmStrengthSchema.shape.arm_strength),
      playPrice: z.optional(operatorStationSettingsSchema.shape.play_price),
    }),
    ...changeReason,
  }),
  z.strictObject({
    type: z.literal('setArmStrength'),
    armStrength: operatorArmStrengthSchema.shape.arm_strength,
    ...changeReason,
  }),
  z.strictObject({
    type: z.literal('changePrize'),
    prize: z.strictObject({
      prizeName: operatorChangePrizeSchema.shape.prize_name,
      prizeShape: operatorChangePrizeSchema.shape.prize_shape,
      stock: operatorChangePrizeSchema.shape.stock,
      armStrength: z.optional(operatorChangePrizeSchema.shape.arm_strength),
    }),
    ...changeReason,
  }),
  z.strictObject({ type: z.literal('endPlay'), playId: anyId }),
  z.strictObject({ type: z.literal('removeFromLine'), userId: anyId }),
  z.strictObject({ type: z.literal('pause'), paused: z.boolean() }),
  z.strictObject({ type: z.literal('rig'), seed: anyId }),
  // the machine's agent, heard on the instance its connection landed on (server/agent/machine-link.ts)
  z.strictObject({ type: z.literal('machineConnected') }),
  z.strictObject({ type: z.literal('machineReport'), report: machineReportSchema }),
  z.strictObject({
    type: z.literal('machineAck'),
    command: machineCommandSchema,
    ok: z.boolean(),
    reason: z.nullable(z.string().check(z.maxLength(40))),
    tick: z.nullable(anyId),
  }),
  z.strictObject({ type: z.literal('machinePrize'), playId: z.nullable(anyId), prizeId: z.nullable(anyId) }),
  z.strictObject({ type: z.literal('machineFault'), code: z.string().check(z.maxLength(40)) }),
  z.strictObject({ type: z.literal('machineGone'), reason: z.string().check(z.maxLength(40)) }),
  z.strictObject({ type: z.literal('emergencyStop') }),
  z.strictObject({ type: z.literal('resumeMachine') }),
  z.strictObject({ type: z.literal('homeMachine') }),
]) satisfies z.ZodMiniType<StationRequest>;

/** A station room, as the registry runs it. */
export type StationKind = RoomKind<
  StationRoomState,
  RoomEvent,
  StationRequest,
  RoomEffect,
  RoomAnswer,
  RoomReply,
  RoomSnapshot
>;

export interface StationKindDeps {
  readonly store: PlayStore;
  /** Read at each use: the realtime hub is wired after the rooms exist. */
  readonly events: () => PlayEvents;
  readonly log: (message: string, error?: unknown) => void;
  /** Where each play's seed comes from (tests pin it; the seed is published in the play log either way). */
  readonly newSeed: () => number;
  /**
   * Sends a command to a station's machine through its agent (read at each use: the agent gateway
   * is wired after the rooms exist); false when no agent drives the station here or anywhere.
   */
  readonly machines: () => MachineCommands;
  /** The plays' recorder (read at each use: it is wired after the rooms exist, with the live feed). */
  readonly recording: () => PlayRecording;
}

/** Where the rooms' machine commands go (server/agent/machine-link.ts). */
export interface MachineCommands {
  command(stationId: number, command: MachineCommand): Promise<boolean>;
  /** What this instance knows of a station's machine (its agent connected here and its last report), for a room it opens. */
  known(stationId: number): MachineLink | undefined;
}

/**
 * Stations as rooms (docs/play.md, "Station rooms"): the domain's `transition` over a station's
 * line, turn and play; effects carried out through the PlayStore (its writes with the ledger inside
 * their transactions) and the PlayEvents. A step's writes are awaited before the next event; the
 * running machine's checkpoints are ordered with them but awaited by nobody, so a button is
 * answered at once.
 */
export function stationKind(deps: StationKindDeps): StationKind {
  /** Development only: the seed a station's next play takes (one each), for a reproducible play. */
  const rigged = new Map<number, number>();
  const seedFor = (stationId: number): number => {
    const seed = rigged.get(stationId);
    if (seed === undefined) return deps.newSeed();
    rigged.delete(stationId);
    return seed;
  };
  return {
    name: 'station',
    rules: {
      transition,
      // A room opened here takes what this instance knows of its machine.
      restore: (snapshot, now) => restoreRoom(snapshot, now, deps.machines().known(snapshot.station.stationId)),
      nextWakeup,
      clockEvent: { type: 'clock' },
      resumedEvent: { type: 'resumed' },
    },
    requests: stationRequestSchema,
    reply: stationReply,
    users: roomUsers,
    vacant: (state) => state.turn.phase === 'idle' && state.line.length === 0,
    load: (ids) => deps.store.loadRooms(ids),
    idOf: (snapshot) => snapshot.station.stationId,
    carrier: (stationId) => stationCarrier(stationId, deps, seedFor, (seed) => rigged.set(stationId, seed)),
  };
}

function stationCarrier(
  id: number,
  deps: StationKindDeps,
  seedFor: (stationId: number) => number,
  rig: (seed: number) => void,
): RoomCarrier<StationRoomState, RoomEvent, RoomEffect, RoomSnapshot> {
  const { store, log } = deps;
  return {
    load: async () => (await store.loadRooms([id]))[0] ?? null,
    // A refused place or play changed nothing; a refused start goes back to the turn it came from;
    // a failed write may have left the store behind the room, which is read again.
    failed: (effect) =>
      effect.type === 'startPlay' ? { type: 'startRefused' } : effect.type === 'commit' ? 'reload' : null,
    async carryOut(effect, room: RoomHandle<StationRoomState>) {
      const events = deps.events();
      switch (effect.type) {
        case 'commit':
          await room.write(() => store.commit(id, effect.writes));
          // A play's result (or its end without one) ends its clip [R11-5].
          for (const write of effect.writes)
            if (write.kind === 'recordResult' || write.kind === 'closePlay') deps.recording().playEnded(write.playId);
          return null;
        case 'checkpoint':
          void room
            .write(() => store.commit(id, [effect.write]))
            .catch((error: unknown) => log('play checkpoint failed', error));
          return null;
        case 'addToLine': {
          const placed = await room.write(() => store.addToLine(id, effect.userId));
          return { type: 'joined', reserveId: placed.reserveId, userId: effect.userId, settingId: placed.settingId };
        }
        case 'startPlay': {
          const started = await room.write(() => store.startPlay(id, effect, seedFor(id)));
          // Every play is recorded from its start [R11-5]; nothing here waits for the recorder.
          deps.recording().playStarted({
            stationId: id,
            playId: started.playId,
            userId: started.userId,
            prizeName: room.state.station.prizeName,
          });
          return { type: 'playStarted', started };
        }
        case 'lineChanged':
          events.lineChanged(id);
          return null;
        case 'playState':
          events.playState(id, effect.view);
          return null;
        case 'turnNow':
          events.push(effect.userId, {
            kind: 'turnNow',
            station_id: id,
            reserve_num: 1,
            title: SERVER_MESSAGES.turnNowTitle,
            message: SERVER_MESSAGES.turnNowBody(room.state.station.prizeName, PLAY_TIMINGS.confirmMs / 1000),
          });
          return null;
        case 'turnNear':
          events.push(effect.userId, {
            kind: 'turnNear',
            station_id: id,
            reserve_num: effect.place,
            title: SERVER_MESSAGES.turnNearTitle,
            message: SERVER_MESSAGES.turnNearBody(room.state.station.prizeName, effect.place),
          });
          return null;
        case 'reserveCancelled':
          events.reserveCancelled(effect.userId, id, effect.reason);
          return null;
        case 'stationStatus':
          events.stationStatus(id, effect.status);
          return null;
        case 'winner':
          // The winner hears of the prize at once; it waits in the prize box (docs/delivery.md).
          events.push(effect.userId, {
            kind: 'notice',
            station_id: id,
            title: SERVER_MESSAGES.prizeWonTitle,
            message: SERVER_MESSAGES.prizeWonBody(effect.prizeName),
          });
          // The announcement waits for nobody: the name is read beside the room's next steps.
          void store.nickname(effect.userId).then(
            (nickname) =>
              deps.events().winner({
                station_id: id,
                prize_name: effect.prizeName,
                message: SERVER_MESSAGES.winnerAnnouncement(
                  nickname || SERVER_MESSAGES.anonymousPlayer,
                  effect.prizeName,
                ),
              }),
            (error: unknown) => log('winner announcement failed', error),
          );
          return null;
        case 'floorChanged':
          deps.events().floorChanged(id);
          return null;
        case 'rigSeed':
          rig(effect.seed);
          return null;
        case 'machineCommand': {
          // A machine nobody drives is gone: the room stops what it runs there (refunded once).
          const sent = await deps.machines().command(id, effect.command);
          return sent ? null : { type: 'machineGone', reason: 'no_agent' };
        }
      }
    },
  };
}
