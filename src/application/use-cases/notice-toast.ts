import { concat, map, Observable, of, switchMap, type OperatorFunction } from 'rxjs';
import { NOTICE_TOAST_MS } from '../../domain';
import type { ClockPort } from '../ports/clock.port';

/** Emits once after `delayMs` on `clock` (a ManualClock in tests) and completes; unsubscribing cancels it. */
function clockTimer(clock: Pick<ClockPort, 'setTimeout'>, delayMs: number): Observable<void> {
  return new Observable<void>((subscriber) => {
    const task = clock.setTimeout(() => {
      subscriber.next();
      subscriber.complete();
    }, delayMs);
    return () => task.cancel();
  });
}

/**
 * A notice toast's lifetime on `clock` [R2.5-6]: each notice shows at once and gives way to null
 * 3.5 s later (NOTICE_TOAST_MS); a newer notice replaces the one showing and gets its own 3.5 s; a
 * null (dismissed) clears it and its timer. The app's toast (`Notices`) and the play screen's
 * (`PlayMessages`) both go by it.
 *
 * @example
 * this.shown.pipe(noticeToast(this.clock), this.untilDisposed()).subscribe((notice) => this.setState(notice));
 */
export function noticeToast<T>(clock: Pick<ClockPort, 'setTimeout'>): OperatorFunction<T | null, T | null> {
  return switchMap((notice) =>
    notice === null ? of(null) : concat(of(notice), clockTimer(clock, NOTICE_TOAST_MS).pipe(map(() => null))),
  );
}
