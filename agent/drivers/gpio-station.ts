import type { AgentClawPhase, AgentCommand, AgentFaultCode, AgentRefusal } from '../../src/contract/agent.schema';
import { AGENT_TIMINGS } from '../../src/contract/agent.schema';
import type { CommandOutcome, MachineOutput, MachineStatus } from '../machine-driver';
import type { GpioStationConfig } from './gpio-config';
import { initialDebounce, sawLevel, settle, type DebounceState, type DebounceStep } from './gpio-debounce';

/*
 * One station's cabinet as the gpio driver knows it. A cabinet tells nothing back but its chute
 * sensor (and maybe a home switch), so the claw's phase is what follows from the buttons: ready
 * after start, moving/wait_back from → and ↑, dropping after the ↑ release or `drop`, and idle
 * when the home switch says so or, without one, after the machine file's cycle_ms.
 */

export interface GpioClock {
  now(): number;
  setTimeout(task: () => void, delayMs: number): { cancel(): void };
}

/** The station's lines, through the helper: resolves once the lines are set. */
export interface StationLines {
  set(values: Partial<Record<'right' | 'back', boolean>>): Promise<void>;
  pulse(output: 'drop' | 'credit', ms: number): Promise<void>;
  /** Every output of the station inactive at once; written before it returns. */
  off(): Promise<void>;
}

export interface StationEvents {
  changed(): void;
  prize(playId: number | null): void;
  fault(code: AgentFaultCode, text: string): void;
}

type Button = 'right' | 'back';
type Input = 'chute_sensor' | 'home_switch';
const refuse = (reason: AgentRefusal): CommandOutcome => ({ ok: false, reason });
const OK: CommandOutcome = { ok: true };

export class GpioStation {
  private phase: AgentClawPhase = 'idle';
  private playId: number | null = null;
  private lastPlayId: number | null = null;
  private idleAt = Number.NEGATIVE_INFINITY;
  private stopped = false;
  /** Bumped by every release of all outputs: a command in flight then must not mark a line held. */
  private epoch = 0;
  private readonly pressed = new Set<Button>();
  private readonly pulsing = new Set<'drop' | 'credit'>();
  private readonly inputs = new Map<Input, DebounceState>();
  private readonly wake = new Map<Input, { cancel(): void }>();
  private readonly holdTimers = new Map<Button, { cancel(): void }>();
  private cycleTimer: { cancel(): void } | null = null;
  private stuckTimer: { cancel(): void } | null = null;

  constructor(
    private readonly config: GpioStationConfig,
    private readonly lines: StationLines,
    private readonly clock: GpioClock,
    private readonly events: StationEvents,
    initial: { sensorBlocked: boolean; atHome: boolean | null },
  ) {
    const now = clock.now();
    this.inputs.set('chute_sensor', initialDebounce(initial.sensorBlocked, now));
    if (initial.atHome !== null) this.inputs.set('home_switch', initialDebounce(initial.atHome, now));
    if (initial.sensorBlocked) this.armStuckTimer();
  }

  status(): MachineStatus {
    const outputs: MachineOutput[] = [...this.pressed, ...this.pulsing];
    return {
      playId: this.playId,
      claw: this.phase,
      sensor: this.inputs.get('chute_sensor')?.stable ? 'blocked' : 'clear',
      stopped: this.stopped,
      outputs,
    };
  }

  async carryOut(command: AgentCommand): Promise<CommandOutcome> {
    switch (command.type) {
      case 'stop':
        return this.stop();
      case 'resume':
        this.stopped = false;
        this.events.changed();
        return OK;
      case 'home':
        return this.home();
    }
    if (this.stopped) return refuse('stopped');
    if (command.type === 'start') return this.start(command.play_id);
    if (command.play_id !== this.playId) return refuse('not_ready');
    if (command.type === 'press') return this.press(command.button);
    if (command.type === 'release') return this.release(command.button);
    return this.drop();
  }

  /** Every output was driven inactive (the helper was told already): follow what the cabinet does. */
  /** This station's outputs inactive at once (its lines in one write), without waiting for the write. */
  releaseNow(): void {
    this.lines.off().catch(() => undefined);
    this.releasedAll();
  }

  releasedAll(): void {
    this.epoch++;
    for (const timer of this.holdTimers.values()) timer.cancel();
    this.holdTimers.clear();
    const wasBack = this.pressed.has('back');
    this.pressed.clear();
    this.pulsing.clear();
    if (this.phase === 'moving_right') this.phase = 'wait_back';
    // A two-button cabinet drops when ↑ is let go.
    if (this.phase === 'moving_back' && wasBack) this.enterDropping();
    this.events.changed();
  }

  private async stop(): Promise<CommandOutcome> {
    const done = this.lines.off();
    this.stopped = true;
    this.releasedAll();
    try {
      await done;
      return OK;
    } catch {
      return refuse('driver');
    }
  }

  private async start(playId: number): Promise<CommandOutcome> {
    if (this.inputs.get('chute_sensor')?.stable) return refuse('sensor_blocked');
    if (this.phase !== 'idle' || this.inputs.get('home_switch')?.stable === false) return refuse('not_ready');
    const credit = this.config.outputs.credit;
    if (credit) {
      const outcome = await this.pulse('credit', credit.pulse_ms);
      if (!outcome.ok) return outcome;
    }
    this.playId = playId;
    this.lastPlayId = playId;
    this.phase = 'ready';
    this.events.changed();
    return OK;
  }

  private async press(button: Button): Promise<CommandOutcome> {
    const other: Button = button === 'right' ? 'back' : 'right';
    if (this.pressed.has(other)) return refuse('interlock');
    if (this.pressed.has(button)) return OK;
    if (this.phase !== (button === 'right' ? 'ready' : 'wait_back')) return refuse('not_ready');
    const outcome = await this.setLines({ [button]: true });
    if (!outcome.ok) return outcome;
    this.pressed.add(button);
    this.phase = button === 'right' ? 'moving_right' : 'moving_back';
    this.holdTimers.set(
      button,
      this.clock.setTimeout(() => void this.holdLimit(button), this.config.hold_limit_ms),
    );
    this.events.changed();
    return OK;
  }

  private async holdLimit(button: Button): Promise<void> {
    this.events.fault('hold_limit', `${button} was held past ${this.config.hold_limit_ms} ms and is released`);
    await this.release(button);
  }

  private async release(button: Button): Promise<CommandOutcome> {
    if (!this.pressed.has(button)) return OK;
    const outcome = await this.setLines({ [button]: false });
    if (!outcome.ok) return outcome;
    this.holdTimers.get(button)?.cancel();
    this.holdTimers.delete(button);
    this.pressed.delete(button);
    if (button === 'right') this.phase = 'wait_back';
    else this.enterDropping();
    this.events.changed();
    return OK;
  }

  private async drop(): Promise<CommandOutcome> {
    if (!['ready', 'moving_right', 'wait_back', 'moving_back'].includes(this.phase)) return refuse('not_ready');
    const drop = this.config.outputs.drop;
    // Without a drop line, only letting go of ↑ drops the claw (the cabinet does it).
    if (!drop) return this.phase === 'moving_back' ? this.release('back') : refuse('not_ready');
    const released = await this.setLines({ right: false, back: false });
    if (!released.ok) return released;
    this.clearPressed();
    const outcome = await this.pulse('drop', drop.pulse_ms);
    if (!outcome.ok) return outcome;
    this.enterDropping();
    this.events.changed();
    return OK;
  }

  private async home(): Promise<CommandOutcome> {
    if (this.pressed.size > 0) {
      const released = await this.setLines({ right: false, back: false });
      if (!released.ok) return released;
      this.clearPressed();
    }
    if (this.phase === 'idle' || this.phase === 'dropping') return OK;
    if (this.phase === 'ready') {
      this.enterIdle();
      return OK;
    }
    // The claw is out: only its cycle brings it home. While stopped nothing is energised.
    const drop = this.config.outputs.drop;
    if (drop && !this.stopped) {
      const outcome = await this.pulse('drop', drop.pulse_ms);
      if (!outcome.ok) return outcome;
    }
    this.enterDropping();
    this.events.changed();
    return OK;
  }

  /** A pulse line ended its press (the helper let it go). */
  pulseEnded(output: 'drop' | 'credit'): void {
    if (this.pulsing.delete(output)) this.events.changed();
  }

  /** A raw level seen on an input (after the kernel's debounce): debounced here once more. */
  sawInput(input: Input, active: boolean): void {
    const state = this.inputs.get(input);
    if (!state) return;
    this.apply(input, sawLevel(state, active, this.clock.now(), this.debounceMs(input)));
  }

  close(): void {
    for (const timer of [...this.holdTimers.values(), ...this.wake.values(), this.cycleTimer, this.stuckTimer])
      timer?.cancel();
  }

  private debounceMs(input: Input): number {
    return (input === 'chute_sensor' ? this.config.chute_sensor : this.config.home_switch)?.debounce_ms ?? 0;
  }

  private apply(input: Input, step: DebounceStep): void {
    this.inputs.set(input, step.state);
    this.wake.get(input)?.cancel();
    this.wake.delete(input);
    if (step.wakeAt !== null) {
      const wakeAt = step.wakeAt;
      const timer = this.clock.setTimeout(() => {
        const state = this.inputs.get(input);
        if (state) this.apply(input, settle(state, this.clock.now(), this.debounceMs(input)));
      }, wakeAt - this.clock.now());
      this.wake.set(input, timer);
    }
    if (step.changed === undefined) return;
    if (input === 'chute_sensor') this.sensorChanged(step.changed);
    else if (step.changed && this.phase === 'dropping') this.enterIdle();
    else this.events.changed();
  }

  private sensorChanged(blocked: boolean): void {
    this.stuckTimer?.cancel();
    this.stuckTimer = null;
    if (blocked) {
      this.events.prize(this.prizePlayId());
      this.armStuckTimer();
    }
    this.events.changed();
  }

  private armStuckTimer(): void {
    this.stuckTimer = this.clock.setTimeout(() => {
      this.stuckTimer = null;
      this.events.fault('sensor_stuck', `the chute sensor is blocked for more than ${this.config.sensor_stuck_ms} ms`);
    }, this.config.sensor_stuck_ms);
  }

  /** The play a falling prize belongs to: the running one, or the last one while its result is awaited. */
  private prizePlayId(): number | null {
    if (this.playId !== null) return this.playId;
    return this.clock.now() - this.idleAt <= AGENT_TIMINGS.prizeWaitMs ? this.lastPlayId : null;
  }

  private enterDropping(): void {
    this.phase = 'dropping';
    this.cycleTimer?.cancel();
    this.cycleTimer = this.clock.setTimeout(() => {
      this.cycleTimer = null;
      if (this.phase !== 'dropping') return;
      if (!this.config.home_switch) return this.enterIdle();
      this.events.fault('motor', `the claw did not reach its home switch within ${this.config.cycle_ms} ms`);
    }, this.config.cycle_ms);
  }

  private enterIdle(): void {
    this.cycleTimer?.cancel();
    this.cycleTimer = null;
    this.phase = 'idle';
    this.playId = null;
    this.idleAt = this.clock.now();
    this.events.changed();
  }

  private clearPressed(): void {
    for (const timer of this.holdTimers.values()) timer.cancel();
    this.holdTimers.clear();
    this.pressed.clear();
  }

  private async setLines(values: Partial<Record<Button, boolean>>): Promise<CommandOutcome> {
    const epoch = this.epoch;
    try {
      await this.lines.set(values);
    } catch {
      return refuse(this.epoch === epoch ? 'driver' : 'stopped');
    }
    return this.epoch === epoch ? OK : refuse('stopped');
  }

  private async pulse(output: 'drop' | 'credit', ms: number): Promise<CommandOutcome> {
    const epoch = this.epoch;
    // Marked before the ack: the helper's pulse_end may arrive in the same read as the ack.
    this.pulsing.add(output);
    try {
      await this.lines.pulse(output, ms);
    } catch {
      this.pulsing.delete(output);
      return refuse(this.epoch === epoch ? 'driver' : 'stopped');
    }
    if (this.epoch !== epoch) return refuse('stopped');
    this.events.changed();
    return OK;
  }
}
