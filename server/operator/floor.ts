import { createHash, randomBytes } from 'node:crypto';
import type { OperatorFloorStation } from '../../src/contract/operator.schema';
import {
  RESERVING_STATUSES,
  settingsChanges,
  type PendingSettings,
  type PrizeShape,
  type StationStatus,
} from '../../src/domain';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import type { SqlExecutor } from '../store/store';

/** How long a floor's still token for a gated station lasts, and when a fresh one is made. */
const STILL_TOKEN_TTL_MS = 60 * 60_000;
const STILL_TOKEN_RENEW_MS = 10 * 60_000;

/**
 * The console's floor (docs/operator-console.md): every station with its status, stock, pause,
 * viewers, line (holder first) and the play on its machine, read from the store (every room
 * writes a change before it tells anyone, so the store is what the rooms hold, on any instance).
 */
export class OperatorFloor {
  /** One still token per gated (VIP) station, made by this instance: the floor's thumbnails. */
  private readonly stillTokens = new Map<number, { readonly token: string; readonly expiresAt: number }>();

  constructor(
    private readonly db: SqlExecutor,
    private readonly clock: Clock,
    private readonly apiPrefix: string,
  ) {}

  async stations(): Promise<OperatorFloorStation[]> {
    const now = this.clock.now().getTime();
    const stations = await this.db.query<{
      station_id: number;
      station_admin_id: string;
      prize_name: string;
      station_status: StationStatus;
      station_type: string;
      stock: number;
      paused: boolean;
      emergency_stopped: boolean;
      arm_strength: number;
      play_price: number;
      prize_shape: PrizeShape;
      settings_version: number;
      pending_settings: PendingSettings | null;
      assist_misses: number;
      viewers: number;
    }>(
      `SELECT s.station_id, s.station_admin_id, s.prize_name, s.station_status, s.station_type, s.stock, s.paused,
              s.emergency_stopped, s.arm_strength, s.play_price, s.prize_shape, s.settings_version, s.pending_settings,
              s.assist_misses, (SELECT count(*)::int FROM station_visits v WHERE v.station_id = s.station_id AND v.ended_at IS NULL) AS viewers
         FROM stations s ORDER BY s.station_id`,
    );
    const line = await this.db.query<{
      station_id: number;
      user_id: number;
      nickname: string | null;
      reserve_status: string;
    }>(
      `SELECT r.station_id, r.user_id, u.nickname, r.reserve_status
         FROM station_reservations r JOIN users u ON u.user_id = r.user_id
        WHERE r.reserve_status = ANY($1::text[])
        ORDER BY r.station_id, (r.reserve_status = 'reserve'), r.queued_at, r.play_reserve_id`,
      [[...RESERVING_STATUSES]],
    );
    const plays = await this.db.query<{
      station_id: number;
      play_id: number;
      user_id: number;
      nickname: string | null;
      phase: 'resetting' | 'playing' | 'result';
      phase_deadline_at: Date | string | null;
      grace_deadline_at: Date | string | null;
      price: number;
      currency: string;
    }>(
      `SELECT p.station_id, p.play_id, p.user_id, u.nickname, p.phase, p.phase_deadline_at, p.grace_deadline_at, p.price, p.currency
         FROM plays p JOIN users u ON u.user_id = p.user_id
        WHERE p.phase IN ('resetting', 'playing', 'result')`,
    );
    const strays = await this.db.query<{
      stray_id: number;
      station_id: number;
      play_id: number | null;
      user_id: number | null;
      nickname: string | null;
      play_result: string | null;
      seen_at: Date | string;
    }>(
      `SELECT sp.stray_id, sp.station_id, p.play_id, p.user_id, u.nickname, p.result AS play_result, sp.seen_at
         FROM stray_prizes sp
         LEFT JOIN plays p ON p.play_id = sp.play_id AND p.station_id = sp.station_id
         LEFT JOIN users u ON u.user_id = p.user_id
        WHERE sp.settled_at IS NULL
        ORDER BY sp.station_id, sp.stray_id`,
    );
    // Staff assists asked and not answered [R11-9], oldest first.
    const assists = await this.db.query<AssistRow & { station_id: number }>(
      `SELECT a.station_id, a.play_id, a.user_id, u.nickname, a.misses, a.asked_at, a.deadline_at
         FROM staff_assists a JOIN users u ON u.user_id = a.user_id
        WHERE a.status = 'asked' ORDER BY a.asked_at`,
    );
    const out: OperatorFloorStation[] = [];
    for (const s of stations) {
      const play = plays.find((p) => p.station_id === s.station_id);
      const deadline = play ? (play.grace_deadline_at ?? play.phase_deadline_at) : null;
      out.push({
        station_id: s.station_id,
        station_name: s.station_admin_id,
        prize_name: s.prize_name,
        station_status: s.station_status,
        stock: s.stock,
        paused: s.paused,
        emergency_stopped: s.emergency_stopped,
        arm_strength: Number(s.arm_strength),
        play_price: s.play_price,
        settings_version: s.settings_version,
        pending_settings: s.pending_settings
          ? {
              changes: settingsChanges(
                {
                  armStrength: Number(s.arm_strength),
                  playPrice: s.play_price,
                  prizeName: s.prize_name,
                  prizeShape: s.prize_shape,
                  assistMisses: s.assist_misses,
                },
                s.pending_settings.patch,
              ),
              reason: s.pending_settings.reason,
              requested_at: new Date(s.pending_settings.requestedAt).toISOString(),
            }
          : null,
        assist_misses: s.assist_misses,
        assist: assistOf(
          assists.find((a) => a.station_id === s.station_id),
          now,
        ),
        viewers: s.viewers,
        line: line
          .filter((r) => r.station_id === s.station_id)
          .map((r, i) => ({
            user_id: r.user_id,
            nickname: r.nickname ?? SERVER_MESSAGES.anonymousPlayer,
            place: i + 1,
            reserve_status: r.reserve_status,
          })),
        play: play
          ? {
              play_id: play.play_id,
              user_id: play.user_id,
              nickname: play.nickname ?? SERVER_MESSAGES.anonymousPlayer,
              phase: play.phase,
              ms_left: deadline === null ? null : Math.max(0, new Date(deadline).getTime() - now),
              price: play.price,
              currency: play.currency,
            }
          : null,
        stray_prizes: strays
          .filter((p) => p.station_id === s.station_id)
          .map((p) => ({
            stray_id: p.stray_id,
            play_id: p.play_id,
            user_id: p.user_id,
            nickname: p.user_id === null ? null : (p.nickname ?? SERVER_MESSAGES.anonymousPlayer),
            play_result: p.play_result,
            seen_at: new Date(p.seen_at).toISOString(),
          })),
        still_url: await this.stillUrl(s.station_id, s.station_type !== 'normal', now),
      });
    }
    return out;
  }

  /** The front camera's still; a gated station's carries a station-scoped token of no user. */
  private async stillUrl(stationId: number, gated: boolean, now: number): Promise<string> {
    const path = `${this.apiPrefix}/stations/${stationId}/camera/front.jpg`;
    if (!gated) return path;
    let held = this.stillTokens.get(stationId);
    if (!held || held.expiresAt - now < STILL_TOKEN_RENEW_MS) {
      const token = randomBytes(24).toString('base64url');
      const expiresAt = now + STILL_TOKEN_TTL_MS;
      await this.db.query(
        'INSERT INTO media_tokens (token_hash, user_id, station_id, created_at, expires_at) VALUES ($1, NULL, $2, $3, $4)',
        [
          createHash('sha256').update(token).digest('hex'),
          stationId,
          new Date(now).toISOString(),
          new Date(expiresAt).toISOString(),
        ],
      );
      held = { token, expiresAt };
      this.stillTokens.set(stationId, held);
    }
    return `${path}?k=${encodeURIComponent(held.token)}`;
  }
}

/** A staff assist asked and not answered, as the store holds it [R11-9]. */
interface AssistRow {
  play_id: number;
  user_id: number;
  nickname: string | null;
  misses: number;
  asked_at: Date | string;
  deadline_at: Date | string;
}

/** A staff assist waiting for the staff, as the console shows it [R11-9]. */
function assistOf(row: AssistRow | undefined, now: number): OperatorFloorStation['assist'] {
  if (!row) return null;
  return {
    play_id: row.play_id,
    user_id: row.user_id,
    nickname: row.nickname ?? SERVER_MESSAGES.anonymousPlayer,
    misses: row.misses,
    asked_at: new Date(row.asked_at).toISOString(),
    ms_left: Math.max(0, new Date(row.deadline_at).getTime() - now),
  };
}
