import { KUJI_TIME_LIMITS, type KujiTimeLimits, type PushNotice } from '../../src/domain';
import type { Clock, ScheduledTask } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import type { Store } from '../store/store';
import { promoteNextInLine } from './kuji-reservations';

/** What the line tells the players: the box's channel, and the new holder. */
export interface KujiLineEvents {
  kujiLineChanged(kujiId: number, boxId: number): void;
  push(userId: number, push: PushNotice): void;
}

interface Expired {
  kuji_id: number;
  box_id: number;
}

/**
 * The holders' windows of the kuji lines, held by the server (docs/kuji.md): a holder has
 * `limits.firstReserved` seconds to start drawing and, after each draw, `limits.confirm` to draw again.
 * When a window lapses, the holder's reservation ends ('timeout') and the next in line becomes the
 * holder at once, with a push; the box's channel is told either way. One timer, always set for the
 * earliest deadline in the store, so a restart re-arms it from the store alone (`recover`).
 */
export class KujiLine {
  private timer: ScheduledTask | null = null;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private events: KujiLineEvents | null = null,
    private readonly limits: KujiTimeLimits = KUJI_TIME_LIMITS,
  ) {}

  setEvents(events: KujiLineEvents): void {
    this.events = events;
  }

  /** At start: lapse what lapsed while the server was down, then wait for the next deadline. */
  recover(): Promise<void> {
    return this.changed();
  }

  /** A line changed (a reservation, a cancel, a draw): expire what is due and re-arm the timer. */
  changed(): Promise<void> {
    this.running = this.running.then(() => this.tick()).catch(() => undefined);
    return this.running;
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    const now = this.clock.now();
    const { expired, promoted } = await this.db.transaction(async (tx) => {
      const due = await tx.query<Expired & { kuji_play_reserve_id: number }>(
        `UPDATE kuji_reservations SET reserve_status = 'end', end_reason = 'timeout', ended_at = $1, updated_at = $1
          WHERE (reserve_status = 'firstReserved' AND play_at + make_interval(secs => $2) <= $1)
             OR (reserve_status = 'confirm' AND play_at + make_interval(secs => $3) <= $1)
          RETURNING kuji_play_reserve_id, kuji_id, box_id`,
        [now.toISOString(), this.limits.firstReserved, this.limits.confirm],
      );
      const next: { user_id: number; kuji_id: number; box_id: number }[] = [];
      for (const box of new Map(due.map((d) => [d.box_id, d])).values()) {
        const row = await promoteNextInLine(tx, box.box_id, now);
        if (row) next.push(row);
      }
      return { expired: due, promoted: next };
    });
    for (const box of new Map(expired.map((d) => [d.box_id, d])).values())
      this.events?.kujiLineChanged(box.kuji_id, box.box_id);
    for (const p of promoted) this.tellHolder(p.user_id, p.kuji_id, p.box_id);
    await this.arm();
  }

  /** A box's line changed outside the timer (a join, a cancel): the box's channel, the new holder's push, the timer. */
  boxChanged(kujiId: number, boxId: number, newHolder: number | null): Promise<void> {
    this.events?.kujiLineChanged(kujiId, boxId);
    if (newHolder !== null) this.tellHolder(newHolder, kujiId, boxId);
    return this.changed();
  }

  /** A player became the box's holder: a push to them. */
  tellHolder(userId: number, kujiId: number, boxId: number): void {
    this.events?.push(userId, {
      kind: 'turnNow',
      kuji_id: kujiId,
      box_id: boxId,
      reserve_num: 1,
      title: SERVER_MESSAGES.kujiTurnTitle,
      message: SERVER_MESSAGES.kujiTurnBody(this.limits.firstReserved),
    });
  }

  /** Sets the one timer for the earliest deadline of any holder. */
  private async arm(): Promise<void> {
    this.timer?.cancel();
    this.timer = null;
    if (this.closed) return;
    const [row] = await this.db.query<{ deadline: Date | null }>(
      `SELECT min(CASE reserve_status WHEN 'firstReserved' THEN play_at + make_interval(secs => $1)
                                      ELSE play_at + make_interval(secs => $2) END) AS deadline
         FROM kuji_reservations WHERE reserve_status IN ('firstReserved', 'confirm') AND play_at IS NOT NULL`,
      [this.limits.firstReserved, this.limits.confirm],
    );
    if (!row?.deadline) return;
    const delay = new Date(row.deadline).getTime() - this.clock.now().getTime();
    this.timer = this.clock.setTimeout(() => void this.changed(), Math.max(0, delay));
  }
}
