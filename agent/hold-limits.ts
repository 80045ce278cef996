import { AGENT_BUTTONS, AGENT_TIMINGS, type AgentButton } from '../src/contract/agent.schema';
import type { AgentClock, AgentTimer } from './agent-clock';
import type { MachineOutput } from './machine-driver';

/**
 * The machine's own limit on a held button (AGENT_TIMINGS.holdLimitMs, outside the server's and the
 * player's): a timer per station and button, armed by a press the driver carried out and cancelled
 * as soon as the driver reports the output off (a release, the wall, an e-stop).
 */
export class HoldLimits {
  private readonly timers = new Map<string, AgentTimer>();

  constructor(
    private readonly clock: AgentClock,
    private readonly reached: (station: number, button: AgentButton) => void,
    private readonly limitMs: number = AGENT_TIMINGS.holdLimitMs,
  ) {}

  pressed(station: number, button: AgentButton): void {
    const key = `${station}:${button}`;
    this.timers.get(key)?.cancel();
    this.timers.set(
      key,
      this.clock.setTimeout(() => {
        this.timers.delete(key);
        this.reached(station, button);
      }, this.limitMs),
    );
  }

  /** The driver's outputs now: a button no longer energised needs no limit. */
  observe(station: number, outputs: readonly MachineOutput[]): void {
    for (const button of AGENT_BUTTONS) {
      if (outputs.includes(button)) continue;
      const key = `${station}:${button}`;
      this.timers.get(key)?.cancel();
      this.timers.delete(key);
    }
  }

  /** Every limit, or one station's. */
  clear(station?: number): void {
    for (const [key, timer] of this.timers) {
      if (station !== undefined && !key.startsWith(`${station}:`)) continue;
      timer.cancel();
      this.timers.delete(key);
    }
  }
}
