import { inject, injectable } from 'inversify';
import { Subject } from 'rxjs';
import { NOT_ENOUGH_TC_CODE, refusalCode, refusalText, type PushNotice, type VipOutcome } from '../../domain';
import type { ClockPort } from '../ports/clock.port';
import type { NavigatorPort } from '../ports/navigator.port';
import { TOKENS } from '../tokens';
import { noticeToast } from './notice-toast';
import { StateStore } from './state-store';

export type PlayAlert =
  | {
      readonly kind:
        'reservedStationCancelled' | 'reservedStationMaintenance' | 'reloadError' | 'stationMaintenance' | 'refused';
      readonly message: string;
    }
  /** A guest pressed reserve: sign in first. */
  | { readonly kind: 'signIn'; readonly message: string }
  /** Too little TC (402 at reserve or confirm): the alert offers to buy TC over the same station. */
  | { readonly kind: 'needTc'; readonly message: string };

export interface PlayMessagesState {
  /** A VIP gate's popup (569/570/571) [R8-2…R8-4]. */
  readonly popup: VipOutcome | null;
  /** An alert: a refusal's Japanese error_info, a cancelled or maintenance reservation, sign in. */
  readonly alert: PlayAlert | null;
  /** A push shown in the page (a toast); it goes by itself after 3.5 s [R2.5-6]. */
  readonly notice: PushNotice | null;
}

/**
 * What the play screen tells the player (docs/play.md): one popup, one alert and one notice at a
 * time, from any part of the screen (the line, the play, the screen itself). One per play screen
 * (bound in request scope, so the screen's parts share it).
 */
@injectable()
export class PlayMessages extends StateStore<PlayMessagesState> {
  private readonly notices = new Subject<PushNotice | null>();

  constructor(
    @inject(TOKENS.NavigatorPort) private readonly navigator: NavigatorPort,
    @inject(TOKENS.ClockPort) clock: Pick<ClockPort, 'setTimeout'>,
  ) {
    super({ popup: null, alert: null, notice: null });
    this.own(
      this.notices
        .pipe(noticeToast(clock), this.untilDisposed())
        .subscribe((notice) => this.setState((s) => ({ ...s, notice }))),
    );
  }

  alert(alert: PlayAlert): void {
    this.setState((s) => ({ ...s, alert }));
  }

  /** A refused call's alert: its Japanese error_info; too little TC (402) offers to buy TC. */
  refused(error: unknown): void {
    const message = refusalText(error);
    this.alert(refusalCode(error) === NOT_ENOUGH_TC_CODE ? { kind: 'needTc', message } : { kind: 'refused', message });
  }

  popup(popup: VipOutcome): void {
    this.setState((s) => ({ ...s, popup }));
  }

  notice(notice: PushNotice): void {
    this.notices.next(notice);
  }

  dismissAlert(): void {
    this.setState((s) => ({ ...s, alert: null }));
  }

  /** Closes the VIP popup; 571 (exclusive station in use) then returns to the station list [R8-4]. */
  dismissPopup(): void {
    const popup = this.snapshot.popup;
    this.setState((s) => ({ ...s, popup: null }));
    if (popup?.then === 'returnToList') this.navigator.goTo('/');
  }

  dismissNotice(): void {
    this.notices.next(null);
  }
}
