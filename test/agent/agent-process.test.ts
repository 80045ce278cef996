import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  AGENT_CLOSE,
  AGENT_PROTOCOL_VERSION,
  agentMessageSchema,
  type AgentCommand,
  type AgentMessage,
} from '../../src/contract/agent.schema';

/*
 * The real agent process (node --import tsx agent/main.ts) against a WebSocket server in this test
 * playing the server's part from a script. Every wait is on an event: a frame, a close, an exit.
 */

const KEY = 'sk_station_e2e_0123456789abcdef';
const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The server's end of one agent connection: every frame the agent sent, checked against the protocol. */
class Peer {
  private readonly received: AgentMessage[] = [];
  private waiters: { match: (m: AgentMessage) => boolean; resolve: (m: AgentMessage) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = agentMessageSchema.parse(JSON.parse(data.toString()));
      this.received.push(message);
      const waiter = this.waiters.find((w) => w.match(message));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(message);
      }
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: `${reason}` })),
    );
  }

  /** The first frame (already received or still to come) of `type` that `match` accepts, not taken before. */
  next<T extends AgentMessage['type']>(
    type: T,
    match: (m: Extract<AgentMessage, { type: T }>) => boolean = () => true,
  ): Promise<Extract<AgentMessage, { type: T }>> {
    const accepts = (m: AgentMessage): m is Extract<AgentMessage, { type: T }> =>
      m.type === type && match(m as Extract<AgentMessage, { type: T }>);
    const index = this.received.findIndex(accepts);
    if (index >= 0) return Promise.resolve(this.received.splice(index, 1)[0] as Extract<AgentMessage, { type: T }>);
    return new Promise((resolve) =>
      this.waiters.push({
        match: accepts,
        resolve: (m) => {
          this.received.splice(this.received.indexOf(m), 1);
          resolve(m as Extract<AgentMessage, { type: T }>);
        },
      }),
    );
  }

  send(message: object): void {
    this.socket.send(JSON.stringify({ v: AGENT_PROTOCOL_VERSION, ...message }));
  }

  welcome(stations: number[]): void {
    this.send({
      type: 'welcome',
      key_id: 'key-e2e',
      stations,
      heartbeat_ms: 500,
      watchdog_ms: 1_000,
      silence_ms: 3_000,
      commands_per_second: 25,
    });
  }

  command(seq: number, command: AgentCommand): void {
    this.send({ type: 'command', seq, station_id: 1, command });
  }
}

let folder: string;
let server: WebSocketServer;
let agent: ChildProcess | null = null;
let output = '';
let connections: Peer[] = [];
let connectionWaiters: (() => void)[] = [];
let heartbeat: NodeJS.Timeout | null = null;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'onkure-agent-e2e-'));
  server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/agent' });
  connections = [];
  connectionWaiters = [];
  server.on('connection', (socket) => {
    connections.push(new Peer(socket));
    for (const wake of connectionWaiters.splice(0)) wake();
  });
  await new Promise((resolve) => server.once('listening', resolve));
});

afterEach(async () => {
  if (heartbeat) clearInterval(heartbeat);
  heartbeat = null;
  const child = agent;
  agent = null;
  if (child && child.exitCode === null && child.signalCode === null) {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
  }
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

/** The n-th connection (1-based) the agent opens. */
async function connection(n: number): Promise<Peer> {
  while (connections.length < n) await new Promise<void>((resolve) => connectionWaiters.push(resolve));
  return connections[n - 1]!;
}

async function startAgent(): Promise<ChildProcess> {
  const { port } = server.address() as { port: number };
  const file = path.join(folder, 'machines.json');
  await writeFile(
    file,
    JSON.stringify({ server: `ws://127.0.0.1:${port}/agent`, driver: 'sim', stations: [{ station_id: 1 }] }),
  );
  output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'agent/main.ts', '--config', file], {
    env: { ...process.env, ONKURE_AGENT_KEY: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  agent = child;
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/** Welcomes the agent and pings it every heartbeat, as the server does. */
async function online(peer: Peer): Promise<void> {
  await peer.next('hello');
  peer.welcome([1]);
  let t = 0;
  heartbeat = setInterval(() => peer.send({ type: 'ping', t: (t += 500) }), 500);
}

describe('the agent process over the wire', () => {
  it('[R11-1] says hello, answers pings, carries out commands with acks and states, ignores a replay', async () => {
    await startAgent();
    const peer = await connection(1);
    const hello = await peer.next('hello');
    expect(hello).toEqual({
      v: AGENT_PROTOCOL_VERSION,
      type: 'hello',
      key: KEY,
      agent: { name: 'onkure-agent', version },
      driver: 'sim',
      stations: [{ station_id: 1, position: true, phases: true, chute_sensor: true, arm_strength: true }],
    });
    peer.welcome([1]);
    expect(await peer.next('state')).toMatchObject({ seq: 1, station_id: 1, play_id: null, claw: 'idle' });
    peer.send({ type: 'ping', t: 77 });
    expect(await peer.next('pong')).toMatchObject({ t: 77, at: expect.any(Number) });
    heartbeat = setInterval(() => peer.send({ type: 'ping', t: 78 }), 500);

    const layout = [{ id: 1, x: 380, z: 380, radius: 60, shape: 'plush', hue: 10 }] as const;
    peer.command(1, { type: 'start', play_id: 5, arm_strength: 1, sim: { seed: 1, layout: [...layout] } });
    expect(await peer.next('ack')).toMatchObject({ command_seq: 1, ok: true, tick: 0 });
    expect(await peer.next('state', (s) => s.play_id === 5)).toMatchObject({ claw: 'ready', sensor: 'clear' });
    peer.command(2, { type: 'press', play_id: 5, button: 'right' });
    expect(await peer.next('ack')).toMatchObject({ command_seq: 2, ok: true });
    expect(await peer.next('state', (s) => s.claw === 'moving_right')).toMatchObject({ outputs: ['right'] });
    peer.command(2, { type: 'release', play_id: 5, button: 'right' });
    expect(await peer.next('ack')).toMatchObject({ command_seq: 2, ok: false, reason: 'stale' });
    peer.command(3, { type: 'release', play_id: 5, button: 'right' });
    expect(await peer.next('ack')).toMatchObject({ command_seq: 3, ok: true });
    expect(await peer.next('state', (s) => s.claw === 'wait_back')).toMatchObject({ outputs: [] });
  });

  it('exits non-zero without dialing again when the server refuses its key (4401)', async () => {
    const child = await startAgent();
    const peer = await connection(1);
    await peer.next('hello');
    peer.socket.close(AGENT_CLOSE.badKey, 'unknown key');
    expect(await exited(child)).toBe(3);
    expect(output).toMatch(/closed by the server: 4401 unknown key; the station key was refused .*; not reconnecting/);
    expect(connections).toHaveLength(1);
  });

  it('[R11-3] on SIGTERM releases the held button, reports it, closes 1000 and exits 0', async () => {
    const child = await startAgent();
    const peer = await connection(1);
    await online(peer);
    peer.command(1, { type: 'start', play_id: 9, arm_strength: 0.5 });
    await peer.next('ack');
    peer.command(2, { type: 'press', play_id: 9, button: 'right' });
    const pressed = await peer.next('state', (s) => s.outputs.includes('right'));
    child.kill('SIGTERM');
    expect(await peer.next('state', (s) => s.seq > pressed.seq)).toMatchObject({
      claw: 'wait_back',
      play_id: 9,
      outputs: [],
    });
    expect(await peer.closed).toEqual({ code: AGENT_CLOSE.normal, reason: 'agent stopping' });
    expect(await exited(child)).toBe(0);
  });

  it('[R11-2] without pings its watchdog releases the held button and faults; past the link bound it closes 4408 and dials again', async () => {
    await startAgent();
    const peer = await connection(1);
    await peer.next('hello');
    peer.welcome([1]);
    peer.command(1, { type: 'start', play_id: 9, arm_strength: 0.5 });
    await peer.next('ack');
    peer.command(2, { type: 'press', play_id: 9, button: 'right' });
    const pressed = await peer.next('state', (s) => s.outputs.includes('right'));
    expect(await peer.next('fault')).toMatchObject({ station_id: 1, code: 'watchdog' });
    // The button is let go: a state with nothing energised follows.
    expect(await peer.next('state', (s) => s.seq > pressed.seq && s.outputs.length === 0)).toMatchObject({
      outputs: [],
    });
    expect((await peer.closed).code).toBe(AGENT_CLOSE.timeout);
    await (await connection(2)).next('hello');
  });
});
