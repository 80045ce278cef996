import type { z } from 'zod/mini';
import type { operatorNumbersResponseSchema } from '../../src/contract/operator.schema';
import type { SqlExecutor } from '../store/store';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';

/** The longest range the numbers are read for at once (a quarter). */
export const NUMBERS_MAX_DAYS = 92;

const DAY_MS = 24 * 60 * 60_000;

/** One station's day, as the console reads it (the contract's row). */
export type StationDay = z.infer<typeof operatorNumbersResponseSchema>['rows'][number];

/** The instant a Japanese calendar day (YYYY-MM-DD) begins. */
const jstStart = (day: string): number => Date.parse(`${day}T00:00:00+09:00`);

/**
 * The figures an operator sets machines by (docs/operator-console.md): per station and Japanese
 * calendar day, the plays that ran to a result, the wins and the win rate, the TC those plays
 * took, the plays refunded and their TC, and the wins the assist gauge paid out (a win at an
 * assist level above 0). A play counts on the day it started. Only days with a play have a row.
 */
export async function stationNumbers(db: SqlExecutor, from: string, to: string): Promise<StationDay[]> {
  const start = jstStart(from);
  const end = jstStart(to) + DAY_MS;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start || (end - start) / DAY_MS > NUMBERS_MAX_DAYS)
    throw new Refusal(400, 400, SERVER_MESSAGES.numbersRange(NUMBERS_MAX_DAYS));
  const rows = await db.query<{
    day: string;
    station_id: number;
    station_name: string;
    plays: number;
    wins: number;
    tc_taken: number;
    refunds: number;
    refunded_tc: number;
    assist_payouts: number;
  }>(
    `SELECT to_char((p.started_at AT TIME ZONE 'UTC') + interval '9 hours', 'YYYY-MM-DD') AS day,
            p.station_id, s.station_admin_id AS station_name,
            count(*) FILTER (WHERE p.result IN ('win', 'miss'))::int AS plays,
            count(*) FILTER (WHERE p.result = 'win')::int AS wins,
            coalesce(sum(p.price) FILTER (WHERE p.result IN ('win', 'miss') AND p.currency = 'tc'), 0)::int AS tc_taken,
            count(*) FILTER (WHERE p.result = 'refunded')::int AS refunds,
            coalesce(sum(p.price) FILTER (WHERE p.result = 'refunded' AND p.currency = 'tc'), 0)::int AS refunded_tc,
            count(*) FILTER (WHERE p.result = 'win' AND p.assist_level > 0)::int AS assist_payouts
       FROM plays p JOIN stations s ON s.station_id = p.station_id
      WHERE p.started_at >= $1 AND p.started_at < $2 AND p.result IS NOT NULL
      GROUP BY 1, p.station_id, s.station_admin_id
      ORDER BY 1, p.station_id`,
    [new Date(start).toISOString(), new Date(end).toISOString()],
  );
  return rows.map((r) => ({ ...r, win_rate: r.plays === 0 ? 0 : r.wins / r.plays }));
}
