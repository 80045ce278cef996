import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { AGENT_CLOSE, AGENT_PATH, type AgentServerMessage } from '../../src/contract/agent.schema';
import { AgentGateway, type AgentEvent, type AgentGrant } from '../../server/agent/agent-gateway';
import { ManualServerClock } from '../support/manual-server-clock';

const KEY_3 = 'onk_sk_key3xxxxxxxx_secret-three-xxxxxxxxxxxx';
const KEY_34 = 'onk_sk_key34xxxxxxx_secret-both-xxxxxxxxxxxxx';
const GRANTS: Record<string, AgentGrant> = {
  [KEY_3]: { keyId: 'key3', name: 'cabinet 3', stationIds: [3] },
  [KEY_34]: { keyId: 'key34', name: 'cabinets 3 and 4', stationIds: [3, 4] },
};
const caps = (station_id: number) => ({
  station_id,
  position: true,
  phases: true,
  chute_sensor: true,
  arm_strength: true,
});
const hello = (key: string, stations: number[], v = 1) => ({
  v,
  type: 'hello',
  key,
  agent: { name: 'test-agent', version: '0.0.1' },
  driver: 'sim',
  stations: stations.map(caps),
});

/** A scripted agent over a real socket: what it received, and how it was closed. */
class ScriptedAgent {
  readonly received: AgentServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiters: Array<() => void> = [];
  private seq = 0;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as AgentServerMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static async open(url: string): Promise<ScriptedAgent> {
    const ws = new WebSocket(url);
    const agent = new ScriptedAgent(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return agent;
  }

  sendJson(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** A message with the next sequence number. */
  report(message: Record<string, unknown>): void {
    this.seq += 1;
    this.sendJson({ v: 1, seq: this.seq, ...message });
  }

  async next<T extends AgentServerMessage['type']>(type: T): Promise<Extract<AgentServerMessage, { type: T }>> {
    for (;;) {
      const found = this.received.find((m) => m.type === type);
      if (found) {
        this.received.splice(this.received.indexOf(found), 1);
        return found as Extract<AgentServerMessage, { type: T }>;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

describe('the agent gateway: keys, heartbeats, one agent per station, commands', () => {
  let server: Server;
  let clock: ManualServerClock;
  let gateway: AgentGateway;
  let url: string;
  const events: Array<{ stationId: number; event: AgentEvent }> = [];
  /** Keys whose rotation window has ended. */
  const expired = new Set<string>();
  const agents: ScriptedAgent[] = [];
  const eventsFor = (stationId: number, type: AgentEvent['type']) =>
    events.filter((e) => e.stationId === stationId && e.event.type === type).map((e) => e.event);
  /** Waits until the sink has heard `count` events of `type` for the station (they follow socket frames). */
  const heard = async (stationId: number, type: AgentEvent['type'], count = 1) => {
    await expect.poll(() => eventsFor(stationId, type).length, { interval: 5 }).toBeGreaterThanOrEqual(count);
  };
  const connect = async (key: string, stations: number[]) => {
    const agent = await ScriptedAgent.open(url);
    agents.push(agent);
    agent.sendJson(hello(key, stations));
    return agent;
  };

  beforeEach(async () => {
    events.length = 0;
    expired.clear();
    clock = new ManualServerClock(new Date('2026-11-28T10:00:00Z'));
    server = createServer();
    gateway = new AgentGateway({
      clock,
      keys: { verify: async (key) => (expired.has(key) ? null : (GRANTS[key] ?? null)) },
      sink: (stationId, event) => events.push({ stationId, event }),
      clientAddress: (request) => request.socket.remoteAddress ?? '',
      log: () => undefined,
    });
    gateway.attach(server, () => true);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}${AGENT_PATH}`;
  });

  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.ws.terminate();
    gateway.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('[R11-1] welcomes a known key for its own stations and hands the stations to their rooms', async () => {
    const agent = await connect(KEY_34, [3, 4]);
    const welcome = await agent.next('welcome');
    expect(welcome).toMatchObject({ v: 1, key_id: 'key34', stations: [3, 4], heartbeat_ms: 500, silence_ms: 3000 });
    expect(JSON.stringify(welcome)).not.toContain('secret');
    await heard(4, 'connected');
    expect(eventsFor(3, 'connected')).toEqual([
      expect.objectContaining({ keyId: 'key34', driver: 'sim', agent: { name: 'test-agent', version: '0.0.1' } }),
    ]);
    expect(gateway.agents().map((a) => [a.stationId, a.keyName])).toEqual([
      [3, 'cabinets 3 and 4'],
      [4, 'cabinets 3 and 4'],
    ]);
  });

  it('[R11-1] refuses a forged key 4401, another station’s key 4403, an unknown version 4426, nothing connected', async () => {
    const forged = await connect('onk_sk_key3xxxxxxxx_forged-secret-xxxxxxxxxxx', [3]);
    expect((await forged.closed).code).toBe(AGENT_CLOSE.badKey);
    const other = await connect(KEY_3, [4]);
    expect((await other.closed).code).toBe(AGENT_CLOSE.forbiddenStation);
    const wider = await connect(KEY_3, [3, 4]);
    expect((await wider.closed).code).toBe(AGENT_CLOSE.forbiddenStation);
    const old = await ScriptedAgent.open(url);
    agents.push(old);
    old.sendJson(hello(KEY_3, [3], 2));
    expect((await old.closed).code).toBe(AGENT_CLOSE.unsupportedVersion);
    expect(events).toEqual([]);
    expect(gateway.connected(3)).toBe(false);
    expect(gateway.command(3, { type: 'home' })).toEqual({ sent: false, refused: 'noAgent' });
  });

  it('closes malformed frames 4400 and a hello that never comes 4408', async () => {
    const garbage = await ScriptedAgent.open(url);
    agents.push(garbage);
    garbage.ws.send('{"v":1,"type":"hello",');
    expect((await garbage.closed).code).toBe(AGENT_CLOSE.badMessage);
    const wrongFirst = await ScriptedAgent.open(url);
    agents.push(wrongFirst);
    wrongFirst.sendJson({ v: 1, type: 'pong', t: 1, at: 1 });
    expect((await wrongFirst.closed).code).toBe(AGENT_CLOSE.badMessage);
    const bytes = await ScriptedAgent.open(url);
    agents.push(bytes);
    bytes.ws.send(Buffer.from([0xff, 0xfe, 0x00]));
    expect((await bytes.closed).code).toBe(AGENT_CLOSE.badMessage);
    const mute = await ScriptedAgent.open(url);
    agents.push(mute);
    clock.advance(5_000);
    expect((await mute.closed).code).toBe(AGENT_CLOSE.timeout);
  });

  it('[R11-2] pings every 500 ms; an agent silent past 3 s is closed 4408 and its station is gone', async () => {
    const agent = await connect(KEY_3, [3]);
    await agent.next('welcome');
    clock.advance(500);
    const ping = await agent.next('ping');
    agent.sendJson({ v: 1, type: 'pong', t: ping.t, at: 12 });
    await expect.poll(() => gateway.agents()[0]?.lastHeardAt).toBe(clock.now().getTime());
    // Silent from now: still driving at 3 s, gone within the next heartbeat after it.
    clock.advance(3_000);
    expect(gateway.connected(3)).toBe(true);
    clock.advance(500);
    expect((await agent.closed).code).toBe(AGENT_CLOSE.timeout);
    expect(eventsFor(3, 'gone')).toEqual([{ type: 'gone', reason: 'silent' }]);
    expect(gateway.connected(3)).toBe(false);
  });

  it('[R11-1] a newer connection for a station replaces the older (4409): never two agents on one station', async () => {
    const first = await connect(KEY_34, [3, 4]);
    await first.next('welcome');
    const second = await connect(KEY_3, [3]);
    await second.next('welcome');
    expect((await first.closed).code).toBe(AGENT_CLOSE.replaced);
    // Station 3 stays driven (by the newer); station 4 went with the older connection.
    await heard(4, 'gone');
    expect(eventsFor(3, 'gone')).toEqual([]);
    expect(eventsFor(4, 'gone')).toEqual([{ type: 'gone', reason: 'replaced' }]);
    expect(gateway.agents().map((a) => [a.stationId, a.keyId])).toEqual([[3, 'key3']]);
    expect(gateway.command(3, { type: 'home' })).toMatchObject({ sent: true });
    const command = await second.next('command');
    expect(command).toMatchObject({ station_id: 3, command: { type: 'home' } });
  });

  it('[R11-1] sends numbered commands to the station’s own agent; replayed frames and other stations change nothing', async () => {
    const three = await connect(KEY_3, [3]);
    await three.next('welcome');
    const sent = gateway.command(3, { type: 'press', play_id: 9, button: 'right' });
    expect(sent).toEqual({ sent: true, seq: 1 });
    expect(gateway.command(3, { type: 'release', play_id: 9, button: 'right' })).toEqual({ sent: true, seq: 2 });
    const first = await three.next('command');
    expect(first).toEqual({
      v: 1,
      type: 'command',
      seq: 1,
      station_id: 3,
      command: { type: 'press', play_id: 9, button: 'right' },
    });
    three.report({ type: 'ack', station_id: 3, command_seq: 1, ok: true, tick: 4 });
    three.sendJson({ v: 1, type: 'ack', seq: 1, station_id: 3, command_seq: 2, ok: true });
    const state = {
      type: 'state',
      station_id: 3,
      at: 5,
      play_id: 9,
      claw: 'wait_back',
      sensor: 'clear',
      stopped: false,
      outputs: [],
    };
    three.report(state);
    await heard(3, 'state');
    // The replayed seq 1 was ignored: one ack, naming the command it answers.
    expect(eventsFor(3, 'ack')).toEqual([
      expect.objectContaining({ command: { type: 'press', play_id: 9, button: 'right' } }),
    ]);
    // A frame for a station this connection does not serve ends it.
    three.report({ ...state, station_id: 4 });
    expect((await three.closed).code).toBe(AGENT_CLOSE.forbiddenStation);
    expect(eventsFor(4, 'state')).toEqual([]);
  });

  it('caps commands at 25 a second per station and interlocks opposite directions; stop always goes out', async () => {
    const agent = await connect(KEY_3, [3]);
    await agent.next('welcome');
    expect(gateway.command(3, { type: 'press', play_id: 1, button: 'right' })).toMatchObject({ sent: true });
    expect(gateway.command(3, { type: 'press', play_id: 1, button: 'back' })).toEqual({
      sent: false,
      refused: 'interlock',
    });
    const outcomes = Array.from({ length: 30 }, () => gateway.command(3, { type: 'drop', play_id: 1 }));
    expect(outcomes.filter((o) => o.sent)).toHaveLength(24);
    expect(outcomes.at(-1)).toEqual({ sent: false, refused: 'limited' });
    expect(gateway.command(3, { type: 'stop' })).toMatchObject({ sent: true });
    clock.advance(1_000);
    expect(gateway.command(3, { type: 'drop', play_id: 1 })).toMatchObject({ sent: true });
  });

  it('closes a frame flood 4429 and a revoked key’s connections 4401', async () => {
    const flood = await connect(KEY_3, [3]);
    await flood.next('welcome');
    for (let i = 1; i <= 150; i += 1) flood.sendJson({ v: 1, type: 'pong', t: 0, at: i });
    expect((await flood.closed).code).toBe(AGENT_CLOSE.flood);
    const again = await connect(KEY_34, [3, 4]);
    await again.next('welcome');
    expect(gateway.revoked('key34')).toBe(1);
    expect((await again.closed).code).toBe(AGENT_CLOSE.badKey);
    await heard(4, 'gone');
    expect(eventsFor(4, 'gone')).toEqual([{ type: 'gone', reason: 'revoked' }]);
  });

  it('closes a connection 4401 at its next key check once its key’s rotation window has ended', async () => {
    // This gateway checks keys every 2 s (4 heartbeats); the server's default is a minute.
    gateway.close();
    gateway = new AgentGateway({
      clock,
      keys: { verify: async (key) => (expired.has(key) ? null : (GRANTS[key] ?? null)) },
      sink: (stationId, event) => events.push({ stationId, event }),
      clientAddress: () => '127.0.0.1',
      log: () => undefined,
      bounds: { keyRecheckMs: 2_000 },
    });
    server.removeAllListeners('upgrade');
    gateway.attach(server, () => true);
    const agent = await connect(KEY_3, [3]);
    await agent.next('welcome');
    const beat = async () => {
      clock.advance(500);
      const ping = await agent.next('ping');
      agent.sendJson({ v: 1, type: 'pong', t: ping.t, at: 0 });
    };
    for (let i = 0; i < 8; i += 1) await beat();
    expect(gateway.connected(3)).toBe(true);
    expired.add(KEY_3);
    for (let i = 0; i < 4; i += 1) await beat();
    expect((await agent.closed).code).toBe(AGENT_CLOSE.badKey);
    expect(eventsFor(3, 'gone')).toEqual([{ type: 'gone', reason: 'revoked' }]);
  });
});
