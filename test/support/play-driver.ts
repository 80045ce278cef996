import {
  controlResponseSchema,
  getReserveResponseSchema,
  PLAY_LOOP_ENDPOINTS as P,
  playStateResponseSchema,
  reserveResponseSchema,
  type PlayState,
  type ReserveStatusRecord,
} from '../../src/contract';
import { PLAY_TIMINGS } from '../../src/domain';
import type { ManualServerClock } from './manual-server-clock';
import type { TestServer } from './test-server';
import type { TestUser } from './users';

export interface Answer {
  readonly status: number;
  readonly json: { error_code: number; error_info: string } & Record<string, unknown>;
}

/**
 * Drives one player through the play loop of the real server, in process, on a manual clock, in
 * the style of tldraw's TestEditor: each step is queued and the chain is awaited once.
 *
 * @example
 * await new PlayDriver(t, clock, alice).reserve(stationId).waitTurn().confirm().waitPlaying().holdRight(800).holdBack(600).waitResult();
 *
 * Every call goes through the HTTP API (Fastify inject); time moves only when the driver moves it,
 * and after each timer it waits until the station rooms have done what fell due.
 */
export class PlayDriver implements PromiseLike<void> {
  private chain: Promise<unknown> = Promise.resolve();
  stationId = 0;
  /** The last play state the server answered. */
  play: PlayState | null = null;
  /** The last reserve record the server answered. */
  record: ReserveStatusRecord | null = null;
  /** Every answer, in order (refusals too). */
  readonly answers: Answer[] = [];

  constructor(
    readonly t: TestServer,
    readonly clock: ManualServerClock,
    readonly user: TestUser,
  ) {}

  private step(work: () => Promise<unknown>): this {
    this.chain = this.chain.then(work);
    return this;
  }

  /** Runs the queued steps; read the outcome from the driver (`play`, `record`, `answers`). */
  then<A = void, B = never>(
    ok?: ((value: void) => A | PromiseLike<A>) | null,
    fail?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    const queued = this.chain.then(() => undefined);
    this.chain = Promise.resolve();
    return queued.then(ok, fail);
  }

  /** POST as this player; answers are kept in `answers`. */
  async post(path: string, body: object = {}): Promise<Answer> {
    const res = await this.t.server.app.inject({
      method: 'POST',
      url: `/api/${path}`,
      payload: { user_id: this.user.user_id, access_token: this.user.access_token, ...body },
    });
    const answer = { status: res.statusCode, json: res.json() };
    this.answers.push(answer);
    return answer;
  }

  /**
   * Moves the manual clock timer by timer, waiting after each for what fell due to be done (the
   * station rooms idle and, with the test's agent, no frame in flight).
   */
  async advance(ms: number): Promise<void> {
    // What the last call sent the machine is carried out now, before time moves.
    await this.t.settle();
    await this.clock.advanceSettling(ms, () => this.t.settle());
  }

  private async ok(path: string, body: object = {}): Promise<Answer> {
    const answer = await this.post(path, body);
    if (answer.json.error_code !== 200)
      throw new Error(`${path} refused: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer;
  }

  reserve(stationId: number): this {
    return this.step(async () => {
      this.stationId = stationId;
      this.record = reserveResponseSchema.parse(
        (await this.ok('v2/play/reserve', { station_id: stationId })).json,
      ).reserve_info;
    });
  }

  /** Fetches get_reserve for the station (the poll a client makes). */
  poll(): this {
    return this.step(async () => this.refresh());
  }

  private async refresh(): Promise<ReserveStatusRecord> {
    this.record = getReserveResponseSchema.parse(
      (await this.ok('v2/play/get_reserve', { station_id: this.stationId })).json,
    ).reserve_info;
    return this.record;
  }

  /** Lets time pass (one second at a time, up to `maxMs`) until the turn is this player's. */
  waitTurn(maxMs = 10 * 60_000): this {
    return this.step(async () => {
      for (let waited = 0; (await this.refresh()).reserve_status !== 'playTransition'; waited += 1000) {
        if (waited >= maxMs) throw new Error(`no turn within ${maxMs} ms: ${JSON.stringify(this.record)}`);
        await this.advance(1000);
      }
    });
  }

  confirm(): this {
    return this.step(async () => {
      this.play = playStateResponseSchema.parse((await this.ok(P.confirm, { station_id: this.stationId })).json).play;
    });
  }

  /** The reset window passes; the machine starts. */
  waitPlaying(): this {
    return this.step(async () => {
      await this.advance(PLAY_TIMINGS.resetMs);
      await this.current();
    });
  }

  async current(): Promise<PlayState | null> {
    this.play = playStateResponseSchema.parse((await this.ok(P.current)).json).play;
    return this.play;
  }

  control(button: 'right' | 'back', command: 'press' | 'release'): this {
    return this.step(async () => {
      controlResponseSchema.parse((await this.ok(P.control, { play_id: this.play!.play_id, button, command })).json);
      // The command reaches the machine and its report comes back.
      await this.t.settle();
    });
  }

  private hold(button: 'right' | 'back', ms: number): this {
    return this.step(async () => {
      await this.ok(P.control, { play_id: this.play!.play_id, button, command: 'press' });
      await this.advance(ms);
      const answer = await this.post(P.control, { play_id: this.play!.play_id, button, command: 'release' });
      // At the wall the machine released the button itself: that is not a failure of the driver.
      if (answer.json.error_code !== 200 && answer.json.error_code !== 409)
        throw new Error(`release refused: ${JSON.stringify(answer.json)}`);
    });
  }

  /** Holds → for `ms` and lets go. */
  holdRight(ms: number): this {
    return this.hold('right', ms);
  }

  /** Holds ↑ for `ms` and lets go: the claw drops. */
  holdBack(ms: number): this {
    return this.hold('back', ms);
  }

  /** Lets the claw finish (up to a minute): the result is recorded and the continue window opens. */
  waitResult(): this {
    return this.step(async () => {
      for (let waited = 0; (await this.current())?.phase !== 'result'; waited += 500) {
        if (waited > 60_000) throw new Error(`no result: ${JSON.stringify(this.play)}`);
        await this.advance(500);
      }
    });
  }

  continuePlay(): this {
    return this.step(async () => {
      this.play = playStateResponseSchema.parse((await this.ok(P.continue, { play_id: this.play!.play_id })).json).play;
    });
  }

  finish(): this {
    return this.step(async () => {
      await this.ok(P.finish, { play_id: this.play!.play_id });
    });
  }

  /**
   * Lets time pass (half a second at a time, up to `maxMs`) until the station's machine has reported
   * itself home with its chute clear: after a fault or a stopped play, the room offers the next turn
   * only then.
   */
  waitMachineHome(stationId = this.stationId, maxMs = 60_000): this {
    return this.step(async () => {
      const { agents } = this.t.server.services();
      const home = () => {
        const state = agents.lastState(stationId);
        return state?.claw === 'idle' && state.sensor === 'clear' && state.play_id === null;
      };
      for (let waited = 0; !home(); waited += 500) {
        if (waited >= maxMs) throw new Error(`station ${stationId}: machine not home within ${maxMs} ms`);
        await this.advance(500);
      }
    });
  }

  wait(ms: number): this {
    return this.step(async () => this.advance(ms));
  }
}
