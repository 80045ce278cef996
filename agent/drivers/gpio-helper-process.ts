import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/*
 * The agent's side of agent/drivers/gpio-helper.py: the one process that holds the GPIO lines
 * (through libgpiod v2's Python binding) and drives every output inactive when the agent dies
 * (docs/agent-wiring.md, "Safety"). One JSON object per line each way; commands are carried out in
 * the order they are written, and each is acknowledged once its lines are set.
 */

export const GPIO_HELPER_SCRIPT = fileURLToPath(new URL('./gpio-helper.py', import.meta.url));

/** What the helper requests: per chip, outputs (held) and inputs (edges, debounced by the kernel). */
export interface GpioHelperConfig {
  readonly consumer: string;
  /** Pairs of outputs that are never active together (opposite directions). */
  readonly interlock: readonly (readonly [string, string])[];
  readonly chips: readonly {
    readonly path: string;
    readonly outputs: readonly { id: string; line: number | string; active_low: boolean }[];
    readonly inputs: readonly {
      id: string;
      line: number | string;
      active_low: boolean;
      bias: string;
      debounce_ms: number;
    }[];
  }[];
}

export interface GpioHelperListener {
  edge(id: string, active: boolean): void;
  pulseEnd(id: string): void;
  /** The helper ended without being asked to (its outputs were driven inactive if it could). */
  exited(reason: string): void;
}

export interface GpioHelperLaunch {
  readonly python: string;
  readonly env: NodeJS.ProcessEnv;
  readonly config: GpioHelperConfig;
  readonly startTimeoutMs: number;
}

type HelperCommand = { set: Record<string, 0 | 1> } | { pulse: string; ms: number } | { off: true } | { exit: true };

interface HelperMessage {
  ready?: boolean;
  api?: string;
  inputs?: Record<string, boolean>;
  fatal?: string;
  ack?: number;
  error?: string;
  edge?: string;
  active?: boolean;
  pulse_end?: string;
}

/** Thrown when the helper cannot start or refuses a command; the message is the helper's. */
export class GpioHelperError extends Error {
  override readonly name = 'GpioHelperError';
  readonly code = 'gpio_helper';
}

export const isGpioHelperError = (error: unknown): error is GpioHelperError =>
  error instanceof Error && error.name === 'GpioHelperError';

export class GpioHelper {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private ending = false;
  private exitedAlready = false;
  private readonly exit: Promise<void>;
  private stderr = '';

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly listener: GpioHelperListener,
  ) {
    this.exit = new Promise((resolve) => child.once('close', () => resolve()));
  }

  /** The helper's process id (tests check that it is gone). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Starts the helper and waits until it holds every line (outputs inactive). Rejects with the
   * helper's own words when libgpiod v2 or the chip is missing, a line is busy, or it is too slow.
   */
  static start(
    launch: GpioHelperLaunch,
    listener: GpioHelperListener,
  ): Promise<{ helper: GpioHelper; api: string; inputs: Record<string, boolean> }> {
    const child = spawn(launch.python, [GPIO_HELPER_SCRIPT, JSON.stringify(launch.config), String(process.pid)], {
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const helper = new GpioHelper(child, listener);
    return new Promise((resolve, reject) => {
      const fail = (text: string) => {
        clearTimeout(timer);
        helper.ending = true;
        child.kill('SIGTERM');
        reject(new GpioHelperError(text));
      };
      const timer = setTimeout(
        () => fail(`the GPIO helper did not start within ${launch.startTimeoutMs} ms`),
        launch.startTimeoutMs,
      );
      child.once('error', (error: NodeJS.ErrnoException) =>
        fail(
          error.code === 'ENOENT'
            ? `${launch.python} not found: the gpio driver needs Debian's python3 and python3-libgpiod 2.x`
            : `the GPIO helper could not start: ${error.message}`,
        ),
      );
      helper.onStartupMessage = (message) => {
        if (message.fatal) fail(`the GPIO helper refused to start: ${message.fatal}`);
        else if (message.ready) {
          clearTimeout(timer);
          helper.onStartupMessage = null;
          resolve({ helper, api: message.api ?? '', inputs: message.inputs ?? {} });
        }
      };
      child.once('close', (code, signal) => {
        if (helper.onStartupMessage)
          fail(`the GPIO helper ended (${signal ?? code}) before it was ready: ${helper.stderr.trim()}`);
      });
      helper.listen();
    });
  }

  private onStartupMessage: ((message: HelperMessage) => void) | null = null;

  private listen(): void {
    let pending = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line.trim()) this.receive(JSON.parse(line) as HelperMessage);
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => void (this.stderr = (this.stderr + chunk).slice(-2_000)));
    // A write to a helper that just died must not crash the agent: its exit is reported below.
    this.child.stdin.on('error', () => undefined);
    this.child.once('close', (code, signal) => {
      this.exitedAlready = true;
      for (const { reject } of this.waiting.values()) reject(new GpioHelperError('the GPIO helper ended'));
      this.waiting.clear();
      if (!this.ending) this.listener.exited(`the GPIO helper ended (${signal ?? code}) ${this.stderr.trim()}`.trim());
    });
  }

  private receive(message: HelperMessage): void {
    if (this.onStartupMessage) return this.onStartupMessage(message);
    if (message.ack !== undefined) {
      const waiter = this.waiting.get(message.ack);
      this.waiting.delete(message.ack);
      if (message.error) waiter?.reject(new GpioHelperError(message.error));
      else waiter?.resolve();
    } else if (message.edge !== undefined) this.listener.edge(message.edge, message.active === true);
    else if (message.pulse_end !== undefined) this.listener.pulseEnd(message.pulse_end);
  }

  /** Writes a command now (in order with every other), resolving once the helper has set the lines. */
  send(command: HelperCommand): Promise<void> {
    if (this.exitedAlready) return Promise.reject(new GpioHelperError('the GPIO helper is not running'));
    const id = this.nextId++;
    const done = new Promise<void>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    this.child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
    return done;
  }

  /** Every output inactive: written at once, without waiting (the watchdog, an e-stop, exit). */
  offNow(): Promise<void> {
    return this.send({ off: true });
  }

  /** Drives every output inactive and ends the helper; SIGKILL only if it does not end in time. */
  async close(timeoutMs = 2_000): Promise<void> {
    if (this.exitedAlready) return;
    this.ending = true;
    this.send({ exit: true }).catch(() => undefined);
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exit;
    clearTimeout(timer);
  }
}
