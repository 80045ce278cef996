import { KUJI_TIME_LIMITS, kujiWindowEndsAtMs, type KujiTimeLimits, type PushNotice } from '../../src/domain';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import { SerialQueue, WakeTimer } from '../rooms/serial-queue';
import type { Store } from '../store/store';
import { boxesInLine, boxHolder, lapseHolder, lockBox, promoteNextInLine } from './kuji-line-store';

/** What the line tells the players: the box's channel, and the new holder. */
export interface KujiLineEvents {
  kujiLineChanged(kujiId: number, boxId: number): void;
  push(userId: number, push: PushNotice): void;
}

/** One box's line: its work one step at a time, and one timer for its holder's window. */
interface BoxLine {
  readonly queue: SerialQueue;
  readonly timer: WakeTimer;
}

/**
 * The holders' windows of the kuji lines, held by the server (docs/kuji.md): a holder has
 * `limits.firstReserved` seconds to start drawing and, after each draw, `limits.confirm` to draw again
 * (the domain's `kujiWindowEndsAtMs`). When a window lapses, the holder's reservation ends
 * ('timeout') and the next in line becomes the holder at once, with a push; the box's channel is told
 * either way. Each box has its own serial queue and its own timer (like a station's room), so one
 * box's slow store write never delays another box; a restart checks every box with a line from the
 * store alone (`recover`). Statuses are written by kuji-line-store.ts.
 */
export class KujiLine {
  private readonly boxes = new Map<number, BoxLine>();
  private closed = false;

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private events: KujiLineEvents | null = null,
    private readonly limits: KujiTimeLimits = KUJI_TIME_LIMITS,
    /**
     * Several instances (R10-8): the lines' timers run on the station host only; a standby hands
     * each change to the host (`relay`) instead of checking the box itself.
     */
    private readonly host: { hosting(): boolean; relay(boxId: number | null): void } | null = null,
  ) {}

  setEvents(events: KujiLineEvents): void {
    this.events = events;
  }

  /** At start: lapse what lapsed while the server was down, then wait for each box's next deadline. */
  recover(): Promise<void> {
    return this.changed();
  }

  /**
   * Lines changed: checks one box (expire what is due, hand the box over, re-arm its timer), or, with
   * no box named, every box with a line; resolves once those checks ran.
   */
  async changed(boxId?: number): Promise<void> {
    if (this.closed) return;
    if (this.host && !this.host.hosting()) {
      this.host.relay(boxId ?? null);
      return;
    }
    const boxes = boxId === undefined ? new Set([...(await boxesInLine(this.db)), ...this.boxes.keys()]) : [boxId];
    await Promise.all([...boxes].map((b) => this.check(b)));
  }

  close(): void {
    this.closed = true;
    for (const box of this.boxes.values()) box.timer.cancel();
  }

  /** A box's line changed outside the timer (a join, a cancel): the box's channel, the new holder's push, the timer. */
  boxChanged(kujiId: number, boxId: number, newHolder: number | null): Promise<void> {
    this.events?.kujiLineChanged(kujiId, boxId);
    if (newHolder !== null) this.tellHolder(newHolder, kujiId, boxId);
    return this.changed(boxId);
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

  private line(boxId: number): BoxLine {
    let line = this.boxes.get(boxId);
    if (!line) {
      line = { queue: new SerialQueue(), timer: new WakeTimer(this.clock, () => void this.check(boxId)) };
      this.boxes.set(boxId, line);
    }
    return line;
  }

  /** On the box's own queue: lapses its holder when due, hands the box over, arms the box's timer. */
  private check(boxId: number): Promise<void> {
    const line = this.line(boxId);
    return line.queue
      .run(async () => {
        if (this.closed) return;
        const now = this.clock.now();
        const handedOver = await this.db.transaction(async (tx) => {
          await lockBox(tx, boxId);
          const holder = await boxHolder(tx, boxId);
          const endsAt = holder
            ? kujiWindowEndsAtMs(holder.reserve_status, new Date(holder.play_at).getTime(), this.limits)
            : null;
          const lapsed =
            holder !== null && endsAt !== null && endsAt <= now.getTime() && (await lapseHolder(tx, holder, now));
          // A box with nobody holding it (lapsed now, or left so) gives it to the first in line.
          const next = holder === null || lapsed ? await promoteNextInLine(tx, boxId, now) : null;
          return { holder, lapsed, next };
        });
        if (handedOver.lapsed && handedOver.holder) this.events?.kujiLineChanged(handedOver.holder.kuji_id, boxId);
        if (handedOver.next) {
          if (!handedOver.lapsed) this.events?.kujiLineChanged(handedOver.next.kuji_id, boxId);
          this.tellHolder(handedOver.next.user_id, handedOver.next.kuji_id, boxId);
        }
        await this.arm(boxId);
      })
      .catch((error: unknown) => {
        // The store failed this time: the box is checked again at its next change or its timer.
        console.warn(`onkure: kuji box ${boxId} line check failed`, error);
      });
  }

  /** Sets the box's timer for its holder's window end (none without a holder). */
  private async arm(boxId: number): Promise<void> {
    const line = this.line(boxId);
    if (this.closed) return line.timer.cancel();
    const holder = await boxHolder(this.db, boxId);
    const endsAt = holder
      ? kujiWindowEndsAtMs(holder.reserve_status, new Date(holder.play_at).getTime(), this.limits)
      : null;
    line.timer.set(endsAt);
  }
}
