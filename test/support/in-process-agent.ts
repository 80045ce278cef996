import WebSocket from 'ws';
import type { AgentClock } from '../../agent/agent-clock';
import { AgentConnection } from '../../agent/agent-connection';
import type { OpenAgentSocket } from '../../agent/agent-socket';
import { createSimDriver, type SimDriver } from '../../agent/drivers/sim-driver';
import { AGENT_MAX_FRAME_BYTES, AGENT_PATH } from '../../src/contract/agent.schema';
import type { Clock } from '../../server/clock';
import type { TestServer } from './test-server';

/*
 * The reference agent (its protocol side and its sim driver, agent/) inside the test's process,
 * over a real WebSocket to the test server's /agent, driving every station the way the demo's
 * agent process does for `npm start`. The server no longer plays a crane itself: a test that plays
 * one starts this agent.
 *
 * On a manual clock the agent runs on the server's own clock, and `settle()` is the tests' "what
 * fell due has been done": the rooms are idle and no frame is in flight either way (the frames
 * each end wrote equal the frames the other end read). Each of the agent's steps is synchronous
 * (the sim driver answers at once), so a frame read is a frame answered.
 */

/** The server's Clock as the agent's clock (epoch milliseconds rather than a monotonic count: only differences matter). */
export const agentClockOf = (clock: Clock): AgentClock => ({
  now: () => clock.now().getTime(),
  setTimeout: (task, delayMs) => clock.setTimeout(task, delayMs),
});

/** The server the agent drives stations of: listening at `origin`. */
export type AgentHost = Pick<TestServer, 'server' | 'origin'>;

/** How many event-loop turns `settle` waits for frames to arrive before it gives up with the counts. */
const SETTLE_TURNS = 10_000;

export class InProcessAgent {
  private out = 0;
  private in = 0;

  private constructor(
    readonly t: AgentHost,
    readonly driver: SimDriver,
    readonly connection: AgentConnection,
    readonly stationIds: readonly number[],
    private readonly sockets: Set<WebSocket>,
  ) {}

  /**
   * Puts `stationIds` (default: every station) on their agent, issues a key for them as an operator
   * would, and connects an agent on `clock` (the server's). Resolves once every station's machine
   * is reported ready to its room. The server must listen (`startTestServer({ listen: true })`).
   */
  static async start(
    t: AgentHost,
    options: { readonly clock: Clock; readonly stationIds?: readonly number[] },
  ): Promise<InProcessAgent> {
    if (!t.origin) throw new Error('InProcessAgent needs a listening test server (listen: true)');
    const services = t.server.services();
    const stationIds =
      options.stationIds ??
      (await t.server.store().query<{ station_id: number }>('SELECT station_id FROM stations ORDER BY station_id')).map(
        (r) => r.station_id,
      );
    const { key } = await services.stationKeys.issue({
      name: 'in-process agent',
      stationIds: [...stationIds],
      by: 'test',
    });
    const clock = agentClockOf(options.clock);
    const driver = createSimDriver(
      stationIds.map((station_id) => ({ station_id })),
      clock,
    );
    const sockets = new Set<WebSocket>();
    let agent: InProcessAgent | null = null;
    const openSocket: OpenAgentSocket = (url, handlers) => {
      const ws = new WebSocket(url, { maxPayload: AGENT_MAX_FRAME_BYTES, perMessageDeflate: false });
      sockets.add(ws);
      agent?.resetCounts();
      ws.on('open', () => handlers.open());
      ws.on('message', (data, isBinary) => {
        if (agent) agent.in += 1;
        handlers.message(isBinary ? null : data.toString());
      });
      ws.on('error', (error) => handlers.error(error.message));
      ws.on('close', (code, reason) => {
        sockets.delete(ws);
        handlers.close(code, reason.toString());
      });
      return {
        send(text) {
          if (ws.readyState !== WebSocket.OPEN) return;
          if (agent) agent.out += 1;
          ws.send(text);
        },
        close(code, reason) {
          if (ws.readyState === WebSocket.OPEN) ws.close(code, reason);
          else ws.terminate();
        },
      };
    };
    const connection = new AgentConnection({
      server: new URL(AGENT_PATH, t.origin.replace(/^http/, 'ws')).toString(),
      key,
      version: '0.0.0-test',
      driver,
      clock,
      openSocket,
      log: () => undefined,
      random: () => 0.5,
    });
    agent = new InProcessAgent(t, driver, connection, stationIds, sockets);
    await driver.start(connection.events);
    connection.connect();
    await agent.ready();
    return agent;
  }

  private resetCounts(): void {
    this.out = 0;
    this.in = 0;
  }

  /** Waits (on the event loop, not on time) until every station's agent is connected and has reported, and all is settled. */
  ready(): Promise<void> {
    const { agents } = this.t.server.services();
    return this.until('the in-process agent did not connect', () =>
      this.stationIds.every((id) => agents.connected(id) && agents.lastState(id) !== null),
    );
  }

  /** The rooms idle and no frame in flight: what fell due on the clock has been done at both ends. */
  settle(): Promise<void> {
    return this.until('frames still in flight', () => true);
  }

  /** Turns the event loop until the rooms are idle, nothing is in flight and `also` holds, twice in a row. */
  private async until(failure: string, also: () => boolean): Promise<void> {
    const { rooms } = this.t.server.services();
    const done = () => also() && this.quiet();
    for (let turn = 0; ; turn += 1) {
      await rooms.idle();
      if (done()) {
        await rooms.idle();
        if (done()) return;
      }
      if (turn > SETTLE_TURNS) throw new Error(`${failure}: ${this.counts()}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Whether nothing is in flight between the agent and the server. */
  private quiet(): boolean {
    const server = this.t.server.services().agents.traffic(this.stationIds[0]!);
    return server !== null && server.out === this.in && server.in === this.out;
  }

  private counts(): string {
    const server = this.t.server.services().agents.traffic(this.stationIds[0]!);
    return `server ${JSON.stringify(server)}, agent out ${this.out} in ${this.in}`;
  }

  /** Closes the connection and the driver (every output released). */
  async stop(): Promise<void> {
    await this.connection.stop();
    await this.driver.close();
    for (const ws of this.sockets) ws.terminate();
  }
}
