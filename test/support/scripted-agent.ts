import { WebSocket } from 'ws';
import type { AgentClawPhase, AgentCommandMessage, AgentServerMessage } from '../../src/contract/agent.schema';

/*
 * An agent the test scripts, over a real WebSocket to the real server: it says what the test makes
 * it say (frames that a real agent never sends: replays, forgeries, garbage, floods) and, when asked,
 * plays a simple cabinet — every command acknowledged and the claw's phase reported after it — so a
 * play can run to its result with the test in charge of every frame.
 */

export const simCapabilities = (station_id: number) => ({
  station_id,
  position: false,
  phases: true,
  chute_sensor: true,
  arm_strength: false,
});

export const helloFrame = (key: string, stations: number[]) => ({
  v: 1,
  type: 'hello',
  key,
  agent: { name: 'scripted-agent', version: '0.0.1' },
  driver: 'scripted',
  stations: stations.map(simCapabilities),
});

/** The phase the scripted cabinet is in after a command (the drop ends at idle once the test says so). */
const AFTER: Record<string, AgentClawPhase> = {
  start: 'ready',
  'press right': 'moving_right',
  'release right': 'wait_back',
  'press back': 'moving_back',
  'release back': 'dropping',
  drop: 'dropping',
};

export class ScriptedAgent {
  readonly received: AgentServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Every frame this agent sent, as sent (so a test can replay one). */
  readonly sent: Record<string, unknown>[] = [];
  private seq = 0;
  private playId: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as AgentServerMessage;
      this.received.push(message);
      if (message.type === 'ping') this.sendJson({ v: 1, type: 'pong', t: message.t, at: 0 });
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

  sendJson(message: Record<string, unknown>): void {
    this.sent.push(message);
    this.ws.send(JSON.stringify(message));
  }

  /** A numbered frame (the next sequence number). */
  report(message: Record<string, unknown>): void {
    this.seq += 1;
    this.sendJson({ v: 1, seq: this.seq, ...message });
  }

  state(stationId: number, claw: AgentClawPhase): void {
    this.report({
      type: 'state',
      station_id: stationId,
      at: 0,
      play_id: claw === 'idle' ? null : this.playId,
      claw,
      sensor: 'clear',
      stopped: false,
      outputs: [],
    });
  }

  /** Plays a cabinet from now on: each command acknowledged, the claw's phase reported after it. */
  cabinet(stationId: number): void {
    this.ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as AgentServerMessage;
      if (message.type !== 'command') return;
      const { command } = message as AgentCommandMessage;
      if ('play_id' in command) this.playId = command.play_id;
      this.report({ type: 'ack', station_id: stationId, command_seq: message.seq, ok: true, tick: 0 });
      const after = AFTER['button' in command ? `${command.type} ${command.button}` : command.type];
      if (after) this.state(stationId, after);
    });
  }

  close(): void {
    this.ws.terminate();
  }
}
