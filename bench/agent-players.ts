import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import {
  CHANNELS,
  PLAY_ENDPOINTS,
  PLAY_LOOP_ENDPOINTS as P,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '../src/contract';
import type { AgentButton } from '../src/contract/agent.schema';
import type { PressMark } from './agent-fleet';
import { isSetUpRefused, SetUpRefused } from './support';

/*
 * The players of bench:agent: each plays runs of plays on its own station (reserve, wait for the
 * turn, confirm, → and ↑ held and let go, continue), and times each control from just before it
 * leaves until the press or release reached the agent's driver (the same process: one clock).
 * `HttpPlayer` does it all over the HTTP API and polls its play; `SocketPlayer` does as the web app:
 * the play's state from the station channel's pushes and the buttons over its socket.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a player holds each button (the claw moves 40 units). */
const HOLD_MS = 200;
/** The poll of the play while waiting for the machine (the app learns it from socket pushes instead). */
const POLL_MS = 250;

interface Player {
  readonly user_id: number;
  readonly access_token: string;
}
type Json = { error_code: number; error_info: string } & Record<string, unknown>;
interface PlayView {
  play_id: number;
  phase: string;
  machine: { button: AgentButton | null };
}

/** The latencies of the control calls, matched with what reached the drivers. */
export class ControlLatencies {
  readonly press: number[] = [];
  readonly release: number[] = [];
  private readonly waiting = new Map<string, number>();

  /** Called just before the request leaves. */
  sent(station: number, playId: number, button: AgentButton, command: 'press' | 'release'): void {
    this.waiting.set(`${station}:${playId}:${button}:${command}`, performance.now());
  }

  /** The fleet's listener: a control reached a driver. */
  reached(mark: PressMark): void {
    const key = `${mark.station}:${mark.playId}:${mark.button}:${mark.command}`;
    const at = this.waiting.get(key);
    if (at === undefined) return; // The server's own (a button fired by itself): not a player's call.
    this.waiting.delete(key);
    (mark.command === 'press' ? this.press : this.release).push(mark.at - at);
  }
}

export class HttpPlayer {
  /** Reserves refused when lining up again after a cut run (still in line: an outcome, counted). */
  refusedReserves = 0;

  constructor(
    protected readonly origin: string,
    protected readonly player: Player,
    protected readonly station: number,
    private readonly latencies: ControlLatencies,
  ) {}

  /** Connects what the player needs before its first call (nothing over HTTP). */
  async connect(): Promise<void> {}

  /** Ends what `connect` opened. */
  close(): void {}

  private async post(path: string, body: object = {}): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${this.origin}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: this.player.user_id, access_token: this.player.access_token, ...body }),
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  protected async ok(path: string, body: object = {}): Promise<Json> {
    const answer = await this.post(path, body);
    if (answer.status !== 200 || answer.json.error_code !== 200)
      throw new Error(`${path} at station ${this.station}: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer.json;
  }

  /** Polls until `done` says yes, within `withinMs`. */
  private async until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, withinMs = 20_000) {
    const end = performance.now() + withinMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (performance.now() > end) throw new Error(`station ${this.station}: no ${what} within ${withinMs} ms`);
      await sleep(POLL_MS);
    }
  }

  private current = async (): Promise<PlayView | null> => (await this.ok(P.current)).play as PlayView | null;

  /** Waits until the player's play is as `done` says, within `withinMs`. */
  protected waitPlay(what: string, done: (play: PlayView | null) => boolean, withinMs?: number): Promise<unknown> {
    return this.until(what, this.current, done, withinMs);
  }

  /** Sends one button; resolves once the server answered it. */
  protected async send(play: PlayView, button: AgentButton, command: 'press' | 'release'): Promise<void> {
    await this.ok(P.control, { play_id: play.play_id, button, command });
  }

  private async control(play: PlayView, button: AgentButton, command: 'press' | 'release'): Promise<void> {
    this.latencies.sent(this.station, play.play_id, button, command);
    await this.send(play, button, command);
  }

  private async hold(play: PlayView, button: AgentButton): Promise<void> {
    await this.waitPlay(`${button} to press`, (p) => p?.phase === 'playing' && p.machine.button === button);
    await this.control(play, button, 'press');
    await sleep(HOLD_MS);
    await this.control(play, button, 'release');
  }

  /**
   * Plays `plays` plays: reserves, takes the turn and plays them in a run (continuing after each
   * result). A run cut short (the station's agent lost for a moment: the turn is withdrawn, the play
   * refunded) is noted in `failures` and the player lines up again, up to three times.
   */
  async run(plays: number, failures: string[]): Promise<number> {
    let played = 0;
    for (let attempt = 0; played < plays && attempt < 3; attempt += 1) {
      try {
        await this.oneRun(plays - played, () => (played += 1), attempt === 0);
        return played;
      } catch (error) {
        if (isSetUpRefused(error)) throw error;
        failures.push(String(error));
        await sleep(1_000);
      }
    }
    return played;
  }

  /**
   * One run; `counted` is called as each play ends (so a cut run still counts what it played). The
   * first run's reserve sets the measurement up: refused, the bench stops with it. Lining up again
   * after a cut run, the player may still be in line: that refusal is counted, not fatal.
   */
  private async oneRun(plays: number, counted: () => void, first: boolean): Promise<void> {
    const reserved = await this.post(PLAY_ENDPOINTS.reserve, { station_id: this.station });
    if (reserved.status !== 200 || reserved.json.error_code !== 200) {
      if (first)
        throw new SetUpRefused(
          `set-up refused: ${PLAY_ENDPOINTS.reserve} of player ${this.player.user_id} at station ${this.station} answered ${reserved.status} ${JSON.stringify(reserved.json)}`,
        );
      this.refusedReserves += 1;
    }
    await this.until(
      'turn',
      () => this.ok('v2/play/get_reserve', { station_id: this.station }),
      (a) => (a.reserve_info as { reserve_status: string }).reserve_status === 'playTransition',
    );
    let play = (await this.ok(P.confirm, { station_id: this.station })).play as PlayView;
    for (let played = 0; ;) {
      await this.hold(play, 'right');
      await this.hold(play, 'back');
      await this.waitPlay('result', (p) => p?.play_id === play.play_id && p.phase === 'result', 30_000);
      played += 1;
      counted();
      if (played === plays) break;
      play = (await this.ok(P.continue, { play_id: play.play_id })).play as PlayView;
    }
    await this.ok(P.finish, { play_id: play.play_id });
  }
}

/**
 * A player as the web app plays: signed in on a socket, in its station's channel, the play's state
 * from the pushes (no polling), and the buttons over the socket (`control`, answered by an ack).
 * Reserve, confirm, continue and finish stay HTTP calls, as in the app.
 */
export class SocketPlayer extends HttpPlayer {
  private socket: Socket<ServerToClientEvents, ClientToServerEvents> | null = null;
  private last: PlayView | null = null;
  private readonly waiting = new Set<() => void>();

  override async connect(): Promise<void> {
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(this.origin, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { user_id: this.player.user_id, access_token: this.player.access_token },
    });
    this.socket = socket;
    socket.on('play_state', (state) => {
      this.last = state as unknown as PlayView;
      for (const wake of [...this.waiting]) wake();
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const joined = await socket.emitWithAck('join', CHANNELS.station(this.station));
    if (!joined.ok) throw new Error(`station ${this.station}: the channel refused the player`);
  }

  override close(): void {
    this.socket?.disconnect();
  }

  protected override async waitPlay(
    what: string,
    done: (play: PlayView | null) => boolean,
    withinMs = 20_000,
  ): Promise<unknown> {
    if (done(this.last)) return this.last;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(check);
        reject(new Error(`station ${this.station}: no ${what} pushed within ${withinMs} ms`));
      }, withinMs);
      const check = () => {
        if (!done(this.last)) return;
        clearTimeout(timer);
        this.waiting.delete(check);
        resolve();
      };
      this.waiting.add(check);
    });
    return this.last;
  }

  protected override async send(play: PlayView, button: AgentButton, command: 'press' | 'release'): Promise<void> {
    const ack = await this.socket!.emitWithAck('control', { play_id: play.play_id, button, command });
    if (!ack.ok) throw new Error(`control at station ${this.station}: ${JSON.stringify(ack)}`);
  }
}
