import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import {
  AGENT_CLOSE,
  AGENT_COMMANDS_PER_SECOND,
  AGENT_MAX_FRAME_BYTES,
  AGENT_PATH,
  AGENT_TIMINGS,
  type AgentButton,
  type AgentCamera,
  type AgentCommand,
  type AgentCommandType,
} from '../../src/contract/agent.schema';
import type { Clock } from '../clock';
import { refuseUpgrade, requestUrl } from '../http/upgrade-request';
import { AgentSession, type AgentBounds, type AgentEvent, type AgentGrant, type SessionHost } from './agent-session';
import { TokenBucket } from './token-bucket';

export type { AgentEvent, AgentGrant, AgentBounds } from './agent-session';

/** How the gateway checks a station key (server/agent/station-keys.ts). */
export interface AgentKeyCheck {
  verify(key: string): Promise<AgentGrant | null>;
}

export interface AgentGatewayOptions {
  readonly clock: Clock;
  readonly keys: AgentKeyCheck;
  /** Where a station's agent events go (its room). Synchronous; never throws back into the gateway. */
  readonly sink: (stationId: number, event: AgentEvent) => void;
  /** The client's address (the socket's, or a trusted proxy's X-Forwarded-For). */
  readonly clientAddress: (request: IncomingMessage) => string;
  /** With an error: a failure (an error line); without: a warning (server/logging/log-context.ts serviceLog). */
  readonly log: (message: string, error?: unknown) => void;
  readonly bounds?: Partial<AgentBounds>;
}

/** Why a command did not go out (nothing was sent). */
export type CommandRefused = 'noAgent' | 'limited' | 'interlock';
export type CommandSent =
  { readonly sent: true; readonly seq: number } | { readonly sent: false; readonly refused: CommandRefused };

/** Commands that always go out: the operator's safety and recovery, never held back by the rate limit. */
const UNLIMITED: ReadonlySet<AgentCommandType> = new Set(['stop', 'resume', 'home']);

/** One station's agent, as the console shows it. */
export interface StationAgentView {
  readonly stationId: number;
  readonly keyId: string;
  readonly keyName: string;
  readonly agentName: string;
  readonly agentVersion: string;
  readonly driver: string;
  readonly remote: string;
  readonly connectedAt: number;
  readonly lastHeardAt: number;
  readonly roundTripMs: number | null;
}

interface StationLink {
  readonly session: AgentSession;
  /** The agent's last report of the station. */
  state: Extract<AgentEvent, { type: 'state' }>['state'] | null;
  readonly commands: TokenBucket;
  /** The direction button held now (as commanded), for the interlock. */
  held: AgentButton | null;
}

/**
 * The server's end of the station agent protocol (docs/agent-protocol.md): agents dial `/agent`,
 * each connection is an AgentSession; the gateway knows which session drives which station (one at
 * a time: a newer connection for a station replaces the older, closed 4409), carries the rooms'
 * commands out to them (25 a second per station, opposite directions interlocked, the operator's
 * stop, resume and home never held back) and hands what the agents say to the rooms.
 */
export class AgentGateway {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: AGENT_MAX_FRAME_BYTES,
    perMessageDeflate: false,
  });
  private readonly sessions = new Set<AgentSession>();
  private readonly links = new Map<number, StationLink>();
  private readonly bounds: AgentBounds;
  private readonly host: SessionHost;

  constructor(private readonly options: AgentGatewayOptions) {
    this.bounds = {
      heartbeatMs: AGENT_TIMINGS.heartbeatMs,
      watchdogMs: AGENT_TIMINGS.watchdogMs,
      silenceMs: AGENT_TIMINGS.silenceMs,
      helloMs: AGENT_TIMINGS.helloMs,
      commandsPerSecond: AGENT_COMMANDS_PER_SECOND,
      keyRecheckMs: 60_000,
      ...options.bounds,
    };
    this.host = {
      clock: options.clock,
      bounds: this.bounds,
      log: options.log,
      verify: (key) => options.keys.verify(key),
      claim: (session) => this.claim(session),
      inbound: (session, stationId, event) => this.inbound(session, stationId, event),
      ended: (session, reason) => this.ended(session, reason),
    };
  }

  /** Takes the HTTP server's upgrades for the agent path; other paths are left to their owners. */
  attach(server: Server, ready: () => boolean): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (requestUrl(request)?.pathname !== AGENT_PATH) return;
      if (!ready()) return refuseUpgrade(socket, '503 Service Unavailable');
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        const session = new AgentSession(ws, this.options.clientAddress(request), this.host);
        this.sessions.add(session);
        ws.once('close', () => this.sessions.delete(session));
      });
    });
  }

  /** Sends a command to a station's agent, or says why it did not go out. */
  command(stationId: number, command: AgentCommand): CommandSent {
    const link = this.links.get(stationId);
    if (!link || !link.session.active) return { sent: false, refused: 'noAgent' };
    if (command.type === 'press' && link.held !== null && link.held !== command.button) {
      return { sent: false, refused: 'interlock' };
    }
    if (!UNLIMITED.has(command.type) && !link.commands.take(this.options.clock.now().getTime())) {
      return { sent: false, refused: 'limited' };
    }
    if (command.type === 'press') link.held = command.button;
    else if ((command.type === 'release' && link.held === command.button) || command.type === 'stop') link.held = null;
    else if (command.type === 'drop' || command.type === 'start' || command.type === 'home') link.held = null;
    return { sent: true, seq: link.session.send(stationId, command) };
  }

  /**
   * Tells the station's agent which cameras are watched (a lease), when the agent here publishes
   * them; answers whether it went out.
   */
  cameras(stationId: number, cameras: readonly AgentCamera[], leaseMs: number): boolean {
    const link = this.links.get(stationId);
    if (!link?.session.active || !link.session.publishesCameras(stationId)) return false;
    link.session.sendCameras(stationId, cameras, leaseMs);
    return true;
  }

  /** Whether an agent drives the station now. */
  connected(stationId: number): boolean {
    return this.links.get(stationId)?.session.active ?? false;
  }

  /** What the agent driving a station here last reported of it (null: none here, or no report yet). */
  lastState(stationId: number): Extract<AgentEvent, { type: 'state' }>['state'] | null {
    const link = this.links.get(stationId);
    return link?.session.active ? link.state : null;
  }

  /** The agents driving stations now, one row per station. */
  agents(): StationAgentView[] {
    return [...this.links.entries()]
      .filter(([, link]) => link.session.active)
      .map(([stationId, { session }]) => ({
        stationId,
        keyId: session.grant!.keyId,
        keyName: session.grant!.name,
        agentName: session.hello!.agent.name,
        agentVersion: session.hello!.agent.version,
        driver: session.hello!.driver,
        remote: session.remote,
        connectedAt: session.connectedAt,
        lastHeardAt: session.lastHeardAt,
        roundTripMs: session.roundTripMs,
      }))
      .sort((a, b) => a.stationId - b.stationId);
  }

  /** Closes every connection made with a key (it was revoked): 4401, the agent does not come back with it. */
  revoked(keyId: string): number {
    let closed = 0;
    for (const session of [...this.sessions]) {
      if (session.grant?.keyId !== keyId) continue;
      session.end(AGENT_CLOSE.badKey, 'the key was revoked');
      closed += 1;
    }
    return closed;
  }

  /**
   * The frames of the connection driving a station, each way (null: none drives it). Equal counts
   * at both ends mean nothing is in flight between them.
   */
  traffic(stationId: number): { readonly out: number; readonly in: number } | null {
    const session = this.links.get(stationId)?.session;
    return session?.active ? { out: session.framesOut, in: session.framesIn } : null;
  }

  /** Open connections (welcomed or not). */
  get connections(): number {
    return this.sessions.size;
  }

  /** Ends every connection (the instance stops: the agents reconnect to another). */
  close(): void {
    for (const session of [...this.sessions]) session.end(AGENT_CLOSE.goingAway, 'server going away');
    this.wss.close();
  }

  private claim(session: AgentSession): void {
    const now = this.options.clock.now().getTime();
    const older = new Set<AgentSession>();
    for (const stationId of session.stations) {
      const before = this.links.get(stationId);
      if (before && before.session !== session) older.add(before.session);
      this.links.set(stationId, {
        session,
        commands: new TokenBucket(this.bounds.commandsPerSecond, this.bounds.commandsPerSecond, now),
        held: null,
        state: null,
      });
    }
    // Never two: the older connection goes, whole (it may serve other stations; they are gone too).
    for (const old of older) old.end(AGENT_CLOSE.replaced, 'another connection took over a station');
  }

  private inbound(session: AgentSession, stationId: number, event: AgentEvent): void {
    const link = this.links.get(stationId);
    if (link?.session !== session) return;
    if (event.type === 'state') link.state = event.state;
    this.deliver(stationId, event);
  }

  private ended(session: AgentSession, reason: Extract<AgentEvent, { type: 'gone' }>['reason']): void {
    for (const stationId of session.stations) {
      // A station a newer connection took over is not gone.
      if (this.links.get(stationId)?.session !== session) continue;
      this.links.delete(stationId);
      this.deliver(stationId, { type: 'gone', reason });
    }
  }

  private deliver(stationId: number, event: AgentEvent): void {
    try {
      this.options.sink(stationId, event);
    } catch (error) {
      this.options.log(`agent event for station ${stationId} failed`, error);
    }
  }
}
