import { performance } from 'node:perf_hooks';
import { AgentConnection } from '../agent/agent-connection';
import { systemAgentClock } from '../agent/agent-clock';
import { openWsSocket, type OpenAgentSocket } from '../agent/agent-socket';
import { createSimDriver } from '../agent/drivers/sim-driver';
import type { MachineDriver } from '../agent/machine-driver';
import type { AgentButton } from '../src/contract/agent.schema';

/*
 * The agents bench:agent runs: the reference agent's AgentConnection with the sim driver, one per
 * station, each with its own WebSocket to the server, in the benchmark's process (the server runs
 * in its own). Each driver is wrapped to note when a press reaches it and when its release (the e-stop) or releaseAll has run,
 * on this process's clock, the one the players' calls are timed on.
 */

export interface DriverMark {
  readonly station: number;
  readonly at: number;
}
export interface PressMark extends DriverMark {
  readonly playId: number;
  readonly button: AgentButton;
  readonly command: 'press' | 'release';
}

export interface FleetListener {
  /** A press or release was handed to the driver (after the agent's seq and interlock checks). */
  control(mark: PressMark): void;
  /** The driver's release (an e-stop) or releaseAll returned: every output of the station is off. */
  released(mark: DriverMark): void;
}

/** The sim driver of one station, reporting to `listener` what reached it. */
function timedDriver(station: number, listener: FleetListener): MachineDriver {
  const sim = createSimDriver([{ station_id: station }], systemAgentClock);
  return {
    name: sim.name,
    stations: sim.stations,
    start: (events) => sim.start(events),
    status: (id) => sim.status(id),
    carryOut(id, command) {
      if (command.type === 'press' || command.type === 'release') {
        const { play_id: playId, button, type } = command;
        listener.control({ station: id, playId, button, command: type, at: performance.now() });
      }
      return sim.carryOut(id, command);
    },
    releaseAll() {
      sim.releaseAll();
      listener.released({ station, at: performance.now() });
    },
    // An e-stop releases the stopped station's outputs only (agent-connection.ts).
    release(id) {
      sim.release(id);
      listener.released({ station, at: performance.now() });
    },
    close: () => sim.close(),
  };
}

/** The gaps between pings each agent saw, in ms (its watchdog fires at 1 s). */
export class PingGaps {
  readonly gaps: number[] = [];
  private readonly last = new Map<number, number>();
  counting = false;

  seen(agent: number): void {
    const now = performance.now();
    const before = this.last.get(agent);
    if (this.counting && before !== undefined) this.gaps.push(now - before);
    this.last.set(agent, now);
  }
}

/** A socket that tells `gaps` of each ping before the connection reads it. */
const watchedSocket =
  (agent: number, gaps: PingGaps): OpenAgentSocket =>
  (url, handlers) =>
    openWsSocket(url, {
      ...handlers,
      message: (text) => {
        if (text?.includes('"type":"ping"')) gaps.seen(agent);
        handlers.message(text);
      },
    });

export class AgentFleet {
  readonly gaps = new PingGaps();
  private readonly connections: AgentConnection[] = [];
  private readonly drivers: MachineDriver[] = [];
  private welcomed = 0;
  private onWelcome: (() => void) | null = null;
  /** Lines other than connects (a refusal, a watchdog, a close): each one is a finding. */
  readonly incidents: string[] = [];

  constructor(
    private readonly server: string,
    private readonly listener: FleetListener,
  ) {}

  /** Starts one agent per station and resolves when every one was welcomed. */
  async start(stations: readonly { readonly id: number; readonly key: string }[]): Promise<void> {
    const all = new Promise<void>((resolve) => (this.onWelcome = resolve));
    for (const [index, { id, key }] of stations.entries()) {
      const driver = timedDriver(id, this.listener);
      const connection = new AgentConnection({
        server: this.server,
        key,
        version: 'bench',
        driver,
        clock: systemAgentClock,
        openSocket: watchedSocket(index, this.gaps),
        log: (line) => this.logged(id, line, stations.length),
      });
      await driver.start(connection.events);
      this.drivers.push(driver);
      this.connections.push(connection);
      connection.connect();
    }
    await all;
  }

  private logged(station: number, line: string, total: number): void {
    if (line.startsWith('connecting to')) return;
    if (!line.startsWith('connected:')) {
      this.incidents.push(`${(performance.now() / 1000).toFixed(1)} s, station ${station}: ${line}`);
      return;
    }
    this.welcomed += 1;
    if (this.welcomed === total) this.onWelcome?.();
  }

  async stop(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.stop()));
    await Promise.all(this.drivers.map((d) => d.close()));
  }
}
