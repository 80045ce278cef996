import { performance } from 'node:perf_hooks';
import { PLAY_ENDPOINTS, PLAY_LOOP_ENDPOINTS as P } from '../src/contract';
import type { AgentButton } from '../src/contract/agent.schema';
import type { PressMark } from './agent-fleet';

/*
 * The players of bench:agent: each plays runs of plays on its own station over the HTTP API, as the
 * app's calls (reserve, wait for the turn, confirm, → and ↑ held and let go, continue), and times
 * each control call from just before the request until the press or release reached the agent's
 * driver (the same process: one clock).
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
  constructor(
    private readonly origin: string,
    private readonly player: Player,
    private readonly station: number,
    private readonly latencies: ControlLatencies,
  ) {}

  private async post(path: string, body: object = {}): Promise<Json> {
    const res = await fetch(`${this.origin}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: this.player.user_id, access_token: this.player.access_token, ...body }),
    });
    return (await res.json()) as Json;
  }

  private async ok(path: string, body: object = {}): Promise<Json> {
    const answer = await this.post(path, body);
    if (answer.error_code !== 200) throw new Error(`${path} at station ${this.station}: ${JSON.stringify(answer)}`);
    return answer;
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

  private async control(play: PlayView, button: AgentButton, command: 'press' | 'release'): Promise<void> {
    this.latencies.sent(this.station, play.play_id, button, command);
    await this.ok(P.control, { play_id: play.play_id, button, command });
  }

  private async hold(play: PlayView, button: AgentButton): Promise<void> {
    await this.until(`${button} to press`, this.current, (p) => p?.phase === 'playing' && p.machine.button === button);
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
        await this.oneRun(plays - played, () => (played += 1));
        return played;
      } catch (error) {
        failures.push(String(error));
        await sleep(1_000);
      }
    }
    return played;
  }

  /** One run; `counted` is called as each play ends (so a cut run still counts what it played). */
  private async oneRun(plays: number, counted: () => void): Promise<void> {
    await this.post(PLAY_ENDPOINTS.reserve, { station_id: this.station }); // Still in line after a cut run: refused, fine.
    await this.until(
      'turn',
      () => this.ok('v2/play/get_reserve', { station_id: this.station }),
      (a) => (a.reserve_info as { reserve_status: string }).reserve_status === 'playTransition',
    );
    let play = (await this.ok(P.confirm, { station_id: this.station })).play as PlayView;
    for (let played = 0; ;) {
      await this.hold(play, 'right');
      await this.hold(play, 'back');
      await this.until('result', this.current, (p) => p?.phase === 'result', 30_000);
      played += 1;
      counted();
      if (played === plays) break;
      play = (await this.ok(P.continue, { play_id: play.play_id })).play as PlayView;
    }
    await this.ok(P.finish, { play_id: play.play_id });
  }
}
