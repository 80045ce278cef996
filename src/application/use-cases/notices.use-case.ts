import { injectable } from 'inversify';
import { Subject, switchMap, timer, map, startWith } from 'rxjs';
import { NOTICE_TOAST_MS } from '../../domain';
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
  private readonly shown = new Subject<Notice>();
  private seq = 0;

  constructor() {
    super(null);
    this.own(
      this.shown
        .pipe(
          switchMap((notice) =>
            timer(NOTICE_TOAST_MS).pipe(
              map(() => null),
              startWith(notice),
            ),
          ),
          this.untilDisposed(),
        )
        .subscribe((notice) => this.setState(notice)),
    );
  }

  show(message: string, title?: string): void {
    this.seq += 1;
    this.shown.next({ id: this.seq, message, ...(title ? { title } : {}) });
  }

  dismiss(): void {
    this.setState(null);
  }
}
