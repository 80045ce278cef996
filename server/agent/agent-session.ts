import type { RawData, WebSocket } from 'ws';
import {
  AGENT_CLOSE,
  AGENT_FRAMES_PER_STATION_SECOND,
  AGENT_PROTOCOL_VERSION,
  agentMessageSchema,
  type AgentCamera,
  type AgentCommand,
  type AgentHello,
  type AgentMessage,
  type StationCapabilities,
} from '../../src/contract/agent.schema';
import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import { TokenBucket } from './token-bucket';

/** What a verified station key grants. */
export interface AgentGrant {
  readonly keyId: string;
  readonly name: string;
  readonly stationIds: readonly number[];
}

/** The bounds the server keeps with every agent (AGENT_TIMINGS by default; tests shorten them). */
export interface AgentBounds {
  readonly heartbeatMs: number;
  readonly watchdogMs: number;
  readonly silenceMs: number;
  readonly helloMs: number;
  readonly commandsPerSecond: number;
  /** An open connection's key is checked again this often (a rotation's overlap may end while it is open). */
  readonly keyRecheckMs: number;
}

/** What one station's agent said, as the station's room hears it. */
export type AgentEvent =
  | {
      readonly type: 'connected';
      readonly keyId: string;
      readonly agent: AgentHello['agent'];
      readonly driver: string;
      readonly capabilities: StationCapabilities;
    }
  | { readonly type: 'state'; readonly state: Extract<AgentMessage, { type: 'state' }> }
  | {
      readonly type: 'ack';
      readonly ack: Extract<AgentMessage, { type: 'ack' }>;
      readonly command: AgentCommand | null;
    }
  | { readonly type: 'prize'; readonly prize: Extract<AgentMessage, { type: 'prize' }> }
  | { readonly type: 'fault'; readonly fault: Extract<AgentMessage, { type: 'fault' }> }
  /** The agent is gone for this station: silent past its bound, closed, replaced, or its key revoked. */
  | { readonly type: 'gone'; readonly reason: 'silent' | 'closed' | 'replaced' | 'revoked' | 'shutdown' };

/** What a session needs from the gateway that holds it. */
export interface SessionHost {
  readonly clock: Clock;
  readonly bounds: AgentBounds;
  verify(key: string): Promise<AgentGrant | null>;
  /** The session's stations are now driven by it (an older session holding one of them is replaced). */
  claim(session: AgentSession): void;
  /** An event from the agent for one of its stations. */
  inbound(session: AgentSession, stationId: number, event: AgentEvent): void;
  /** The session ended; its stations (those it still holds) are gone. */
  ended(session: AgentSession, reason: Extract<AgentEvent, { type: 'gone' }>['reason']): void;
  readonly log: (message: string, error?: unknown) => void;
}

type Phase = 'hello' | 'verifying' | 'active' | 'closed';

const GONE_BY_CODE: Partial<Record<number, Extract<AgentEvent, { type: 'gone' }>['reason']>> = {
  [AGENT_CLOSE.timeout]: 'silent',
  [AGENT_CLOSE.replaced]: 'replaced',
  [AGENT_CLOSE.badKey]: 'revoked',
  [AGENT_CLOSE.goingAway]: 'shutdown',
};

/**
 * One agent connection (docs/agent-protocol.md): hello within its bound → key verified → welcome;
 * then pings every heartbeat, and the agent's frames checked (JSON, schema, its own stations,
 * increasing sequence numbers, a frame budget) before they reach the stations' rooms. Silence past
 * the bound, a bad frame or a flood ends it with the close code that says why.
 */
export class AgentSession {
  private phase: Phase = 'hello';
  private helloTimer: ScheduledTask | null;
  private pinger: ScheduledTask | null = null;
  private frames: TokenBucket;
  private lastSeq = 0;
  private sentSeq = 0;
  /** When the agent was last heard (any valid frame). */
  lastHeardAt: number;
  /** The round trip of the last ping, in ms. */
  roundTripMs: number | null = null;
  grant: AgentGrant | null = null;
  hello: AgentHello | null = null;
  readonly connectedAt: number;
  private beats = 0;
  /** Frames ignored because their sequence number was not above the last one (replays). */
  replayed = 0;
  /** Frames written to the socket and frames read from it, any kind (the tests' "nothing in flight"). */
  framesOut = 0;
  framesIn = 0;
  /** The commands sent and not yet acknowledged, by seq (so an ack names its command). */
  private readonly pending = new Map<number, AgentCommand>();

  constructor(
    private readonly ws: WebSocket,
    readonly remote: string,
    private readonly host: SessionHost,
  ) {
    const now = host.clock.now().getTime();
    this.connectedAt = now;
    this.lastHeardAt = now;
    this.frames = new TokenBucket(AGENT_FRAMES_PER_STATION_SECOND, AGENT_FRAMES_PER_STATION_SECOND, now);
    this.helloTimer = host.clock.setTimeout(
      () => this.end(AGENT_CLOSE.timeout, 'no hello in time'),
      host.bounds.helloMs,
    );
    ws.on('message', (data, isBinary) => this.received(data, isBinary));
    ws.on('close', () => this.end(AGENT_CLOSE.normal, 'closed'));
    ws.on('error', () => this.end(AGENT_CLOSE.normal, 'socket error'));
  }

  /** The stations this session drives (once welcomed). */
  get stations(): readonly number[] {
    return this.hello?.stations.map((s) => s.station_id) ?? [];
  }

  get active(): boolean {
    return this.phase === 'active';
  }

  /** Sends a command; its sequence number. */
  send(stationId: number, command: AgentCommand): number {
    this.sentSeq += 1;
    this.pending.set(this.sentSeq, command);
    if (this.pending.size > 256) this.pending.delete(this.pending.keys().next().value!);
    this.frame({ v: AGENT_PROTOCOL_VERSION, type: 'command', seq: this.sentSeq, station_id: stationId, command });
    return this.sentSeq;
  }

  /** Tells the agent which of a station's cameras are watched now (a lease, docs/agent-protocol.md "Cameras"). */
  sendCameras(stationId: number, cameras: readonly AgentCamera[], leaseMs: number): void {
    this.frame({ v: AGENT_PROTOCOL_VERSION, type: 'cameras', station_id: stationId, cameras, lease_ms: leaseMs });
  }

  /** Whether the agent announced it publishes the station's cameras. */
  publishesCameras(stationId: number): boolean {
    return this.hello?.stations.find((s) => s.station_id === stationId)?.cameras === true;
  }

  /** Ends the session with a close code (idempotent); its stations are gone for the reason the code says. */
  end(code: number, reason: string): void {
    if (this.phase === 'closed') return;
    const wasActive = this.phase === 'active';
    this.phase = 'closed';
    this.helloTimer?.cancel();
    this.pinger?.cancel();
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) {
      this.ws.close(code, reason.slice(0, 120));
    }
    // A socket that does not close (a silent network) is cut after a grace period.
    const cut = this.host.clock.setTimeout(() => this.ws.terminate(), 2_000);
    this.ws.once('close', () => cut.cancel());
    if (wasActive) this.host.ended(this, GONE_BY_CODE[code] ?? 'closed');
  }

  private frame(message: unknown): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.framesOut += 1;
    this.ws.send(JSON.stringify(message));
  }

  private received(data: RawData, isBinary: boolean): void {
    this.framesIn += 1;
    if (this.phase === 'closed') return;
    const now = this.host.clock.now().getTime();
    // Counted before anything else: a flood costs one comparison a frame.
    if (!this.frames.take(now)) return this.end(AGENT_CLOSE.flood, 'too many frames');
    if (isBinary) return this.end(AGENT_CLOSE.badMessage, 'binary frames are not part of the protocol');
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch {
      return this.end(AGENT_CLOSE.badMessage, 'a frame is not JSON');
    }
    const parsed = agentMessageSchema.safeParse(json);
    if (!parsed.success) return this.end(AGENT_CLOSE.badMessage, 'a frame is not a message of protocol v1');
    const message = parsed.data;
    if (this.phase === 'hello') {
      if (message.type !== 'hello') return this.end(AGENT_CLOSE.badMessage, 'the first frame must be hello');
      void this.greet(message);
      return;
    }
    if (this.phase !== 'active') return; // frames before the key is verified are not read
    if (message.type === 'hello') return this.end(AGENT_CLOSE.badMessage, 'hello was already sent');
    this.lastHeardAt = now;
    if (message.type === 'pong') {
      this.roundTripMs = Math.max(0, now - message.t);
      return;
    }
    if (!this.stations.includes(message.station_id)) {
      return this.end(AGENT_CLOSE.forbiddenStation, `station ${message.station_id} is not served by this connection`);
    }
    // A replayed or reordered frame changes nothing [R11-1].
    if (message.seq <= this.lastSeq) {
      this.replayed += 1;
      return;
    }
    this.lastSeq = message.seq;
    switch (message.type) {
      case 'ack': {
        const command = this.pending.get(message.command_seq) ?? null;
        this.pending.delete(message.command_seq);
        return this.host.inbound(this, message.station_id, { type: 'ack', ack: message, command });
      }
      case 'state':
        return this.host.inbound(this, message.station_id, { type: 'state', state: message });
      case 'prize':
        return this.host.inbound(this, message.station_id, { type: 'prize', prize: message });
      case 'fault':
        return this.host.inbound(this, message.station_id, { type: 'fault', fault: message });
    }
  }

  private async greet(hello: AgentHello): Promise<void> {
    this.phase = 'verifying';
    this.helloTimer?.cancel();
    this.helloTimer = null;
    if (hello.v !== AGENT_PROTOCOL_VERSION) {
      return this.end(
        AGENT_CLOSE.unsupportedVersion,
        `protocol v${hello.v} is not spoken here (v${AGENT_PROTOCOL_VERSION})`,
      );
    }
    const ids = hello.stations.map((s) => s.station_id);
    if (new Set(ids).size !== ids.length) return this.end(AGENT_CLOSE.badMessage, 'a station is named twice');
    let grant: AgentGrant | null;
    try {
      grant = await this.host.verify(hello.key);
    } catch (error) {
      this.host.log('agent key check failed', error);
      return this.end(AGENT_CLOSE.goingAway, 'the key could not be checked now');
    }
    if ((this.phase as Phase) === 'closed') return;
    if (!grant) return this.end(AGENT_CLOSE.badKey, 'unknown, revoked or expired key');
    const refused = ids.find((id) => !grant.stationIds.includes(id));
    if (refused !== undefined)
      return this.end(AGENT_CLOSE.forbiddenStation, `the key does not name station ${refused}`);
    this.grant = grant;
    this.hello = hello;
    this.phase = 'active';
    this.lastHeardAt = this.host.clock.now().getTime();
    // Its budget grows with what it serves: a cabinet reports its claw up to 20 times a second.
    const rate = AGENT_FRAMES_PER_STATION_SECOND * ids.length;
    this.frames = new TokenBucket(rate, rate, this.lastHeardAt);
    this.host.claim(this);
    const { bounds } = this.host;
    this.frame({
      v: AGENT_PROTOCOL_VERSION,
      type: 'welcome',
      key_id: grant.keyId,
      stations: ids,
      heartbeat_ms: bounds.heartbeatMs,
      watchdog_ms: bounds.watchdogMs,
      silence_ms: bounds.silenceMs,
      commands_per_second: bounds.commandsPerSecond,
    });
    for (const capabilities of hello.stations) {
      this.host.inbound(this, capabilities.station_id, {
        type: 'connected',
        keyId: grant.keyId,
        agent: hello.agent,
        driver: hello.driver,
        capabilities,
      });
    }
    this.pinger = repeatEvery(this.host.clock, bounds.heartbeatMs, () => this.heartbeat());
  }

  private heartbeat(): void {
    const now = this.host.clock.now().getTime();
    if (now - this.lastHeardAt > this.host.bounds.silenceMs) return this.end(AGENT_CLOSE.timeout, 'silent');
    this.frame({ v: AGENT_PROTOCOL_VERSION, type: 'ping', t: now });
    // The key is checked again now and then (a minute): one whose rotation window ended closes the
    // connection as a revoked one does (a revocation closes it at once through the gateway).
    this.beats += 1;
    const every = Math.max(1, Math.round(this.host.bounds.keyRecheckMs / this.host.bounds.heartbeatMs));
    if (this.beats % every === 0) void this.recheck();
  }

  private async recheck(): Promise<void> {
    const grant = await this.host.verify(this.hello!.key).catch(() => this.grant);
    if (!grant && this.phase === 'active') this.end(AGENT_CLOSE.badKey, 'the key is no longer valid');
  }
}
