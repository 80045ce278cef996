import { z } from 'zod/mini';
import { recordWonPrize } from '../../delivery/won-prizes';
import {
  assistedArmStrength,
  PRIZE_STORAGE_DAYS,
  assistGauge,
  RESERVING_STATUSES,
  SETTINGS_CHANGE_REASONS,
  STAFF_ASSIST_MAX_MISSES,
  type CraneInput,
  type CranePrize,
  type CraneState,
  type DesignatedType,
  type PendingSettings,
  type PlayCurrency,
  type PrizeShape,
  type RoomSnapshot,
  type RoomWrite,
  type StartedPlay,
  type StationStatus,
  type StationType,
} from '../../../src/domain';
import type { Clock } from '../../clock';
import { SERVER_MESSAGES } from '../../messages';
import type { SqlExecutor, Store } from '../../store/store';
import { isUniqueViolation, Refusal } from '../refusal';
import type { ReserveGate } from '../reserve-gate';
import { newReserveToken } from '../reserve-token';
import type { PlayLedger, PlayStore, StartPlay } from './play-ports';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const ms = (d: Date | string | null): number | null => (d === null ? null : new Date(d).getTime());

interface StationRow {
  station_id: number;
  shop_id: number;
  station_status: StationStatus;
  station_type: StationType;
  designated_type: DesignatedType;
  stock: number;
  play_price: number;
  arm_strength: number;
  prize_name: string;
  prize_shape: PrizeShape;
  paused: boolean;
  emergency_stopped: boolean;
  settings_version: number;
  pending_settings: unknown;
  assist_misses: number;
}

/** A waiting settings change as the room wrote it; anything else is dropped (a change is never half applied) [R11-6]. */
const pendingSettingsSchema = z.object({
  patch: z.object({
    armStrength: z.optional(z.number().check(z.gte(0)).check(z.lte(1))),
    playPrice: z.optional(z.int().check(z.gte(0))),
    prizeName: z.optional(z.string()),
    prizeShape: z.optional(z.enum(['box', 'plush', 'capsule'])),
    assistMisses: z.optional(z.int().check(z.gte(0)).check(z.lte(STAFF_ASSIST_MAX_MISSES))),
  }),
  stock: z.nullable(z.int().check(z.gte(0))),
  reason: z.enum(SETTINGS_CHANGE_REASONS),
  operator: z.nullable(z.string()),
  requestedAt: z.number(),
});
function storedPending(value: unknown): PendingSettings | null {
  if (value === null || value === undefined) return null;
  const parsed = pendingSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

interface PlayRow {
  play_id: number;
  play_reserve_id: number;
  user_id: number;
  station_id: number;
  phase: 'resetting' | 'playing' | 'result';
  currency: PlayCurrency;
  price: number;
  charged_free: number;
  charged_toll: number;
  arm_strength: number;
  assist_level: number;
  misses: number;
  seed: number;
  layout: CranePrize[];
  inputs: CraneInput[] | null;
  machine: CraneState | null;
  drop_at_tick: number | null;
  phase_deadline_at: Date | null;
  grace_deadline_at: Date | null;
  result: 'win' | 'miss' | 'refunded' | null;
  assist_asked_at: Date | null;
  run_misses: number;
}

/**
 * A play's player's misses in a row in its turn [R11-9]: the misses of its reservation after its
 * last win or last answered staff assist (the play `p` is the turn's latest).
 */
const RUN_MISSES_SQL = `(SELECT count(*)::int FROM plays m
    WHERE m.play_reserve_id = p.play_reserve_id AND m.result = 'miss'
      AND m.play_id > COALESCE((SELECT max(q.play_id) FROM plays q LEFT JOIN staff_assists a ON a.play_id = q.play_id
                                 WHERE q.play_reserve_id = p.play_reserve_id
                                   AND (q.result = 'win' OR a.status IN ('done', 'declined', 'lapsed'))), 0))`;

/**
 * The station rooms' store over SQL (PGlite here; plain PostgreSQL). The one place that changes
 * station_reservations statuses, plays and a station's status and stock; every method is one
 * transaction, so a step of a room is written whole or not at all.
 */
export class SqlPlayStore implements PlayStore {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly ledger: PlayLedger,
    private readonly gate: ReserveGate,
    private readonly prizeStorageDays: number = PRIZE_STORAGE_DAYS,
  ) {}

  async loadRooms(stationIds?: readonly number[]): Promise<RoomSnapshot[]> {
    const only = stationIds ? [...stationIds] : null;
    const stations = await this.db.query<StationRow>(
      `SELECT station_id, shop_id, station_status, station_type, designated_type, stock, play_price, arm_strength, prize_name, prize_shape, paused, emergency_stopped,
              settings_version, pending_settings, assist_misses
         FROM stations WHERE $1::int[] IS NULL OR station_id = ANY($1::int[]) ORDER BY station_id`,
      [only],
    );
    const fields = await this.db.query<{ station_id: number; layout: CranePrize[]; next_prize_id: number }>(
      'SELECT station_id, layout, next_prize_id FROM station_machines WHERE $1::int[] IS NULL OR station_id = ANY($1::int[])',
      [only],
    );
    const reservations = await this.db.query<{
      play_reserve_id: number;
      user_id: number;
      station_id: number;
      station_setting_id: number;
      reserve_status: 'reserve' | 'playTransition' | 'playWaiting';
      deadline_at: Date | null;
    }>(
      `SELECT play_reserve_id, user_id, station_id, station_setting_id, reserve_status, deadline_at
         FROM station_reservations
        WHERE reserve_status = ANY($2::text[]) AND ($1::int[] IS NULL OR station_id = ANY($1::int[]))
        ORDER BY station_id, queued_at, play_reserve_id`,
      [only, [...RESERVING_STATUSES]],
    );
    const plays = await this.db.query<PlayRow>(
      `SELECT p.play_id, p.play_reserve_id, p.user_id, p.station_id, p.phase, p.currency, p.price, p.charged_free, p.charged_toll,
              p.arm_strength, p.assist_level, coalesce(g.misses, 0) AS misses, p.seed, p.layout, p.inputs, p.machine,
              p.drop_at_tick, p.phase_deadline_at, p.grace_deadline_at, p.result,
              (SELECT a.asked_at FROM staff_assists a WHERE a.play_id = p.play_id AND a.status = 'asked') AS assist_asked_at,
              ${RUN_MISSES_SQL} AS run_misses
         FROM plays p LEFT JOIN assist_gauges g ON g.user_id = p.user_id AND g.station_id = p.station_id
        WHERE p.phase IN ('resetting', 'playing', 'result') AND ($1::int[] IS NULL OR p.station_id = ANY($1::int[]))`,
      [only],
    );
    return stations.map((s) => {
      const field = fields.find((f) => f.station_id === s.station_id);
      const play = plays.find((p) => p.station_id === s.station_id);
      return {
        station: {
          stationId: s.station_id,
          shopId: s.shop_id,
          status: s.station_status,
          stationType: s.station_type,
          designatedType: s.designated_type,
          stock: s.stock,
          playPrice: s.play_price,
          armStrength: Number(s.arm_strength),
          prizeName: s.prize_name,
          prizeShape: s.prize_shape,
          paused: s.paused,
          emergencyStopped: s.emergency_stopped,
          settingsVersion: s.settings_version,
          assistMisses: s.assist_misses,
        },
        pendingSettings: storedPending(s.pending_settings),
        field: field ? { prizes: field.layout, nextPrizeId: field.next_prize_id } : null,
        reservations: reservations
          .filter((r) => r.station_id === s.station_id)
          .map((r) => ({
            reserveId: r.play_reserve_id,
            userId: r.user_id,
            settingId: r.station_setting_id,
            status: r.reserve_status,
            deadline: ms(r.deadline_at),
          })),
        play: play
          ? {
              playId: play.play_id,
              reserveId: play.play_reserve_id,
              userId: play.user_id,
              phase: play.phase,
              currency: play.currency,
              price: play.price,
              charged: { free: play.charged_free, toll: play.charged_toll },
              armStrength: Number(play.arm_strength),
              assistLevel: play.assist_level,
              gaugeMisses: play.misses,
              seed: play.seed,
              layout: play.layout,
              inputs: play.inputs ?? [],
              machine: play.machine,
              dropAtTick: play.drop_at_tick,
              phaseDeadline: ms(play.phase_deadline_at),
              graceDeadline: ms(play.grace_deadline_at),
              result: play.result,
              runMisses: play.run_misses,
              assistAskedAt: ms(play.assist_asked_at),
            }
          : null,
      };
    });
  }

  commit(stationId: number, writes: readonly RoomWrite[]): Promise<void> {
    if (writes.length === 1 && writes[0]!.kind === 'checkpoint') return this.write(this.db, stationId, writes[0]!);
    return this.db.transaction(async (tx) => {
      for (const write of writes) await this.write(tx, stationId, write);
    });
  }

  private async write(tx: SqlExecutor, stationId: number, w: RoomWrite): Promise<void> {
    const now = this.clock.now().toISOString();
    switch (w.kind) {
      case 'offerTurn':
        await tx.query(
          `UPDATE station_reservations SET reserve_status = 'playTransition', deadline_at = $2, updated_at = $3
            WHERE play_reserve_id = $1 AND reserve_status = 'reserve'`,
          [w.reserveId, iso(w.deadline), now],
        );
        return;
      case 'withdrawTurn':
        await tx.query(
          `UPDATE station_reservations SET reserve_status = 'reserve', deadline_at = NULL, updated_at = $2
            WHERE play_reserve_id = $1 AND reserve_status = 'playTransition'`,
          [w.reserveId, now],
        );
        return;
      case 'endReservations':
        await tx.query(
          `UPDATE station_reservations SET reserve_status = $2, end_reason = $3, ended_at = $4, deadline_at = NULL, updated_at = $4
            WHERE play_reserve_id = ANY($1::int[]) AND reserve_status = ANY($5::text[])`,
          [[...w.reserveIds], w.status, w.reason, now, [...RESERVING_STATUSES]],
        );
        return;
      case 'playRunning':
        await tx.query(
          `UPDATE plays SET phase = 'playing', phase_deadline_at = NULL, machine = $2 WHERE play_id = $1`,
          [w.playId, JSON.stringify(w.machine)],
        );
        await tx.query('UPDATE station_reservations SET deadline_at = NULL WHERE play_reserve_id = $1', [w.reserveId]);
        return;
      case 'checkpoint':
        await tx.query(
          `UPDATE plays SET machine = $2, inputs = $3, drop_at_tick = $4, grace_deadline_at = $5 WHERE play_id = $1 AND phase = 'playing'`,
          [w.playId, JSON.stringify(w.machine), JSON.stringify(w.inputs), w.dropAtTick, iso(w.graceDeadline)],
        );
        return;
      case 'recordResult': {
        let wonId: number | null = null;
        if (w.prizeWon) {
          const [station] = await tx.query<{ image_key: string }>(
            'SELECT image_key FROM stations WHERE station_id = $1',
            [stationId],
          );
          wonId = await recordWonPrize(
            tx,
            {
              userId: w.userId,
              stationId,
              prizeKind: 'crane',
              productName: w.prizeWon.productName,
              imageKey: station?.image_key ?? null,
            },
            this.prizeStorageDays,
            new Date(now),
          );
        }
        if (w.vipWin) {
          await tx.query('INSERT INTO vip_prize_wins (user_id, station_id, won_at) VALUES ($1, $2, $3)', [
            w.userId,
            stationId,
            now,
          ]);
        }
        if (w.gaugeMisses !== null) {
          await tx.query(
            `INSERT INTO assist_gauges (user_id, station_id, misses, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (user_id, station_id) DO UPDATE SET misses = EXCLUDED.misses, updated_at = EXCLUDED.updated_at`,
            [w.userId, stationId, w.gaugeMisses, now],
          );
        }
        await tx.query(
          `UPDATE plays SET phase = 'result', result = $2, won_prize_id = $3, machine = $4, inputs = $5, drop_at_tick = $6,
                            grace_deadline_at = NULL, phase_deadline_at = $7, ended_at = $8 WHERE play_id = $1`,
          [
            w.playId,
            w.result,
            wonId,
            JSON.stringify(w.machine),
            JSON.stringify(w.inputs),
            w.dropAtTick,
            iso(w.continueDeadline),
            now,
          ],
        );
        await tx.query('UPDATE station_reservations SET deadline_at = $2, updated_at = $3 WHERE play_reserve_id = $1', [
          w.reserveId,
          iso(w.continueDeadline),
          now,
        ]);
        return;
      }
      case 'closePlay':
        // An assist still asked goes with its play (the player finished, the operator ended it, a fault).
        await tx.query(
          `UPDATE staff_assists SET status = 'cancelled', ended_at = $2 WHERE play_id = $1 AND status = 'asked'`,
          [w.playId, now],
        );
        await tx.query(
          `UPDATE plays SET phase = 'ended', result = CASE WHEN $2 THEN 'refunded' ELSE result END, phase_deadline_at = NULL,
                            grace_deadline_at = NULL, machine = COALESCE($3::jsonb, machine), inputs = COALESCE($4::jsonb, inputs),
                            ended_at = COALESCE(ended_at, $5)
            WHERE play_id = $1`,
          [
            w.playId,
            w.refunded,
            w.machine === null ? null : JSON.stringify(w.machine),
            w.machine === null ? null : JSON.stringify(w.inputs),
            now,
          ],
        );
        return;
      case 'refund':
        await this.ledger.refund(tx, w);
        return;
      case 'field':
        await tx.query(
          `INSERT INTO station_machines (station_id, layout, next_prize_id, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (station_id) DO UPDATE SET layout = EXCLUDED.layout, next_prize_id = EXCLUDED.next_prize_id, updated_at = EXCLUDED.updated_at`,
          [stationId, JSON.stringify(w.field.prizes), w.field.nextPrizeId, now],
        );
        return;
      case 'stationStatus':
        await tx.query('UPDATE stations SET station_status = $2 WHERE station_id = $1', [stationId, w.status]);
        return;
      case 'stock':
        await tx.query('UPDATE stations SET stock = $2 WHERE station_id = $1', [stationId, w.stock]);
        return;
      case 'armStrength':
        await tx.query('UPDATE stations SET arm_strength = $2 WHERE station_id = $1', [stationId, w.armStrength]);
        return;
      case 'playPrice':
        await tx.query('UPDATE stations SET play_price = $2 WHERE station_id = $1', [stationId, w.price]);
        return;
      case 'pendingSettings':
        await tx.query('UPDATE stations SET pending_settings = $2 WHERE station_id = $1', [
          stationId,
          w.pending === null ? null : JSON.stringify(w.pending),
        ]);
        return;
      case 'settingsChanged':
        // The history row and the station's version in one transaction with the change itself [R11-6].
        await tx.query(
          `INSERT INTO station_settings_changes (station_id, version, changes, reason, operator_login, requested_at, applied_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [stationId, w.version, JSON.stringify(w.changes), w.reason, w.operator, iso(w.requestedAt), iso(w.appliedAt)],
        );
        await tx.query('UPDATE stations SET settings_version = $2 WHERE station_id = $1', [stationId, w.version]);
        return;
      case 'paused':
        await tx.query('UPDATE stations SET paused = $2 WHERE station_id = $1', [stationId, w.paused]);
        break;
      case 'assistMisses':
        await tx.query('UPDATE stations SET assist_misses = $2 WHERE station_id = $1', [stationId, w.misses]);
        return;
      case 'assistAsked':
        // The hold is the play's window (and its reservation's) until answered [R11-9].
        await tx.query(
          `INSERT INTO staff_assists (play_id, station_id, user_id, play_reserve_id, misses, asked_at, deadline_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [w.playId, stationId, w.userId, w.reserveId, w.misses, iso(w.askedAt), iso(w.deadline)],
        );
        await this.playWindow(tx, w.playId, w.reserveId, w.deadline, now);
        return;
      case 'assistEnded': {
        const [row] = await tx.query<{ play_reserve_id: number }>(
          `UPDATE staff_assists SET status = $2, ended_at = $3, operator_login = $4
            WHERE play_id = $1 AND status = 'asked' RETURNING play_reserve_id`,
          [w.playId, w.outcome, iso(w.at), w.operator],
        );
        if (row) await this.playWindow(tx, w.playId, row.play_reserve_id, w.continueDeadline, now);
        return;
      }
      case 'emergencyStopped':
        await tx.query('UPDATE stations SET emergency_stopped = $2 WHERE station_id = $1', [stationId, w.stopped]);
        return;
      case 'strayPrize':
        await tx.query('INSERT INTO stray_prizes (station_id, play_id, prize_id, seen_at) VALUES ($1, $2, $3, $4)', [
          stationId,
          w.playId,
          w.prizeId,
          now,
        ]);
        return;
      case 'prize':
        // A new setting tells old reservations and visits apart; the field is laid again at the next play.
        await tx.query(
          `UPDATE stations SET prize_name = $2, prize_shape = $3, stock = $4, arm_strength = COALESCE($5, arm_strength)
            WHERE station_id = $1`,
          [stationId, w.prize.prizeName, w.prize.prizeShape, w.prize.stock, w.prize.armStrength ?? null],
        );
        await tx.query('UPDATE station_settings SET active = false WHERE station_id = $1 AND active', [stationId]);
        await tx.query('INSERT INTO station_settings (station_id) VALUES ($1)', [stationId]);
        await tx.query('UPDATE station_visits SET ended_at = $2 WHERE station_id = $1 AND ended_at IS NULL', [
          stationId,
          now,
        ]);
        await tx.query('DELETE FROM station_machines WHERE station_id = $1', [stationId]);
        return;
    }
  }

  /** A play's window after its result (the continue window, or a staff assist's hold), and its reservation's. */
  private async playWindow(tx: SqlExecutor, playId: number, reserveId: number, deadline: number, now: string) {
    await tx.query('UPDATE plays SET phase_deadline_at = $2 WHERE play_id = $1', [playId, iso(deadline)]);
    await tx.query('UPDATE station_reservations SET deadline_at = $2, updated_at = $3 WHERE play_reserve_id = $1', [
      reserveId,
      iso(deadline),
      now,
    ]);
  }

  async addToLine(stationId: number, userId: number): Promise<{ reserveId: number; settingId: number }> {
    const now = this.clock.now();
    try {
      return await this.db.transaction(async (tx) => {
        await this.gate.check(tx, userId, stationId, now);
        const settingId = await activeSetting(tx, stationId);
        const [row] = await tx.query<{ play_reserve_id: number }>(
          `INSERT INTO station_reservations (user_id, station_id, station_setting_id, reserve_status, reserve_token, queued_at, created_at, updated_at)
           VALUES ($1, $2, $3, 'reserve', $4, $5, $5, $5) RETURNING play_reserve_id`,
          [userId, stationId, settingId, newReserveToken(), now.toISOString()],
        );
        return { reserveId: row!.play_reserve_id, settingId };
      });
    } catch (error) {
      // Two reserves of one user raced (at two stations): the one-active-per-user index refused the second.
      if (isUniqueViolation(error)) throw new Refusal(409, 409, SERVER_MESSAGES.reservedElsewhere);
      throw error;
    }
  }

  startPlay(stationId: number, start: StartPlay, seed: number): Promise<StartedPlay> {
    const now = this.clock.now().toISOString();
    return this.db.transaction(async (tx) => {
      if (start.closesPlayId !== null) {
        await tx.query(`UPDATE plays SET phase = 'ended', phase_deadline_at = NULL WHERE play_id = $1`, [
          start.closesPlayId,
        ]);
      }
      const [gaugeRow] = start.practice
        ? []
        : await tx.query<{ misses: number }>(
            'SELECT misses FROM assist_gauges WHERE user_id = $1 AND station_id = $2',
            [start.userId, stationId],
          );
      const gaugeMisses = gaugeRow?.misses ?? 0;
      const gauge = assistGauge(gaugeMisses);
      const armStrength = assistedArmStrength(start.baseArmStrength, gauge);
      const [play] = await tx.query<{ play_id: number }>(
        `INSERT INTO plays (play_reserve_id, user_id, station_id, station_setting_id, currency, price, base_arm_strength, assist_level, arm_strength,
                            seed, layout, phase, phase_deadline_at, started_at, settings_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'resetting', $12, $13, $14) RETURNING play_id`,
        [
          start.reserveId,
          start.userId,
          stationId,
          start.settingId,
          start.currency,
          start.price,
          start.baseArmStrength,
          gauge.level,
          armStrength,
          seed,
          JSON.stringify(start.layout),
          iso(start.resetDeadline),
          now,
          start.settingsVersion,
        ],
      );
      const playId = play!.play_id;
      const charged = await this.ledger.charge(tx, start.userId, playId, start.currency, start.price);
      await tx.query('UPDATE plays SET charged_free = $2, charged_toll = $3 WHERE play_id = $1', [
        playId,
        charged.free,
        charged.toll,
      ]);
      await tx.query(
        `UPDATE station_reservations SET reserve_status = 'playWaiting', deadline_at = $2, updated_at = $3 WHERE play_reserve_id = $1`,
        [start.reserveId, iso(start.resetDeadline), now],
      );
      await this.write(tx, stationId, { kind: 'field', field: start.field });
      return {
        playId,
        userId: start.userId,
        currency: start.currency,
        price: start.price,
        seed,
        armStrength,
        assistLevel: gauge.level,
        gaugeMisses: start.practice ? 0 : gaugeMisses,
        charged,
      };
    });
  }

  async nickname(userId: number): Promise<string | null> {
    // A deleted account's nickname is erased; the announcement then names the neutral placeholder.
    const [user] = await this.db.query<{ nickname: string | null }>(
      'SELECT nickname FROM users WHERE user_id = $1 AND deleted_at IS NULL',
      [userId],
    );
    return user?.nickname ?? null;
  }
}

/** The station's active setting, opened on first use for a station that has none yet. */
export async function activeSetting(db: SqlExecutor, stationId: number): Promise<number> {
  const [active] = await db.query<{ station_setting_id: number }>(
    'SELECT station_setting_id FROM station_settings WHERE station_id = $1 AND active',
    [stationId],
  );
  if (active) return active.station_setting_id;
  const [row] = await db.query<{ station_setting_id: number }>(
    'INSERT INTO station_settings (station_id) VALUES ($1) RETURNING station_setting_id',
    [stationId],
  );
  return row!.station_setting_id;
}
