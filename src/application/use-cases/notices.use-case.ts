import { inject, injectable } from 'inversify';
import { Subject } from 'rxjs';
import type { ClockPort } from '../ports/clock.port';
import { TOKENS } from '../tokens';
import { noticeToast } from './notice-toast';
import { StateStore } from './state-store';

/** A short notice shown as a toast. */
export interface Notice {
  readonly id: number;
  readonly message: string;
  readonly title?: string;
}

/**
 * The notice toast (§2.5): `show()` puts a notice up and it goes by itself after 3.5 s [R2.5-6]; a
 * newer notice replaces the one showing and gets its own 3.5 s. App-lifetime: one per container.
 */
@injectable()
export class Notices extends StateStore<Notice | null> {
  private readonly shown = new Subject<Notice | null>();
  private seq = 0;

  constructor(@inject(TOKENS.ClockPort) clock: Pick<ClockPort, 'setTimeout'>) {
    super(null);
    this.own(this.shown.pipe(noticeToast(clock), this.untilDisposed()).subscribe((notice) => this.setState(notice)));
  }

  show(message: string, title?: string): void {
    this.seq += 1;
    this.shown.next({ id: this.seq, message, ...(title ? { title } : {}) });
  }

  dismiss(): void {
    this.shown.next(null);
  }
}
