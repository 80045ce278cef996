import { deliveryTicketWeek, nextJstWeekStart, weeklyTicketDue } from '../../src/domain';
import type { SqlExecutor } from '../store/store';

/**
 * The weekly free-delivery ticket [R10-6]. A ticket is granted for each week (from Monday 00:00
 * Asia/Tokyo) to a player who held none at that moment, at most one held. Granting is lazy: the
 * first look at a player's ticket in a week grants that week's if it is due — the same outcome as a
 * job at Monday 00:00 touching every account, without the job (and without missing a week while the
 * server is down). The unique indexes keep it once per week and one held even under concurrency.
 */
export class DeliveryTickets {
  /** The ticket the player holds now (granting this week's when due), or null. Call under the user's lock. */
  async held(q: SqlExecutor, userId: number, now: Date): Promise<{ ticket_id: number } | null> {
    const week = new Date(deliveryTicketWeek(now.getTime())).toISOString();
    const [state] = await q.query<{ granted: boolean; held_at_start: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM delivery_tickets WHERE user_id = $1 AND week_start = $2) AS granted,
              EXISTS (SELECT 1 FROM delivery_tickets WHERE user_id = $1 AND granted_at < $2 AND (used_at IS NULL OR used_at >= $2)) AS held_at_start`,
      [userId, week],
    );
    if (weeklyTicketDue({ grantedThisWeek: state!.granted, heldAtWeekStart: state!.held_at_start }))
      await q.query(
        'INSERT INTO delivery_tickets (user_id, week_start, granted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [userId, week, now.toISOString()],
      );
    const [held] = await q.query<{ ticket_id: number }>(
      'SELECT ticket_id FROM delivery_tickets WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    return held ?? null;
  }

  async use(q: SqlExecutor, ticketId: number, deliveryId: number, now: Date): Promise<void> {
    await q.query(
      'UPDATE delivery_tickets SET used_at = $2, delivery_id = $3 WHERE ticket_id = $1 AND used_at IS NULL',
      [ticketId, now.toISOString(), deliveryId],
    );
  }

  /** Gives back the ticket a cancelled request used, unless the player already holds one (at most one held). */
  async restore(q: SqlExecutor, userId: number, deliveryId: number): Promise<boolean> {
    const rows = await q.query(
      `UPDATE delivery_tickets SET used_at = NULL, delivery_id = NULL
        WHERE user_id = $1 AND delivery_id = $2
          AND NOT EXISTS (SELECT 1 FROM delivery_tickets WHERE user_id = $1 AND used_at IS NULL)
        RETURNING ticket_id`,
      [userId, deliveryId],
    );
    return rows.length > 0;
  }

  /** The ticket as the player reads it. */
  async info(q: SqlExecutor, userId: number, now: Date): Promise<{ held: 0 | 1; next_grant_at: string }> {
    const held = await this.held(q, userId, now);
    return { held: held ? 1 : 0, next_grant_at: new Date(nextJstWeekStart(now.getTime())).toISOString() };
  }
}
