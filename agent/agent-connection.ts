import {
  AGENT_CLOSE,
  AGENT_PROTOCOL_VERSION,
  AGENT_TIMINGS,
  serverMessageSchema,
  type AgentButton,
  type AgentCamerasMessage,
  type AgentCommand,
  type AgentCommandMessage,
  type AgentMessage,
  type AgentWelcome,
} from '../src/contract/agent.schema';
import type { AgentClock, AgentTimer } from './agent-clock';
import type { AgentSocket, OpenAgentSocket } from './agent-socket';
import { HoldLimits } from './hold-limits';
import { Backoff, FATAL_CLOSE_CODES, refusalHint } from './reconnect-policy';
import type { CommandOutcome, MachineDriver, MachineEvents } from './machine-driver';

/*
 * The protocol side of the reference agent (docs/agent-protocol.md): it dials the server, says
 * hello, answers pings, checks each command's sequence number and the interlock before handing it
 * to the driver, and reports the driver's events. Its safety does not rely on the server: its
 * watchdog releases every output when pings stop, and it releases a button held past the machine's
 * own limit.
 */

export interface AgentConnectionOptions {
  /** The server's agent address, ws://…/agent or wss://…/agent. */
  readonly server: string;
  readonly key: string;
  /** This agent's version (package.json), announced in the hello. */
  readonly version: string;
  readonly driver: MachineDriver;
  readonly clock: AgentClock;
  readonly openSocket: OpenAgentSocket;
  /** One line per connect, close and refusal. */
  readonly log: (line: string) => void;
  /** The server's camera leases (docs/agent-protocol.md "Cameras"), for an agent that publishes its cameras. */
  readonly cameras?: (lease: AgentCamerasMessage) => void;
  /** [0, 1): the reconnect jitter (injected so tests know the waits). */
  readonly random?: () => number;
}

/** Each station's state is sent again every this many pings, changed or not (docs/agent-protocol.md). */
const STATE_EVERY_PINGS = 4;

/** Why the connection ended for good. */
export type AgentEnd =
  { readonly kind: 'stopped' } | { readonly kind: 'refused'; readonly code: number; readonly reason: string };

type Frame = AgentMessage extends infer M ? (M extends { seq: number } ? Omit<M, 'seq' | 'v'> : never) : never;
type KeptPrize = { playId: number | null; prizeId?: number; at: number };

export class AgentConnection {
  /** Wire these to the driver: `driver.start(connection.events)`. */
  readonly events: MachineEvents;
  /** Resolves when the connection ends for good: stopped, or refused by a close code it must not retry. */
  readonly done: Promise<AgentEnd>;

  private socket: AgentSocket | null = null;
  /** Counts sockets, so late events of an abandoned one are ignored. */
  private generation = 0;
  private welcome: AgentWelcome | null = null;
  private pings = 0;
  private stations = new Set<number>();
  private outSeq = 0;
  private lastCommandSeq = 0;
  private watchdog: AgentTimer | null = null;
  /** The link's own bound (the welcome's silence_ms): no ping that long and the socket is given up. */
  private silence: AgentTimer | null = null;
  private reconnect: AgentTimer | null = null;
  private readonly backoff: Backoff;
  private ended = false;
  private readonly keptPrizes = new Map<number, KeptPrize>();
  private readonly holds: HoldLimits;
  private readonly backlog: { station: number; run: () => void | Promise<void>; refuse: () => void }[] = [];
  private busy = false;
  private resolveDone!: (end: AgentEnd) => void;
  /** The socket `stop` closes, and who waits for it to be closed. */
  private stopping: { generation: number; closed: () => void } | null = null;

  constructor(private readonly options: AgentConnectionOptions) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.backoff = new Backoff(options.random);
    this.holds = new HoldLimits(options.clock, (station, button) => this.holdLimitReached(station, button));
    this.events = {
      status: (station, status) => {
        this.holds.observe(station, status.outputs);
        this.send({
          type: 'state',
          station_id: station,
          at: this.options.clock.now(),
          play_id: status.playId,
          claw: status.claw,
          sensor: status.sensor,
          stopped: status.stopped,
          outputs: [...status.outputs],
          ...(status.clawPosition ? { claw_position: { ...status.clawPosition } } : {}),
          ...(status.sim ? { sim: { tick: status.sim.tick, prizes: [...status.sim.prizes] } } : {}),
        });
      },
      prize: (station, playId, prizeId) => {
        const prize: KeptPrize = {
          playId,
          at: this.options.clock.now(),
          ...(prizeId === undefined ? {} : { prizeId }),
        };
        // The win is what the sensor saw: kept (the latest per station) until a server hears it.
        if (!this.sendPrize(station, prize)) this.keptPrizes.set(station, prize);
      },
      fault: (station, code, text) => this.send({ type: 'fault', station_id: station, code, text: text.slice(0, 200) }),
    };
  }

  /** Dials the server (and again after each close, until refused or stopped). */
  connect(): void {
    if (this.ended || this.socket) return;
    this.reconnect?.cancel();
    this.reconnect = null;
    const generation = ++this.generation;
    const mine = () => generation === this.generation;
    this.options.log(`connecting to ${this.options.server}`);
    this.socket = this.options.openSocket(this.options.server, {
      open: () => mine() && this.opened(),
      message: (text) => mine() && this.received(text),
      error: (message) => mine() && this.options.log(`socket error: ${message}`),
      close: (code, reason) => {
        if (mine()) this.lost(code, reason, 'server');
        else if (this.stopping?.generation === generation) this.stopping.closed();
      },
    });
  }

  /** Ends for good: closes 1000 and waits (at most 1 s) for the socket to close. Outputs are the caller's. */
  stop(): Promise<void> {
    const socket = this.socket;
    this.finish({ kind: 'stopped' });
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => {
      const cap = this.options.clock.setTimeout(resolve, 1_000);
      this.stopping = {
        generation: this.generation,
        closed: () => {
          cap.cancel();
          resolve();
        },
      };
      this.abandon(AGENT_CLOSE.normal, 'agent stopping');
    });
  }

  /** The bounds the server gave in its welcome (null before one). */
  get bounds(): AgentWelcome | null {
    return this.welcome;
  }

  private opened(): void {
    const { driver, key, version } = this.options;
    // Until the welcome the wait is the hello bound: the server checks the key first (a store
    // round trip, up to helloMs), and nothing is driven before the welcome, so no output is at risk.
    this.armWatchdog(AGENT_TIMINGS.helloMs, 'welcome');
    this.socket!.send(
      JSON.stringify({
        v: AGENT_PROTOCOL_VERSION,
        type: 'hello',
        key,
        agent: { name: 'onkure-agent', version },
        driver: driver.name,
        stations: driver.stations,
      }),
    );
  }

  private received(text: string | null): void {
    let parsed: unknown;
    try {
      parsed = text === null ? null : JSON.parse(text);
    } catch {
      parsed = null;
    }
    const result = serverMessageSchema.safeParse(parsed);
    const message = result.success ? result.data : null;
    const outOfTurn =
      message?.type === 'welcome'
        ? this.welcome !== null
        : (message?.type === 'command' || message?.type === 'cameras') && this.welcome === null;
    if (!message || outOfTurn) {
      // Not a message of this protocol, a second welcome, or a command before the welcome.
      this.options.log(`bad frame from the server (${describe(text)}): closing 4400`);
      return this.drop(AGENT_CLOSE.badMessage, 'bad message');
    }
    if (message.type === 'welcome') return this.welcomed(message);
    if (message.type === 'ping') {
      // A ping before the welcome (the server sends none) leaves the hello bound as it is.
      if (this.welcome) {
        this.armWatchdog(this.welcome.watchdog_ms, 'ping');
        this.armSilence(this.welcome.silence_ms);
      }
      this.socket!.send(
        JSON.stringify({ v: AGENT_PROTOCOL_VERSION, type: 'pong', t: message.t, at: this.options.clock.now() }),
      );
      // Every fourth ping (2 s) each station's state again: an instance that took its room over
      // after a restart learns the machine from it, even while nothing changes.
      this.pings += 1;
      if (this.pings % STATE_EVERY_PINGS === 0)
        for (const station of this.stations) this.events.status(station, this.options.driver.status(station));
      return;
    }
    if (message.type === 'cameras') {
      // A lease for a station this connection serves; an agent without cameras ignores it.
      if (this.stations.has(message.station_id)) this.options.cameras?.(message);
      return;
    }
    this.command(message);
  }

  private welcomed(welcome: AgentWelcome): void {
    const served = new Set(this.options.driver.stations.map((s) => s.station_id));
    this.welcome = welcome;
    this.stations = new Set(welcome.stations.filter((id) => served.has(id)));
    this.backoff.reset();
    this.armWatchdog(welcome.watchdog_ms, 'ping');
    this.armSilence(welcome.silence_ms);
    this.options.log(`connected: key ${welcome.key_id}, stations ${[...this.stations].join(', ') || 'none'}`);
    // A prize the sensor saw while away goes first: the server must not conclude a miss from the state.
    for (const [station, prize] of this.keptPrizes) this.sendPrize(station, prize);
    this.keptPrizes.clear();
    for (const station of this.stations) this.events.status(station, this.options.driver.status(station));
  }

  private command({ seq, station_id: station, command }: AgentCommandMessage): void {
    if (seq <= this.lastCommandSeq) return this.ack(seq, station, { ok: false, reason: 'stale' }); // [R11-1]
    this.lastCommandSeq = seq;
    if (!this.stations.has(station)) return this.ack(seq, station, { ok: false, reason: 'unknown_station' });
    const generation = this.generation;
    const task = {
      station,
      run: () => this.carryOut(generation, seq, station, command),
      refuse: () => this.ack(seq, station, { ok: false, reason: 'stopped' }),
    };
    if (command.type !== 'stop') return this.enqueue(task);
    // An emergency stop: the station's outputs off now, before anything queued (another station's
    // command in flight included); what was queued for the station is refused. The other stations
    // this agent drives keep their players' buttons.
    this.holds.clear(station);
    this.options.driver.release(station);
    for (const queued of this.backlog.filter((t) => t.station === station)) queued.refuse();
    this.backlog.splice(0, this.backlog.length, task, ...this.backlog.filter((t) => t.station !== station));
    this.drain();
  }

  private carryOut(generation: number, seq: number, station: number, command: AgentCommand): void | Promise<void> {
    const { driver } = this.options;
    const finish = (outcome: CommandOutcome) => {
      if (generation !== this.generation) return;
      if (outcome.ok && command.type === 'press') this.holds.pressed(station, command.button);
      this.ack(seq, station, outcome);
    };
    const failed = (error: unknown) => {
      this.options.log(`driver failed on ${command.type} at station ${station}: ${String(error)}`);
      finish({ ok: false, reason: 'driver' });
    };
    try {
      if (command.type === 'press' && driver.status(station).outputs.includes(opposite(command.button))) {
        return finish({ ok: false, reason: 'interlock' });
      }
      const outcome = driver.carryOut(station, command);
      if (outcome instanceof Promise) return outcome.then(finish, failed);
      finish(outcome);
    } catch (error) {
      failed(error);
    }
  }

  /** Runs commands one after another: a driver may take time (a relay), and the order is the server's. */
  private enqueue(task: (typeof this.backlog)[number]): void {
    this.backlog.push(task);
    this.drain();
  }

  private drain(): void {
    if (this.busy) return;
    this.busy = true;
    for (let task = this.backlog.shift(); task; task = this.backlog.shift()) {
      const pending = task.run();
      if (pending) {
        void pending.finally(() => {
          this.busy = false;
          this.drain();
        });
        return;
      }
    }
    this.busy = false;
  }

  private ack(seq: number, station: number, outcome: CommandOutcome): void {
    if (!outcome.ok) this.options.log(`refused command ${seq} at station ${station}: ${outcome.reason}`);
    this.send({
      type: 'ack',
      station_id: station,
      command_seq: seq,
      ok: outcome.ok,
      ...(outcome.ok ? (outcome.tick === undefined ? {} : { tick: outcome.tick }) : { reason: outcome.reason }),
    });
  }

  private holdLimitReached(station: number, button: AgentButton): void {
    const { driver } = this.options;
    const limit = AGENT_TIMINGS.holdLimitMs / 1000;
    this.options.log(`station ${station}: ${button} held past ${limit} s, released`);
    const playId = driver.status(station).playId;
    const outcome =
      playId === null ? null : safely(() => driver.carryOut(station, { type: 'release', play_id: playId, button }));
    // A driver that could not release that one button at once releases them all.
    if (outcome === null || outcome instanceof Promise || driver.status(station).outputs.includes(button)) {
      this.releaseAll();
    }
    this.events.fault(station, 'hold_limit', `${button} held past the machine's limit of ${limit} s; released`);
  }

  private releaseAll(): void {
    this.holds.clear();
    this.options.driver.releaseAll();
  }

  /** Arms the watchdog: no welcome (after the hello) or no ping (after the welcome) within `ms`. */
  private armWatchdog(ms: number, awaiting: 'welcome' | 'ping'): void {
    this.watchdog?.cancel();
    this.watchdog = this.options.clock.setTimeout(() => this.watchdogFired(ms, awaiting), ms);
  }

  /**
   * No welcome within the hello bound: the server is not there; dial again. No ping for the 1 s
   * watchdog: every output goes off at once, and each station that had one energised (a press cut
   * short changes the play) reports a fault, so its play is completed or refunded by the server. The
   * socket stays: a server whose event loop was late by a second is not a dead one, and closing
   * every agent's socket at once would turn one late heartbeat into a reconnect storm. The link
   * itself ends at the welcome's `silence_ms` (armSilence), the bound the server keeps too.
   */
  private watchdogFired(ms: number, awaiting: 'welcome' | 'ping'): void {
    this.watchdog = null;
    if (awaiting === 'welcome') {
      this.options.log(`no welcome for ${ms} ms: every output released, reconnecting`);
      this.releaseAll();
      this.drop(AGENT_CLOSE.timeout, 'no welcome');
      return;
    }
    const energised = [...this.stations].filter((station) => this.options.driver.status(station).outputs.length > 0);
    this.releaseAll();
    this.options.log(
      `no ping for ${ms} ms: every output released${energised.length > 0 ? ` (stations ${energised.join(', ')} in fault)` : ''}`,
    );
    for (const station of energised)
      this.events.fault(station, 'watchdog', `no ping from the server for ${ms} ms; outputs released`);
  }

  /** Arms the link's bound: no ping within `ms` and the socket is closed 4408 and dialed again. */
  private armSilence(ms: number): void {
    this.silence?.cancel();
    this.silence = this.options.clock.setTimeout(() => {
      this.silence = null;
      this.options.log(`no ping for ${ms} ms: every output released, reconnecting`);
      this.releaseAll();
      this.drop(AGENT_CLOSE.timeout, 'no ping');
    }, ms);
  }

  /** Closes the socket from this side and carries on as after any close. */
  private drop(code: number, reason: string): void {
    this.abandon(code, reason);
    this.lost(code, reason, 'agent');
  }

  private abandon(code: number, reason: string): void {
    const socket = this.socket;
    this.generation += 1;
    this.socket = null;
    socket?.close(code, reason);
  }

  /** The socket is gone: nobody drives the machine now, so every output goes off. */
  private lost(code: number, reason: string, by: 'server' | 'agent'): void {
    this.socket = null;
    this.generation += 1;
    this.welcome = null;
    this.stations = new Set();
    this.outSeq = 0;
    this.lastCommandSeq = 0;
    this.watchdog?.cancel();
    this.watchdog = null;
    this.silence?.cancel();
    this.silence = null;
    this.backlog.length = 0;
    this.releaseAll();
    if (this.ended) return;
    const who = by === 'agent' ? 'closed by the agent' : code === 1006 ? 'connection lost' : 'closed by the server';
    const text = `${who}: ${code}${reason ? ` ${reason}` : ''}`;
    if (by === 'server' && FATAL_CLOSE_CODES.has(code)) {
      this.options.log(`${text}; ${refusalHint(code)}; not reconnecting`);
      this.finish({ kind: 'refused', code, reason });
      return;
    }
    if (code === AGENT_CLOSE.flood) this.backoff.slowDown();
    const wait = this.backoff.next();
    this.options.log(`${text}; reconnecting in ${Math.round(wait)} ms`);
    this.reconnect = this.options.clock.setTimeout(() => this.connect(), wait);
  }

  private finish(end: AgentEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.reconnect?.cancel();
    this.watchdog?.cancel();
    this.silence?.cancel();
    this.holds.clear();
    this.resolveDone(end);
  }

  private sendPrize(station: number, prize: KeptPrize): boolean {
    return this.send({
      type: 'prize',
      station_id: station,
      play_id: prize.playId,
      at: prize.at,
      ...(prize.prizeId === undefined ? {} : { prize_id: prize.prizeId }),
    });
  }

  /** Sends a numbered frame (a report only for a welcomed station); false (dropped) while disconnected. */
  private send(frame: Frame): boolean {
    if (!this.socket || !this.welcome) return false;
    if (frame.type !== 'ack' && !this.stations.has(frame.station_id)) return false;
    this.socket.send(JSON.stringify({ v: AGENT_PROTOCOL_VERSION, ...frame, seq: ++this.outSeq }));
    return true;
  }
}

const opposite = (button: AgentButton): AgentButton => (button === 'right' ? 'back' : 'right');

function safely<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null;
  }
}

const describe = (text: string | null): string =>
  text === null ? 'binary' : text.length > 80 ? `${text.slice(0, 80)}…` : text;
