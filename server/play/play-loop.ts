import { randomInt } from 'node:crypto';
import type { MachineView, PlayState, PushMessage, WinnerAnnouncement } from '../../src/contract';
import {
  assistedArmStrength,
  assistGauge,
  CONTROL_COMMANDS_PER_SECOND,
  isMaintenanceStatus,
  isTurnNear,
  nextAssistMisses,
  PLAY_TIMINGS,
  playCharge,
  type DesignatedType,
  type PlayCurrency,
  type StationStatus,
  type StationType,
} from '../../src/domain';
import type { Clock, ScheduledTask } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import type { SqlExecutor, Store } from '../store/store';
import type { Ledger } from '../wallet/ledger';
import {
  buttonTicksLeft,
  command,
  CRANE,
  dropNow,
  layPrizes,
  startPlay,
  tick,
  type CraneButton,
  type CraneCommand,
  type CraneInput,
  type CranePrize,
  type CraneState,
  type PrizeShape,
} from './crane/crane-machine';
import { Refusal } from './refusal';

/** What the play loop tells the world; the realtime hub implements it (tests may record it). */
export interface PlayEvents {
  /** A station's line changed (reserve_change=1 on its channel). */
  lineChanged(stationId: number): void;
  /** The play on a station's machine, for everyone watching it. */
  playState(stationId: number, state: PlayState): void;
  /** A notice to one user (turn near, turn now, cancellation). */
  push(userId: number, push: PushMessage): void;
  /** A user's crane reservation was cancelled (user channel). */
  reserveCancelled(userId: number, stationId: number, reason: string): void;
  /** A station's status changed. */
  stationStatus(stationId: number, status: StationStatus): void;
  /** Someone won a prize. */
  winner(announcement: WinnerAnnouncement): void;
}

export const SILENT_PLAY_EVENTS: PlayEvents = {
  lineChanged: () => undefined,
  playState: () => undefined,
  push: () => undefined,
  reserveCancelled: () => undefined,
  stationStatus: () => undefined,
  winner: () => undefined,
};

type PlayPhase = 'resetting' | 'playing' | 'result' | 'ended';
type EndReason = 'timeout' | 'maintenance' | 'prize_change' | 'operator' | 'played';

interface StationRow {
  station_id: number;
  prize_name: string;
  station_status: StationStatus;
  station_type: StationType;
  designated_type: DesignatedType;
  stock: number;
  play_price: number;
  arm_strength: number;
  prize_shape: PrizeShape;
}

/** One play in progress on a station, held in memory while the machine runs. */
interface Runner {
  readonly playId: number;
  readonly reserveId: number;
  readonly userId: number;
  readonly station: StationRow;
  readonly currency: PlayCurrency;
  readonly price: number;
  readonly armStrength: number;
  readonly assistLevel: number;
  phase: PlayPhase;
  state: CraneState;
  inputs: CraneInput[];
  dropAtTick: number | null;
  result: 'win' | 'miss' | 'refunded' | null;
  wonPrizeName: string | null;
  windowDeadline: Date | null;
  graceDeadline: Date | null;
  tickTask: ScheduledTask | null;
  windowTask: ScheduledTask | null;
  graceTask: ScheduledTask | null;
  ticksSinceSave: number;
}

/** The machine is saved at least this often while it runs (so a restart loses at most this much). */
const SAVE_EVERY_TICKS = 10;
/** The play state is pushed to viewers this often while the claw moves (plus on every change). */
const PUSH_EVERY_TICKS = 4;
const ACTIVE = `('reserve', 'playTransition', 'playWaiting')`;
const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * The play loop of every station (docs/play.md): hands the turn to the head of the line with a
 * confirm window, charges and starts a play on confirm, runs the simulated machine tick by tick,
 * records the result with everything that decided it, offers the continue window, then moves the
 * line on. Every deadline is an absolute instant in the store, so `recover()` after a restart
 * re-arms each one; a play that was running comes back in its grace window.
 *
 * All changes run one after another through `serial`, so a timer firing and a request arriving at
 * the same instant never interleave. Button commands are applied in memory at once (they must be
 * fast) and saved through the same queue.
 */
export class PlayLoop {
  private readonly runners = new Map<number, Runner>();
  private readonly confirmTasks = new Map<number, ScheduledTask>();
  private readonly nearNotified = new Set<number>();
  private readonly commandTimes = new Map<number, number[]>();
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private events: PlayEvents = SILENT_PLAY_EVENTS,
    private readonly log: (message: string, error?: unknown) => void = (message, error) =>
      console.error(message, error),
    /** Where each play's seed comes from (tests pin it; the seed is published in the play log either way). */
    private readonly newSeed: () => number = () => randomInt(0, 2 ** 31 - 1),
  ) {}

  private readonly tickListeners = new Set<(stationId: number) => void>();

  /**
   * Calls `listener` with the station each time a running machine moves one tick (the live video
   * draws its next picture then, instead of waiting for its next beat). Returns the unsubscribe.
   */
  onMachineTick(listener: (stationId: number) => void): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  /** The realtime hub, once it exists (it needs the loop for controls). */
  setEvents(events: PlayEvents): void {
    this.events = events;
  }

  /** Runs `work` after everything queued before it. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch((error: unknown) => this.log('play loop step failed', error));
    return run;
  }

  /** Resolves when every queued change has run (tests, shutdown). */
  async idle(): Promise<void> {
    for (let before = this.chain; ; before = this.chain) {
      await before.catch(() => undefined);
      if (before === this.chain) return;
    }
  }

  /** Stops every timer and waits for queued changes; the store keeps the deadlines for `recover()`. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.confirmTasks.values()) task.cancel();
    for (const runner of this.runners.values()) this.stopTimers(runner);
    await this.idle();
  }

  private stopTimers(r: Runner): void {
    r.tickTask?.cancel();
    r.windowTask?.cancel();
    r.graceTask?.cancel();
    r.tickTask = r.windowTask = r.graceTask = null;
  }

  private later(delayMs: number, work: () => Promise<void>): ScheduledTask {
    return this.clock.setTimeout(() => {
      if (!this.closed) void this.serial(work);
    }, delayMs);
  }

  private msUntil(deadline: Date | string | null): number {
    return deadline === null ? 0 : Math.max(0, new Date(deadline).getTime() - this.clock.now().getTime());
  }

  // ---- the line ------------------------------------------------------------------------------

  /** After a reservation joined or left a line: hand the turn on if the station is free. */
  lineChanged(stationId: number): Promise<void> {
    return this.serial(() => this.advance(stationId));
  }

  private async station(db: SqlExecutor, stationId: number): Promise<StationRow | null> {
    const [row] = await db.query<StationRow>(
      `SELECT station_id, prize_name, station_status, station_type, designated_type, stock, play_price, arm_strength, prize_shape
         FROM stations WHERE station_id = $1`,
      [stationId],
    );
    return row ? { ...row, arm_strength: Number(row.arm_strength) } : null;
  }

  /** Gives the turn to the head of the line when nobody holds it, then tells the line. */
  private async advance(stationId: number): Promise<void> {
    const now = this.clock.now();
    const handed = await this.db.transaction(async (tx) => {
      const station = await this.station(tx, stationId);
      if (
        !station ||
        station.station_status !== 'open' ||
        (station.stock <= 0 && station.designated_type !== 'practice')
      )
        return null;
      const [holder] = await tx.query(
        `SELECT 1 FROM station_reservations WHERE station_id = $1 AND reserve_status IN ('playTransition', 'playWaiting')`,
        [stationId],
      );
      if (holder) return null;
      const deadline = new Date(now.getTime() + PLAY_TIMINGS.confirmMs);
      const [head] = await tx.query<{ play_reserve_id: number; user_id: number }>(
        `UPDATE station_reservations SET reserve_status = 'playTransition', deadline_at = $2, updated_at = $3
          WHERE play_reserve_id = (SELECT play_reserve_id FROM station_reservations WHERE station_id = $1 AND reserve_status = 'reserve'
                                    ORDER BY queued_at, play_reserve_id LIMIT 1)
          RETURNING play_reserve_id, user_id`,
        [stationId, deadline.toISOString(), now.toISOString()],
      );
      return head ? { ...head, deadline, prize: station.prize_name } : null;
    });
    if (handed) {
      this.armConfirm(handed.play_reserve_id, handed.deadline);
      this.events.push(handed.user_id, {
        kind: 'turnNow',
        station_id: stationId,
        reserve_num: 1,
        title: SERVER_MESSAGES.turnNowTitle,
        message: SERVER_MESSAGES.turnNowBody(handed.prize, PLAY_TIMINGS.confirmMs / 1000),
      });
    }
    await this.notifyNear(stationId);
    this.events.lineChanged(stationId);
  }

  /** "Your turn is near": once per reservation, when its place becomes TURN_NEAR_PLACE or less. */
  private async notifyNear(stationId: number): Promise<void> {
    const rows = await this.db.query<{
      play_reserve_id: number;
      user_id: number;
      reserve_status: string;
      place: number;
      prize_name: string;
    }>(
      `SELECT r.play_reserve_id, r.user_id, r.reserve_status, s.prize_name,
              row_number() OVER (ORDER BY r.queued_at, r.play_reserve_id)::int AS place
         FROM station_reservations r JOIN stations s ON s.station_id = r.station_id
        WHERE r.station_id = $1 AND r.reserve_status IN ${ACTIVE}`,
      [stationId],
    );
    for (const row of rows) {
      if (row.reserve_status !== 'reserve' || !isTurnNear(row.place) || this.nearNotified.has(row.play_reserve_id))
        continue;
      this.nearNotified.add(row.play_reserve_id);
      this.events.push(row.user_id, {
        kind: 'turnNear',
        station_id: stationId,
        reserve_num: row.place,
        title: SERVER_MESSAGES.turnNearTitle,
        message: SERVER_MESSAGES.turnNearBody(row.prize_name, row.place),
      });
    }
  }

  private armConfirm(reserveId: number, deadline: Date): void {
    this.confirmTasks.get(reserveId)?.cancel();
    this.confirmTasks.set(
      reserveId,
      this.later(this.msUntil(deadline), () => this.confirmLapsed(reserveId)),
    );
  }

  /** The confirm window ran out: the turn passes to the next in line. */
  private async confirmLapsed(reserveId: number): Promise<void> {
    this.confirmTasks.delete(reserveId);
    const now = this.clock.now();
    const [row] = await this.db.query<{ station_id: number; user_id: number }>(
      `UPDATE station_reservations SET reserve_status = 'cancel', end_reason = 'timeout', ended_at = $2, updated_at = $2
        WHERE play_reserve_id = $1 AND reserve_status = 'playTransition' AND deadline_at <= $2 RETURNING station_id, user_id`,
      [reserveId, now.toISOString()],
    );
    if (!row) return;
    this.events.reserveCancelled(row.user_id, row.station_id, 'timeout');
    await this.advance(row.station_id);
  }

  // ---- starting a play -----------------------------------------------------------------------

  /** The player takes the turn: the play is charged and the claw resets. 409 when it is not their turn. */
  confirm(userId: number, stationId: number): Promise<PlayState> {
    return this.serial(async () => {
      const runner = await this.db.transaction(async (tx) => {
        const [reservation] = await tx.query<{ play_reserve_id: number; station_setting_id: number }>(
          `SELECT play_reserve_id, station_setting_id FROM station_reservations
            WHERE user_id = $1 AND station_id = $2 AND reserve_status = 'playTransition'`,
          [userId, stationId],
        );
        if (!reservation) throw new Refusal(409, 409, SERVER_MESSAGES.notYourTurn);
        return this.startPlayIn(tx, userId, stationId, reservation.play_reserve_id, reservation.station_setting_id);
      });
      this.confirmTasks.get(runner.reserveId)?.cancel();
      this.confirmTasks.delete(runner.reserveId);
      this.nearNotified.delete(runner.reserveId);
      this.begin(runner);
      this.events.lineChanged(stationId);
      return this.view(runner);
    });
  }

  /**
   * Inside the caller's transaction: charge one play (refused with 402 and nothing written when the
   * balance is short), write its play-log row and put the reservation in playWaiting.
   */
  private async startPlayIn(
    tx: SqlExecutor,
    userId: number,
    stationId: number,
    reserveId: number,
    settingId: number,
  ): Promise<Runner> {
    const now = this.clock.now();
    const station = await this.station(tx, stationId);
    if (!station || station.station_status !== 'open') throw new Refusal(409, 409, SERVER_MESSAGES.stationPrizeChange);
    const practice = station.designated_type === 'practice';
    if (!practice && station.stock <= 0) throw new Refusal(409, 409, SERVER_MESSAGES.stationSoldOut);
    const { currency, price } = playCharge(station.designated_type, station.play_price);
    const [gaugeRow] = await tx.query<{ misses: number }>(
      'SELECT misses FROM assist_gauges WHERE user_id = $1 AND station_id = $2',
      [userId, stationId],
    );
    const gauge = assistGauge(practice ? 0 : (gaugeRow?.misses ?? 0));
    const armStrength = assistedArmStrength(station.arm_strength, gauge);
    const layout = await this.layout(tx, station);
    const seed = this.newSeed();
    const deadline = new Date(now.getTime() + PLAY_TIMINGS.resetMs);
    const [play] = await tx.query<{ play_id: number }>(
      `INSERT INTO plays (play_reserve_id, user_id, station_id, station_setting_id, currency, price, base_arm_strength, assist_level, arm_strength,
                          seed, layout, phase, phase_deadline_at, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'resetting', $12, $13) RETURNING play_id`,
      [
        reserveId,
        userId,
        stationId,
        settingId,
        currency,
        price,
        station.arm_strength,
        gauge.level,
        armStrength,
        seed,
        JSON.stringify(layout),
        deadline.toISOString(),
        now.toISOString(),
      ],
    );
    const playId = play!.play_id;
    const entry = { amount: price, reason: 'play', reference: `play:${playId}`, idempotencyKey: `play:${playId}` };
    if (currency === 'tc' && price > 0) {
      const { taken } = await this.ledger.debit(userId, entry, tx);
      await tx.query('UPDATE plays SET charged_free = $2, charged_toll = $3 WHERE play_id = $1', [
        playId,
        taken.free,
        taken.toll,
      ]);
    } else if (currency === 'ticket') {
      await this.ledger.debitTickets(userId, entry, tx);
    }
    await tx.query(
      `UPDATE station_reservations SET reserve_status = 'playWaiting', deadline_at = $2, updated_at = $3 WHERE play_reserve_id = $1`,
      [reserveId, deadline.toISOString(), now.toISOString()],
    );
    return {
      playId,
      reserveId,
      userId,
      station,
      currency,
      price,
      armStrength,
      assistLevel: gauge.level,
      phase: 'resetting',
      state: startPlay(layout, armStrength, seed),
      inputs: [],
      dropAtTick: null,
      result: null,
      wonPrizeName: null,
      windowDeadline: deadline,
      graceDeadline: null,
      tickTask: null,
      windowTask: null,
      graceTask: null,
      ticksSinceSave: 0,
    };
  }

  /** The prizes on a station's field; laid from the station's id the first time. */
  private async layout(tx: SqlExecutor, station: StationRow): Promise<CranePrize[]> {
    const [row] = await tx.query<{ layout: CranePrize[] }>(
      'SELECT layout FROM station_machines WHERE station_id = $1',
      [station.station_id],
    );
    if (row) return row.layout;
    const count = Math.max(1, Math.min(3, station.stock));
    const layout = layPrizes(station.station_id * 7919, count, 1, station.prize_shape);
    await tx.query(
      'INSERT INTO station_machines (station_id, layout, next_prize_id, updated_at) VALUES ($1, $2, $3, $4)',
      [station.station_id, JSON.stringify(layout), count + 1, this.clock.now().toISOString()],
    );
    return layout;
  }

  /** A runner enters its reset window; when it ends the machine starts. */
  private begin(r: Runner): void {
    this.runners.set(r.station.station_id, r);
    r.windowTask = this.later(this.msUntil(r.windowDeadline), () => this.startMachine(r));
    this.emit(r);
  }

  private async startMachine(r: Runner): Promise<void> {
    if (this.runners.get(r.station.station_id) !== r || r.phase !== 'resetting') return;
    r.phase = 'playing';
    r.windowDeadline = null;
    r.windowTask = null;
    await this.db.query(
      `UPDATE plays SET phase = 'playing', phase_deadline_at = NULL, machine = $2 WHERE play_id = $1`,
      [r.playId, JSON.stringify(r.state)],
    );
    await this.db.query('UPDATE station_reservations SET deadline_at = NULL WHERE play_reserve_id = $1', [r.reserveId]);
    this.scheduleTick(r);
    this.emit(r);
  }

  // ---- the machine running -------------------------------------------------------------------

  /**
   * Arms the machine's next tick. A tick that follows another (`after`, the instant that one was
   * due) is due one tick after it, not one tick after it ran: a timer that fires late on a busy
   * event loop would otherwise push every later tick back: under load the machine (and the video's
   * pictures, drawn at each tick) ran slower, and a command waited longer for the tick that moves
   * the claw (docs/performance.md, issue 10). A tick more than a whole tick late counts on from now
   * instead of catching up in a burst.
   */
  private scheduleTick(r: Runner, after: number | null = null): void {
    const now = this.clock.now().getTime();
    const due = after !== null && now - after < CRANE.tickMs ? after + CRANE.tickMs : now + CRANE.tickMs;
    r.tickTask = this.clock.setTimeout(() => this.onTick(r, due), due - now);
  }

  private onTick(r: Runner, dueAt: number): void {
    r.tickTask = null;
    if (this.closed || this.runners.get(r.station.station_id) !== r || r.phase !== 'playing' || r.graceDeadline) return;
    const before = r.state.phase;
    r.state = tick(r.state);
    r.ticksSinceSave += 1;
    if (r.state.phase === 'done') {
      void this.serial(() => this.finish(r));
      return;
    }
    if (r.state.phase !== before || r.ticksSinceSave >= SAVE_EVERY_TICKS) this.save(r);
    if (r.state.phase !== before || r.state.tick % PUSH_EVERY_TICKS === 0) this.emit(r);
    this.scheduleTick(r, dueAt);
    for (const listener of this.tickListeners) listener(r.station.station_id);
  }

  private save(r: Runner): void {
    r.ticksSinceSave = 0;
    const machine = JSON.stringify(r.state);
    const inputs = JSON.stringify(r.inputs);
    const { dropAtTick, graceDeadline } = r;
    void this.serial(async () => {
      await this.db.query(
        "UPDATE plays SET machine = $2, inputs = $3, drop_at_tick = $4, grace_deadline_at = $5 WHERE play_id = $1 AND phase = 'playing'",
        [r.playId, machine, inputs, dropAtTick, isoOrNull(graceDeadline)],
      );
    });
  }

  /**
   * A button press or release from the player. Refused: over 25 commands a second (429, counted
   * before anything else), not the player's play (403), not the button's moment (409). A player
   * coming back from a lost connection is back in the play with this.
   */
  control(
    userId: number,
    playId: number,
    button: CraneButton,
    cmd: CraneCommand,
  ): { tick: number; machine: MachineView } {
    const now = this.clock.now().getTime();
    const times = (this.commandTimes.get(userId) ?? []).filter((t) => now - t < 1000);
    times.push(now);
    this.commandTimes.set(userId, times);
    if (times.length > CONTROL_COMMANDS_PER_SECOND) throw new Refusal(429, 429, SERVER_MESSAGES.controlTooFast);
    const r = [...this.runners.values()].find((x) => x.playId === playId);
    if (!r || r.userId !== userId) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
    if (r.phase !== 'playing') throw new Refusal(409, 409, SERVER_MESSAGES.buttonNotReady);
    if (r.graceDeadline) this.back(r);
    const next = command(r.state, button, cmd);
    if (!next) throw new Refusal(409, 409, SERVER_MESSAGES.buttonNotReady);
    r.inputs.push({ tick: r.state.tick, button, command: cmd });
    r.state = next;
    this.save(r);
    this.emit(r);
    return { tick: r.state.tick, machine: machineView(r.state) };
  }

  /** The player's connection is gone: a running play waits for them (the grace window). */
  playerAway(userId: number): void {
    for (const r of this.runners.values()) {
      if (r.userId !== userId || r.phase !== 'playing' || r.graceDeadline || r.state.phase === 'done') continue;
      // A held button lets go where the claw is.
      const held: CraneButton | null =
        r.state.autoStopTick !== null
          ? null
          : r.state.phase === 'movingRight'
            ? 'right'
            : r.state.phase === 'movingBack'
              ? 'back'
              : null;
      if (held) {
        const next = command(r.state, held, 'release');
        if (next) {
          r.inputs.push({ tick: r.state.tick, button: held, command: 'release' });
          r.state = next;
        }
      }
      if (r.state.phase !== 'ready' && r.state.phase !== 'waitBack') continue; // already dropping: it finishes by itself
      r.tickTask?.cancel();
      r.tickTask = null;
      this.awayUntil(r, new Date(this.clock.now().getTime() + PLAY_TIMINGS.graceMs));
    }
  }

  private awayUntil(r: Runner, deadline: Date): void {
    r.graceDeadline = deadline;
    r.graceTask = this.later(this.msUntil(deadline), () => this.graceLapsed(r));
    this.save(r);
    this.emit(r);
  }

  /** The player is back (a connection or a call): a play waiting in its grace window runs on. */
  playerBack(userId: number): void {
    for (const r of this.runners.values()) if (r.userId === userId && r.graceDeadline) this.back(r);
  }

  private back(r: Runner): void {
    r.graceTask?.cancel();
    r.graceTask = null;
    r.graceDeadline = null;
    this.save(r);
    if (r.phase === 'playing' && !r.tickTask) this.scheduleTick(r);
    this.emit(r);
  }

  /** Nobody came back: the claw drops where it is and the play ends as any other. */
  private async graceLapsed(r: Runner): Promise<void> {
    if (this.runners.get(r.station.station_id) !== r || !r.graceDeadline) return;
    r.graceTask = null;
    r.graceDeadline = null;
    r.state = dropNow(r.state);
    r.dropAtTick = r.state.tick;
    this.save(r);
    if (!r.tickTask) this.scheduleTick(r);
  }

  // ---- the result and after ------------------------------------------------------------------

  /** Records the result: the prize, the stock, the VIP weekly count, the gauge and the field. */
  private async finish(r: Runner): Promise<void> {
    if (this.runners.get(r.station.station_id) !== r || r.phase !== 'playing') return;
    const outcome = r.state.outcome!;
    const now = this.clock.now();
    const practice = r.station.designated_type === 'practice';
    const deadline = new Date(now.getTime() + PLAY_TIMINGS.continueMs);
    const nickname = await this.db.transaction(async (tx) => {
      let wonId: number | null = null;
      if (outcome.result === 'win' && !practice) {
        const [won] = await tx.query<{ play_history_id: number }>(
          `INSERT INTO won_prizes (user_id, station_id, prize_kind, product_name, won_at) VALUES ($1, $2, 'crane', $3, $4) RETURNING play_history_id`,
          [r.userId, r.station.station_id, r.station.prize_name, now.toISOString()],
        );
        wonId = won!.play_history_id;
        await tx.query('UPDATE stations SET stock = GREATEST(stock - 1, 0) WHERE station_id = $1', [
          r.station.station_id,
        ]);
        if (r.station.station_type !== 'normal') {
          await tx.query('INSERT INTO vip_prize_wins (user_id, station_id, won_at) VALUES ($1, $2, $3)', [
            r.userId,
            r.station.station_id,
            now.toISOString(),
          ]);
        }
      }
      if (!practice) {
        const [g] = await tx.query<{ misses: number }>(
          'SELECT misses FROM assist_gauges WHERE user_id = $1 AND station_id = $2',
          [r.userId, r.station.station_id],
        );
        await tx.query(
          `INSERT INTO assist_gauges (user_id, station_id, misses, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_id, station_id) DO UPDATE SET misses = EXCLUDED.misses, updated_at = EXCLUDED.updated_at`,
          [r.userId, r.station.station_id, nextAssistMisses(g?.misses ?? 0, outcome.result), now.toISOString()],
        );
      }
      await this.refill(tx, r);
      await tx.query(
        `UPDATE plays SET phase = 'result', result = $2, won_prize_id = $3, machine = $4, inputs = $5, drop_at_tick = $6,
                          grace_deadline_at = NULL, phase_deadline_at = $7, ended_at = $8 WHERE play_id = $1`,
        [
          r.playId,
          outcome.result,
          wonId,
          JSON.stringify(r.state),
          JSON.stringify(r.inputs),
          r.dropAtTick,
          deadline.toISOString(),
          now.toISOString(),
        ],
      );
      await tx.query('UPDATE station_reservations SET deadline_at = $2, updated_at = $3 WHERE play_reserve_id = $1', [
        r.reserveId,
        deadline.toISOString(),
        now.toISOString(),
      ]);
      const [user] = await tx.query<{ nickname: string | null }>('SELECT nickname FROM users WHERE user_id = $1', [
        r.userId,
      ]);
      return user?.nickname ?? null;
    });
    r.phase = 'result';
    r.result = outcome.result;
    r.wonPrizeName = outcome.result === 'win' && !practice ? r.station.prize_name : null;
    r.windowDeadline = deadline;
    r.windowTask = this.later(PLAY_TIMINGS.continueMs, () => this.continueLapsed(r));
    this.emit(r);
    if (r.wonPrizeName) {
      this.events.winner({
        station_id: r.station.station_id,
        prize_name: r.wonPrizeName,
        message: SERVER_MESSAGES.winnerAnnouncement(nickname || SERVER_MESSAGES.anonymousPlayer, r.wonPrizeName),
      });
    }
  }

  /**
   * The field after a play: the prizes where they came to rest, and a new prize placed when one
   * was won and the stock has more (practice stations put theirs back: nothing is given away).
   */
  private async refill(tx: SqlExecutor, r: Runner): Promise<void> {
    const [machine] = await tx.query<{ next_prize_id: number }>(
      'SELECT next_prize_id FROM station_machines WHERE station_id = $1',
      [r.station.station_id],
    );
    let nextId = machine?.next_prize_id ?? 1;
    const layout = [...r.state.prizes];
    const [station] = await tx.query<{ stock: number }>('SELECT stock FROM stations WHERE station_id = $1', [
      r.station.station_id,
    ]);
    const wanted = Math.max(1, Math.min(3, r.station.designated_type === 'practice' ? 3 : (station?.stock ?? 0)));
    while (layout.length < wanted) {
      const [fresh] = layPrizes(r.state.rng ^ nextId, 1, nextId, r.station.prize_shape);
      layout.push(fresh!);
      nextId += 1;
    }
    await tx.query(
      'UPDATE station_machines SET layout = $2, next_prize_id = $3, updated_at = $4 WHERE station_id = $1',
      [r.station.station_id, JSON.stringify(layout), nextId, this.clock.now().toISOString()],
    );
  }

  /** The same player plays again within the continue window (charged again). */
  continuePlay(userId: number, playId: number): Promise<PlayState> {
    return this.serial(async () => {
      const r = [...this.runners.values()].find((x) => x.playId === playId);
      if (!r || r.userId !== userId) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
      if (r.phase !== 'result' || this.msUntil(r.windowDeadline) <= 0)
        throw new Refusal(409, 409, SERVER_MESSAGES.continueClosed);
      const [setting] = await this.db.query<{ station_setting_id: number }>(
        'SELECT station_setting_id FROM station_reservations WHERE play_reserve_id = $1',
        [r.reserveId],
      );
      const next = await this.db.transaction(async (tx) => {
        await tx.query(`UPDATE plays SET phase = 'ended', phase_deadline_at = NULL WHERE play_id = $1`, [r.playId]);
        return this.startPlayIn(tx, userId, r.station.station_id, r.reserveId, setting!.station_setting_id);
      });
      this.stopTimers(r);
      this.begin(next);
      return this.view(next);
    });
  }

  /** The player ends their turn after a result (instead of waiting for the window to close). */
  finishTurn(userId: number, playId: number): Promise<void> {
    return this.serial(async () => {
      const r = [...this.runners.values()].find((x) => x.playId === playId);
      if (!r || r.userId !== userId) throw new Refusal(403, 403, SERVER_MESSAGES.notYourPlay);
      if (r.phase !== 'result') throw new Refusal(409, 409, SERVER_MESSAGES.stationPlayingNow);
      await this.endTurn(r, 'played');
    });
  }

  private async continueLapsed(r: Runner): Promise<void> {
    if (this.runners.get(r.station.station_id) !== r || r.phase !== 'result') return;
    await this.endTurn(r, 'played');
  }

  /** The turn is over: the play row closes, the reservation ends, the line moves on. */
  private async endTurn(r: Runner, reason: EndReason): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE plays SET phase = 'ended', phase_deadline_at = NULL, grace_deadline_at = NULL WHERE play_id = $1`,
        [r.playId],
      );
      await tx.query(
        `UPDATE station_reservations SET reserve_status = 'cancel', end_reason = $2, ended_at = $3, deadline_at = NULL, updated_at = $3
          WHERE play_reserve_id = $1 AND reserve_status IN ${ACTIVE}`,
        [r.reserveId, reason, now],
      );
    });
    this.stopTimers(r);
    r.phase = 'ended';
    this.runners.delete(r.station.station_id);
    this.emit(r);
    await this.endLineIfSoldOut(r.station.station_id);
    await this.advance(r.station.station_id);
  }

  /** A station whose last prize was won: the line behind cannot play it; each place ends with 'change'. */
  private async endLineIfSoldOut(stationId: number): Promise<void> {
    const station = await this.station(this.db, stationId);
    if (!station || station.stock > 0 || station.designated_type === 'practice') return;
    await this.endLine(stationId, 'change', 'prize_change');
  }

  /** Ends every place in a station's line with `status`, telling each user. */
  private async endLine(stationId: number, status: 'cancel' | 'change', reason: EndReason): Promise<void> {
    const now = this.clock.now().toISOString();
    const ended = await this.db.query<{ play_reserve_id: number; user_id: number }>(
      `UPDATE station_reservations SET reserve_status = $2, end_reason = $3, ended_at = $4, deadline_at = NULL, updated_at = $4
        WHERE station_id = $1 AND reserve_status IN ${ACTIVE} RETURNING play_reserve_id, user_id`,
      [stationId, status, reason, now],
    );
    for (const row of ended) {
      this.confirmTasks.get(row.play_reserve_id)?.cancel();
      this.confirmTasks.delete(row.play_reserve_id);
      this.nearNotified.delete(row.play_reserve_id);
      this.events.reserveCancelled(row.user_id, stationId, reason);
    }
    if (ended.length > 0) this.events.lineChanged(stationId);
  }

  // ---- faults and the operator ---------------------------------------------------------------

  /**
   * Sets a station's status (the operator API). Maintenance statuses and 'change' end the play on
   * the machine (refunded exactly once when it had not finished) and the line ('cancel', or
   * 'change' for a prize change); 'open' hands the turn to the head of the line again.
   */
  setStationStatus(stationId: number, status: StationStatus): Promise<{ refunded_play_id: number | null }> {
    return this.serial(async () => {
      const station = await this.station(this.db, stationId);
      if (!station) throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
      await this.db.query('UPDATE stations SET station_status = $2 WHERE station_id = $1', [stationId, status]);
      let refunded: number | null = null;
      if (isMaintenanceStatus(status) || status === 'change') {
        refunded = await this.stopMachine(stationId);
        await this.endLine(
          stationId,
          status === 'change' ? 'change' : 'cancel',
          status === 'change' ? 'prize_change' : 'maintenance',
        );
      }
      this.events.stationStatus(stationId, status);
      if (status === 'open') await this.advance(stationId);
      return { refunded_play_id: refunded };
    });
  }

  /** Sets a station's stock (the operator restocks); a station with stock again takes its line on. */
  restock(stationId: number, stock: number): Promise<StationRow> {
    return this.serial(async () => {
      const [row] = await this.db.query<{ station_id: number }>(
        'UPDATE stations SET stock = $2 WHERE station_id = $1 RETURNING station_id',
        [stationId, stock],
      );
      if (!row) throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
      if (stock === 0) await this.endLineIfSoldOut(stationId);
      else await this.advance(stationId);
      return (await this.station(this.db, stationId))!;
    });
  }

  /** Sets a station's base arm strength (published in each play's log from then on). */
  setArmStrength(stationId: number, armStrength: number): Promise<StationRow> {
    return this.serial(async () => {
      const [row] = await this.db.query(
        'UPDATE stations SET arm_strength = $2 WHERE station_id = $1 RETURNING station_id',
        [stationId, armStrength],
      );
      if (!row) throw new Refusal(404, 404, SERVER_MESSAGES.stationNotFound);
      return (await this.station(this.db, stationId))!;
    });
  }

  /**
   * A new prize on a station: the play on the machine ends (refunded if unfinished) and the line
   * ends with 'change' [R4.3-3]; the station gets a new setting (so old reservations are told apart),
   * a fresh field, the new name, shape and stock; then it opens again.
   */
  async changePrize(
    stationId: number,
    prize: { prize_name: string; prize_shape: PrizeShape; stock: number; arm_strength?: number | undefined },
  ): Promise<{ refunded_play_id: number | null }> {
    const stopped = await this.setStationStatus(stationId, 'change');
    await this.serial(async () => {
      await this.db.transaction(async (tx) => {
        await tx.query(
          'UPDATE stations SET prize_name = $2, prize_shape = $3, stock = $4, arm_strength = COALESCE($5, arm_strength) WHERE station_id = $1',
          [stationId, prize.prize_name, prize.prize_shape, prize.stock, prize.arm_strength ?? null],
        );
        await tx.query('UPDATE station_settings SET active = false WHERE station_id = $1 AND active', [stationId]);
        await tx.query('INSERT INTO station_settings (station_id) VALUES ($1)', [stationId]);
        await tx.query('UPDATE station_visits SET ended_at = $2 WHERE station_id = $1 AND ended_at IS NULL', [
          stationId,
          this.clock.now().toISOString(),
        ]);
        await tx.query('DELETE FROM station_machines WHERE station_id = $1', [stationId]);
      });
    });
    await this.setStationStatus(stationId, 'open');
    return stopped;
  }

  /** A fault on the machine: the play is refunded once, the station goes to malfunction. */
  fault(stationId: number): Promise<{ refunded_play_id: number | null }> {
    return this.setStationStatus(stationId, 'malfunction');
  }

  /** Ends the play on a station's machine; an unfinished one is refunded (idempotent per play). */
  private async stopMachine(stationId: number): Promise<number | null> {
    const r = this.runners.get(stationId);
    if (!r) return null;
    this.stopTimers(r);
    this.runners.delete(stationId);
    const unfinished = r.phase === 'resetting' || r.phase === 'playing';
    await this.db.transaction(async (tx) => {
      if (unfinished) await this.refund(tx, r.playId);
      await tx.query(
        `UPDATE plays SET phase = 'ended', result = COALESCE(result, $2), phase_deadline_at = NULL, grace_deadline_at = NULL,
                          machine = $3, inputs = $4, ended_at = COALESCE(ended_at, $5) WHERE play_id = $1`,
        [
          r.playId,
          unfinished ? 'refunded' : null,
          JSON.stringify(r.state),
          JSON.stringify(r.inputs),
          this.clock.now().toISOString(),
        ],
      );
    });
    r.phase = 'ended';
    if (unfinished) r.result = 'refunded';
    this.emit(r);
    return unfinished ? r.playId : null;
  }

  /** Gives back exactly what a play took; the ledger keys make a second refund change nothing. */
  private async refund(tx: SqlExecutor, playId: number): Promise<void> {
    const [p] = await tx.query<{
      user_id: number;
      currency: PlayCurrency;
      price: number;
      charged_free: number;
      charged_toll: number;
    }>('SELECT user_id, currency, price, charged_free, charged_toll FROM plays WHERE play_id = $1', [playId]);
    if (!p) return;
    const entry = (amount: number) => ({
      amount,
      reason: 'refund',
      reference: `play:${playId}`,
      idempotencyKey: `refund:play:${playId}`,
    });
    if (p.currency === 'tc') {
      if (p.charged_free > 0) await this.ledger.credit(p.user_id, 'free', entry(p.charged_free), tx);
      if (p.charged_toll > 0) await this.ledger.credit(p.user_id, 'toll', entry(p.charged_toll), tx);
    } else if (p.currency === 'ticket') {
      await this.ledger.creditTickets(p.user_id, entry(p.price), tx);
    }
  }

  // ---- reading ------------------------------------------------------------------------------

  /** The caller's play on any machine (in memory), or null. A player in a grace window is back. */
  current(userId: number): PlayState | null {
    const r = [...this.runners.values()].find((x) => x.userId === userId);
    if (!r) return null;
    if (r.graceDeadline) this.back(r);
    return this.view(r);
  }

  /** The play on a station's machine as viewers see it, or null when it is idle. */
  onStation(stationId: number): PlayState | null {
    const r = this.runners.get(stationId);
    return r ? this.view(r) : null;
  }

  /** What the cameras draw for a station: the running machine, or null (the stored field). */
  machineOf(stationId: number): CraneState | null {
    return this.runners.get(stationId)?.state ?? null;
  }

  private view(r: Runner): PlayState {
    return {
      play_id: r.playId,
      play_reserve_id: r.reserveId,
      station_id: r.station.station_id,
      phase: r.phase,
      machine: machineView(r.state),
      window_ms_left: r.windowDeadline ? this.msUntil(r.windowDeadline) : null,
      grace_ms_left: r.graceDeadline ? this.msUntil(r.graceDeadline) : null,
      result: r.result,
      won_prize_name: r.wonPrizeName,
      currency: r.currency,
      price: r.price,
      arm_strength: r.armStrength,
      assist_level: r.assistLevel,
    };
  }

  private emit(r: Runner): void {
    this.events.playState(r.station.station_id, this.view(r));
  }

  // ---- restart -------------------------------------------------------------------------------

  /**
   * After a (re)start: re-arms every deadline the store holds. Confirm windows run to their end;
   * a reset or continue window likewise; a play that was running comes back in its grace window
   * (its player's connection is gone with the old process). Then every line moves if it can.
   */
  async recover(): Promise<void> {
    const now = this.clock.now();
    const waiting = await this.db.query<{ play_reserve_id: number; deadline_at: Date }>(
      `SELECT play_reserve_id, deadline_at FROM station_reservations WHERE reserve_status = 'playTransition'`,
    );
    for (const w of waiting) this.armConfirm(w.play_reserve_id, new Date(w.deadline_at ?? now));
    const open = await this.db.query<{
      play_id: number;
      play_reserve_id: number;
      user_id: number;
      station_id: number;
      currency: PlayCurrency;
      price: number;
      arm_strength: number;
      assist_level: number;
      seed: number;
      layout: CranePrize[];
      inputs: CraneInput[];
      machine: CraneState | null;
      phase: PlayPhase;
      phase_deadline_at: Date | null;
      grace_deadline_at: Date | null;
      drop_at_tick: number | null;
      result: 'win' | 'miss' | 'refunded' | null;
    }>(`SELECT * FROM plays WHERE phase IN ('resetting', 'playing', 'result')`);
    for (const p of open) {
      const station = await this.station(this.db, p.station_id);
      if (!station) continue;
      const r: Runner = {
        playId: p.play_id,
        reserveId: p.play_reserve_id,
        userId: p.user_id,
        station,
        currency: p.currency,
        price: p.price,
        armStrength: Number(p.arm_strength),
        assistLevel: p.assist_level,
        phase: p.phase,
        state: p.machine ?? startPlay(p.layout, Number(p.arm_strength), p.seed),
        inputs: p.inputs ?? [],
        dropAtTick: p.drop_at_tick,
        result: p.result,
        wonPrizeName: p.result === 'win' && station.designated_type !== 'practice' ? station.prize_name : null,
        windowDeadline: p.phase_deadline_at ? new Date(p.phase_deadline_at) : null,
        graceDeadline: null,
        tickTask: null,
        windowTask: null,
        graceTask: null,
        ticksSinceSave: 0,
      };
      this.runners.set(p.station_id, r);
      if (p.phase === 'resetting')
        r.windowTask = this.later(this.msUntil(r.windowDeadline), () => this.startMachine(r));
      else if (p.phase === 'result')
        r.windowTask = this.later(this.msUntil(r.windowDeadline), () => this.continueLapsed(r));
      else if (
        r.state.phase === 'ready' ||
        r.state.phase === 'waitBack' ||
        r.state.phase === 'movingRight' ||
        r.state.phase === 'movingBack'
      ) {
        if (r.state.phase === 'movingRight' || r.state.phase === 'movingBack') {
          const held: CraneButton = r.state.phase === 'movingRight' ? 'right' : 'back';
          const next = r.state.autoStopTick === null ? command(r.state, held, 'release') : null;
          if (next) {
            r.inputs.push({ tick: r.state.tick, button: held, command: 'release' });
            r.state = next;
          }
        }
        this.awayUntil(
          r,
          p.grace_deadline_at ? new Date(p.grace_deadline_at) : new Date(now.getTime() + PLAY_TIMINGS.graceMs),
        );
      } else {
        this.scheduleTick(r); // the claw was already on its way down: it finishes by itself
      }
    }
    const stations = await this.db.query<{ station_id: number }>(
      `SELECT DISTINCT station_id FROM station_reservations WHERE reserve_status IN ${ACTIVE}`,
    );
    for (const s of stations) await this.serial(() => this.advance(s.station_id));
  }
}

/** The machine as viewers see it, with the button the player may use and its time left. */
export function machineView(s: CraneState): MachineView {
  const auto = s.autoStopTick !== null;
  const button =
    s.phase === 'ready' || (s.phase === 'movingRight' && !auto)
      ? 'right'
      : s.phase === 'waitBack' || (s.phase === 'movingBack' && !auto)
        ? 'back'
        : null;
  const left = buttonTicksLeft(s);
  return {
    tick: s.tick,
    phase: s.phase,
    x: s.x,
    z: s.z,
    h: s.h,
    grip: s.grip,
    button,
    button_ms_left: left === null ? null : left * CRANE.tickMs,
  };
}
