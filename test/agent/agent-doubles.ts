import { expect } from 'vitest';
import type { AgentSocket, AgentSocketHandlers, OpenAgentSocket } from '../../agent/agent-socket';
import type {
  CommandOutcome,
  MachineDriver,
  MachineEvents,
  MachineOutput,
  MachineStatus,
} from '../../agent/machine-driver';
import {
  AGENT_PROTOCOL_VERSION,
  agentMessageSchema,
  type AgentCommand,
  type AgentMessage,
} from '../../src/contract/agent.schema';

/** The server's end of one socket the agent opened: the test accepts it, speaks, and reads what the agent sent. */
export class ScriptedSocket implements AgentSocket {
  readonly sent: AgentMessage[] = [];
  closedWith: { code: number; reason: string } | null = null;

  constructor(
    readonly url: string,
    private readonly handlers: AgentSocketHandlers,
  ) {}

  send(text: string): void {
    // Every frame the agent sends must be a message of the protocol.
    const parsed = agentMessageSchema.safeParse(JSON.parse(text));
    expect(parsed.success, text).toBe(true);
    this.sent.push(parsed.data!);
  }

  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
  }

  accept(): this {
    this.handlers.open();
    return this;
  }

  deliver(message: object | string | null): void {
    this.handlers.message(message === null || typeof message === 'string' ? message : JSON.stringify(message));
  }

  closeFromServer(code: number, reason = ''): void {
    this.handlers.close(code, reason);
  }

  welcome(stations: number[], watchdogMs = 1_000): void {
    this.deliver({
      v: AGENT_PROTOCOL_VERSION,
      type: 'welcome',
      key_id: 'key-1',
      stations,
      heartbeat_ms: 500,
      watchdog_ms: watchdogMs,
      silence_ms: 3_000,
      commands_per_second: 25,
    });
  }

  ping(t: number): void {
    this.deliver({ v: AGENT_PROTOCOL_VERSION, type: 'ping', t });
  }

  command(seq: number, station: number, command: AgentCommand): void {
    this.deliver({ v: AGENT_PROTOCOL_VERSION, type: 'command', seq, station_id: station, command });
  }

  /** Frames of one type the agent sent. */
  of<T extends AgentMessage['type']>(type: T): Extract<AgentMessage, { type: T }>[] {
    return this.sent.filter((m): m is Extract<AgentMessage, { type: T }> => m.type === type);
  }
}

/** Opens scripted sockets and keeps them in order. */
export class ScriptedSockets {
  readonly all: ScriptedSocket[] = [];
  readonly open: OpenAgentSocket = (url, handlers) => {
    const socket = new ScriptedSocket(url, handlers);
    this.all.push(socket);
    return socket;
  };

  get last(): ScriptedSocket {
    const socket = this.all.at(-1);
    if (!socket) throw new Error('the agent opened no socket');
    return socket;
  }
}

/**
 * A driver that records what it is asked and holds the outputs the commands set: press energises a
 * button until its release, `releaseAll` or `stop`. `defer` makes the next commands wait for the test.
 */
export class ScriptedDriver implements MachineDriver {
  readonly name = 'scripted';
  readonly calls: string[] = [];
  readonly outputs = new Map<number, MachineOutput[]>();
  /** While set, carryOut returns a promise the test settles. */
  deferred: { command: AgentCommand; settle: () => void }[] | null = null;
  private events: MachineEvents | null = null;

  constructor(readonly stationIds: number[] = [1, 2]) {
    for (const id of stationIds) this.outputs.set(id, []);
  }

  get stations() {
    return this.stationIds.map((station_id) => ({
      station_id,
      position: false,
      phases: false,
      chute_sensor: true,
      arm_strength: false,
    }));
  }

  start(events: MachineEvents): Promise<void> {
    this.events = events;
    return Promise.resolve();
  }

  status(stationId: number): MachineStatus {
    return {
      playId: 7,
      claw: 'ready',
      sensor: 'clear',
      stopped: false,
      outputs: [...(this.outputs.get(stationId) ?? [])],
    };
  }

  carryOut(stationId: number, command: AgentCommand): CommandOutcome | Promise<CommandOutcome> {
    this.calls.push(`${command.type}${'button' in command ? ` ${command.button}` : ''} @${stationId}`);
    const apply = (): CommandOutcome => {
      const held = this.outputs.get(stationId)!;
      if (command.type === 'press') held.push(command.button);
      if (command.type === 'release') held.splice(held.indexOf(command.button) >>> 0, 1);
      if (command.type === 'stop') held.length = 0;
      this.report(stationId);
      return { ok: true, tick: 3 };
    };
    if (!this.deferred) return apply();
    const deferred = this.deferred;
    return new Promise((resolve) => deferred.push({ command, settle: () => resolve(apply()) }));
  }

  release(stationId: number): void {
    this.calls.push(`release @${stationId}`);
    const held = this.outputs.get(stationId);
    if (!held || held.length === 0) return;
    held.length = 0;
    this.report(stationId);
  }

  releaseAll(): void {
    this.calls.push('releaseAll');
    for (const [station, held] of this.outputs) {
      if (held.length === 0) continue;
      held.length = 0;
      this.report(station);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** What a cabinet's sensor saw. */
  emitPrize(station: number, playId: number | null, prizeId?: number): void {
    this.events!.prize(station, playId, prizeId);
  }

  private report(station: number): void {
    this.events?.status(station, this.status(station));
  }
}
