import type { IncomingMessage } from 'node:http';
import type { Server as SocketIOServer } from 'socket.io';
import { z } from 'zod/mini';
import {
  AGENT_CAMERAS,
  type AgentCamera,
  type AgentCommand,
  type AgentState,
  type SimPrize,
} from '../../src/contract/agent.schema';
import { stationAgentSchema, type StationAgentWire } from '../../src/contract/operator.schema';
import {
  machineReady,
  type CranePrize,
  type MachineCommand,
  type MachineLink,
  type MachinePhase,
  type RoomEvent,
  type StationRequest,
} from '../../src/domain';
import type { Clock } from '../clock';
import { machineCommandSchema, type MachineCommands } from '../play/rooms/station-kind';
import type { Rooms } from '../rooms/kinds';
import { instanceViews } from '../realtime/instance-views';
import { AgentGateway, type AgentEvent, type AgentKeyCheck, type AgentBounds } from './agent-gateway';

/** The instances' event for a machine command whose agent may be connected to another instance. */
export const AGENT_COMMAND = 'onkure:agent-command';
/** The instances' event for a station's camera lease whose agent may be connected to another instance. */
export const AGENT_CAMERAS_EVENT = 'onkure:agent-cameras';
/** The instances' event for a revoked key: every instance closes its connections made with it. */
export const AGENT_KEY_REVOKED = 'onkure:agent-key-revoked';
/** The instances' event for the console's view: each instance answers with the agents connected to it. */
export const AGENT_VIEWS = 'onkure:agent-views';

const PHASES: Record<AgentState['claw'], MachinePhase> = {
  idle: 'idle',
  ready: 'ready',
  moving_right: 'movingRight',
  wait_back: 'waitBack',
  moving_back: 'movingBack',
  dropping: 'dropping',
  closing: 'closing',
  lifting: 'lifting',
  returning: 'returning',
  opening: 'opening',
};

const prizeOf = (p: SimPrize): CranePrize => ({
  id: p.id,
  x: p.x,
  z: p.z,
  radius: p.radius,
  shape: p.shape,
  hue: p.hue,
});

/** A room's command as the protocol carries it. */
export function agentCommand(command: MachineCommand): AgentCommand {
  switch (command.type) {
    case 'start':
      return {
        type: 'start',
        play_id: command.playId,
        arm_strength: Math.min(1, Math.max(0, command.armStrength)),
        sim: { seed: command.sim.seed, layout: command.sim.layout.map((p) => ({ ...p })) },
      };
    case 'press':
    case 'release':
      return { type: command.type, play_id: command.playId, button: command.button };
    case 'drop':
      return { type: 'drop', play_id: command.playId };
    case 'home':
    case 'stop':
    case 'resume':
      return { type: command.type };
  }
}

/** The room's command an ack names, back from the protocol's. */
function machineCommand(command: AgentCommand): MachineCommand {
  switch (command.type) {
    case 'start':
      return {
        type: 'start',
        playId: command.play_id,
        armStrength: command.arm_strength,
        sim: { seed: command.sim?.seed ?? 0, layout: (command.sim?.layout ?? []).map(prizeOf) },
      };
    case 'press':
    case 'release':
      return { type: command.type, playId: command.play_id, button: command.button };
    case 'drop':
      return { type: 'drop', playId: command.play_id };
    case 'home':
    case 'stop':
    case 'resume':
      return { type: command.type };
  }
}

/** What an agent said, as its station's room hears it (null: nothing the room needs). */
export function roomEventOf(event: AgentEvent): Extract<RoomEvent, StationRequest> | null {
  switch (event.type) {
    case 'connected':
      return { type: 'machineConnected' };
    case 'state': {
      const s = event.state;
      return {
        type: 'machineReport',
        report: {
          playId: s.play_id,
          phase: PHASES[s.claw],
          sensor: s.sensor,
          stopped: s.stopped,
          position: s.claw_position ?? null,
          sim: s.sim ? { tick: s.sim.tick, prizes: s.sim.prizes.map(prizeOf) } : null,
        },
      };
    }
    case 'ack':
      return event.command
        ? {
            type: 'machineAck',
            command: machineCommand(event.command),
            ok: event.ack.ok,
            reason: event.ack.reason ?? null,
            tick: event.ack.tick ?? null,
          }
        : null;
    case 'prize':
      return { type: 'machinePrize', playId: event.prize.play_id, prizeId: event.prize.prize_id ?? null };
    case 'fault':
      return { type: 'machineFault', code: event.fault.code };
    case 'gone':
      return { type: 'machineGone', reason: event.reason };
  }
}

const relayedCommand = z.strictObject({ stationId: z.int().check(z.positive()), command: machineCommandSchema });
const relayedCameras = z.strictObject({
  stationId: z.int().check(z.positive()),
  cameras: z.array(z.enum(AGENT_CAMERAS)).check(z.maxLength(2)),
  leaseMs: z.int().check(z.positive(), z.lte(60_000)),
});

export interface MachineLinkDeps {
  readonly clock: Clock;
  readonly keys: AgentKeyCheck;
  readonly rooms: Rooms;
  readonly io: SocketIOServer;
  /** Several instances: a command whose agent is not connected here is offered to the others. */
  readonly distributed: boolean;
  readonly clientAddress: (request: IncomingMessage) => string;
  readonly log: (message: string, error?: unknown) => void;
  readonly bounds?: Partial<AgentBounds>;
}

/**
 * The station rooms' way to their machines (docs/agent-protocol.md): the agent gateway on this
 * instance, what its agents say handed to their stations' rooms (on whichever instance runs
 * them), and the rooms' commands carried to the agent's connection (on whichever instance holds
 * it).
 */
export function createMachineLink(deps: MachineLinkDeps): {
  gateway: AgentGateway;
  commands: MachineCommands;
  /** A key was revoked: its connections close here and on every other instance (4401). */
  revoked(keyId: string): void;
  /** Tells a station's agent which cameras are watched (a lease), wherever it is connected. */
  cameras(stationId: number, cameras: readonly AgentCamera[], leaseMs: number): void;
  /**
   * The console's view of every agent connected to any instance, one row per station, with the
   * sensor view from its last state (an agent is connected to one instance only: behind a load
   * balancer that is rarely the one the console asks).
   */
  views(): Promise<StationAgentWire[]>;
} {
  const { rooms, io, log } = deps;
  const gateway = new AgentGateway({
    clock: deps.clock,
    keys: deps.keys,
    clientAddress: deps.clientAddress,
    log: (message, error) => log(message, error),
    ...(deps.bounds ? { bounds: deps.bounds } : {}),
    sink: (stationId, event) => {
      const roomEvent = roomEventOf(event);
      if (!roomEvent) return;
      rooms
        .send('station', stationId, roomEvent)
        .catch((error: unknown) => log(`station ${stationId}: agent event ${roomEvent.type} not taken`, error));
    },
  });
  const sendHere = (stationId: number, command: MachineCommand): boolean => {
    const sent = gateway.command(stationId, agentCommand(command));
    if (!sent.sent && sent.refused !== 'noAgent')
      log(`station ${stationId}: ${command.type} not sent (${sent.refused})`);
    return sent.sent || sent.refused !== 'noAgent';
  };
  io.on(AGENT_COMMAND, (message: unknown, ack: unknown) => {
    if (typeof ack !== 'function') return;
    const parsed = relayedCommand.safeParse(message);
    if (!parsed.success || !gateway.connected(parsed.data.stationId)) return (ack as (held: boolean) => void)(false);
    (ack as (held: boolean) => void)(sendHere(parsed.data.stationId, parsed.data.command));
  });
  const commands: MachineCommands = {
    known(stationId) {
      const state = gateway.lastState(stationId);
      if (!state) return undefined;
      const event = roomEventOf({ type: 'state', state });
      const report = event?.type === 'machineReport' ? event.report : null;
      // The room's own readiness rule: a machine not home and clear waits for its next report.
      const link: MachineLink = { connected: true, report, fault: null, emergencyStopped: false };
      return machineReady(link) ? link : { ...link, fault: 'restarted' };
    },
    async command(stationId, command) {
      if (gateway.connected(stationId) || !deps.distributed) return sendHere(stationId, command);
      // The agent may be connected to another instance: the one holding it sends it.
      return new Promise<boolean>((resolve) => {
        io.serverSideEmit(AGENT_COMMAND, { stationId, command }, (_error: Error | null, held: boolean[]) =>
          resolve(Array.isArray(held) && held.includes(true)),
        );
      });
    },
  };
  io.on(AGENT_CAMERAS_EVENT, (message: unknown) => {
    const parsed = relayedCameras.safeParse(message);
    if (parsed.success) gateway.cameras(parsed.data.stationId, parsed.data.cameras, parsed.data.leaseMs);
  });
  const cameras = (stationId: number, wanted: readonly AgentCamera[], leaseMs: number): void => {
    if (gateway.cameras(stationId, wanted, leaseMs) || !deps.distributed) return;
    io.serverSideEmit(AGENT_CAMERAS_EVENT, { stationId, cameras: wanted, leaseMs });
  };
  io.on(AGENT_KEY_REVOKED, (keyId: unknown) => {
    if (typeof keyId === 'string' && keyId.length <= 64) gateway.revoked(keyId);
  });
  const revoked = (keyId: string): void => {
    gateway.revoked(keyId);
    if (deps.distributed) io.serverSideEmit(AGENT_KEY_REVOKED, keyId);
  };
  // Each instance measures its agents' ages by its own clock, so the rows travel finished.
  const viewsHere = (): StationAgentWire[] => {
    const now = deps.clock.now().getTime();
    return gateway.agents().map((a) => {
      const state = gateway.lastState(a.stationId);
      return {
        station_id: a.stationId,
        key_id: a.keyId,
        key_name: a.keyName,
        agent_name: a.agentName,
        agent_version: a.agentVersion,
        driver: a.driver,
        remote: a.remote,
        connected_at: new Date(a.connectedAt).toISOString(),
        last_heard_at: new Date(a.lastHeardAt).toISOString(),
        last_heard_ms_ago: Math.max(0, now - a.lastHeardAt),
        round_trip_ms: a.roundTripMs,
        claw: state?.claw ?? null,
        sensor: state?.sensor ?? null,
        stopped: state?.stopped ?? null,
        outputs: state?.outputs ?? [],
        play_id: state?.play_id ?? null,
      };
    });
  };
  const gathered = instanceViews({
    io,
    event: AGENT_VIEWS,
    distributed: deps.distributed,
    clock: deps.clock,
    row: stationAgentSchema,
    key: (row) => row.station_id,
    here: viewsHere,
  });
  const views = async (): Promise<StationAgentWire[]> => (await gathered()).sort((x, y) => x.station_id - y.station_id);
  return { gateway, commands, revoked, views, cameras };
}
