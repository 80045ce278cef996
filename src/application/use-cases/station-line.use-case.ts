import { inject, injectable } from 'inversify';
import {
  catchError,
  defer,
  EMPTY,
  filter,
  firstValueFrom,
  merge,
  Subject,
  switchMap,
  take,
  takeUntil,
  tap,
  type Observable,
  type Subscription,
} from 'rxjs';
import {
  decideReservePoll,
  DOMAIN_MESSAGES,
  estimatedWaitSeconds,
  maintenanceReaction,
  POLLED_RESERVE_STATUSES,
  reservePollingIntervalMs,
  type ReservationEffect,
  type ReserveStatus,
} from '../../domain';
import type { AppConfig } from '../app-config';
import type { ClockPort, ScheduledTask } from '../ports/clock.port';
import type { NotificationPort } from '../ports/live-feed.port';
import type { RealtimeEvent, RealtimePort } from '../ports/realtime.port';
import type { ReserveFetch, ReservationPort, StationReserveInfo } from '../ports/reservation.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import type { PlayCommandLane } from './play-command-lane';
import type { PlayMessages } from './play-messages.use-case';
import { StateStore } from './state-store';

/** The player's place at the station. */
export interface ReservationView {
  readonly status: ReserveStatus;
  /** Place in line, 1 = next (or holding the turn). */
  readonly place: number;
  /** Seconds the current window has left (the confirm window in playTransition). */
  readonly secondsLeft: number;
  readonly estimatedWaitSeconds: number;
  readonly stationSettingId: number;
}

export interface StationLineState {
  readonly stationId: number | null;
  readonly viewers: number;
  readonly lineLength: number;
  /** The player's place, or null (watching). */
  readonly reservation: ReservationView | null;
  /** Local time the reservation was last received: the page counts `secondsLeft` down from it. */
  readonly receivedAt: number;
}

const INITIAL: StationLineState = { stationId: null, viewers: 0, lineLength: 0, reservation: null, receivedAt: 0 };

/**
 * A station's line and the player's turn (docs/play.md): the visit (viewer count), joining and
 * leaving the line, and the reserve poll every RESERVE_POLLING_TIME while waiting [R9-3], also at
 * once on a reserve_change or a turn push. Every reaction of §4.3 comes from the domain's
 * `decideReservePoll` [R4.3-3…R4.3-7]. Polls are serialised the RxJS way: the newest request
 * replaces one in flight (`switchMap`), and a poll waits while a command is in the lane. One per
 * play screen (request scope).
 */
@injectable()
export class StationLine extends StateStore<StationLineState> {
  private readonly pollRequests = new Subject<void>();
  private readonly turnTaken = new Subject<void>();
  private readonly maintenance = new Subject<void>();
  private readonly reset = new Subject<void>();
  private pollTimer: ScheduledTask | null = null;
  private channels: Subscription | null = null;
  /** The station setting this screen visits (told to the server), once a visit was answered. */
  private visiting: number | null = null;
  /** The poll found our turn taken (our confirm in another tab, a play under way): follow the play. */
  readonly playWaiting$: Observable<void> = this.turnTaken.asObservable();
  /** The station went into maintenance (531 on the poll). */
  readonly maintenance$: Observable<void> = this.maintenance.asObservable();
  /** The poll lost the reservation (R4.3-7): the play shown must go too. */
  readonly playReset$: Observable<void> = this.reset.asObservable();

  constructor(
    @inject(TOKENS.ReservationPort) private readonly reservations: ReservationPort,
    @inject(TOKENS.RealtimePort) private readonly realtime: RealtimePort,
    @inject(TOKENS.SessionPort) private readonly session: SessionPort,
    @inject(TOKENS.NotificationPort) private readonly notifications: NotificationPort,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
    @inject(TOKENS.PlayCommandLane) private readonly lane: PlayCommandLane,
    @inject(TOKENS.PlayMessages) private readonly messages: PlayMessages,
  ) {
    super(INITIAL);
    this.own(() => {
      this.stopPolling();
      this.channels?.unsubscribe();
      // The screen goes: the player no longer watches (the viewer counts). Sent on its own, as
      // everything this use-case waits for is cancelled now.
      if (this.visiting !== null)
        this.reservations
          .cancelVisit(this.visiting)
          .pipe(catchError(() => EMPTY))
          .subscribe();
    });
    const polls = this.pollRequests.pipe(
      // A poll asked for while a command is on its way waits for it (its answer would be older).
      switchMap(() =>
        this.lane.state$.pipe(
          filter((s) => !s.busy),
          take(1),
        ),
      ),
      switchMap(() => defer(() => this.request()).pipe(takeUntil(this.lane.started$))),
    );
    this.own(polls.subscribe((answer) => this.onPoll(answer)));
  }

  /** Listens to the station's line (and, signed in, to the player's pushes). */
  start(stationId: number): void {
    this.setState({ ...INITIAL, stationId });
    const station = this.realtime.channel({ kind: 'station', stationId });
    const user: Observable<RealtimeEvent> = this.signedIn ? this.realtime.channel({ kind: 'user' }) : EMPTY;
    this.channels?.unsubscribe();
    this.visiting = null;
    let joins = 0;
    this.channels = merge(
      station.pipe(
        tap((event) => {
          // Joined again after a reconnection: the server ended the visit when the connection went.
          if (event.type === 'joined' && ++joins > 1 && this.visiting !== null) void this.visit();
        }),
      ),
      user,
    )
      .pipe(this.untilDisposed())
      .subscribe((event) => this.onEvent(event));
  }

  /** Watches the station: the viewer count and the player's place; a refusal shows its popup or alert. */
  async visit(): Promise<void> {
    const stationId = this.snapshot.stationId;
    if (stationId === null) return;
    const visit = await this.firstOrNull(() => this.reservations.visit(stationId));
    if (visit?.kind === 'watching' && this.snapshot.stationId === stationId) {
      this.visiting = visit.info.station_setting_id;
      this.show(visit.info);
    } else if (visit?.kind === 'vipRefused') this.messages.popup(visit.outcome);
    else if (visit?.kind === 'stationMaintenance')
      this.messages.alert({ kind: 'stationMaintenance', message: visit.message });
  }

  /** Asks for the line now (a push, a cancelled turn): the newest request wins. */
  refresh(): void {
    if (this.snapshot.stationId !== null && this.signedIn && !this.disposed) this.pollRequests.next();
  }

  /** Joins the line. A guest is asked to sign in; the VIP gates show their popups. */
  reserve(): Promise<void> {
    const stationId = this.snapshot.stationId;
    if (stationId === null) return Promise.resolve();
    if (!this.signedIn) {
      this.messages.alert({ kind: 'signIn', message: DOMAIN_MESSAGES.signInToPlay });
      return Promise.resolve();
    }
    void this.notifications.requestPermission().catch(() => false);
    return this.lane.run(async () => {
      const outcome = await firstValueFrom(this.reservations.reserve(stationId, { shopId: this.config.shopId }));
      if (outcome.kind === 'reserved') this.show(outcome.info);
      else if (outcome.kind === 'vipRefused') this.messages.popup(outcome.outcome);
      else this.messages.alert({ kind: 'stationMaintenance', message: outcome.message });
    });
  }

  /** Gives up the place in line (or the turn before confirming). */
  cancel(): Promise<void> {
    const mine = this.snapshot.reservation;
    if (!mine) return Promise.resolve();
    return this.lane.run(async () => {
      await firstValueFrom(
        this.reservations.cancelReservation({ stationSettingId: mine.stationSettingId, shopId: this.config.shopId }),
      );
      this.left();
    });
  }

  /** The turn is being taken (confirm on its way): polling stops [R4.3-7]. */
  holdForTurn(): void {
    this.stopPolling();
  }

  /** The turn was taken: the place becomes playWaiting, and nothing polls. */
  tookTurn(): void {
    this.stopPolling();
    this.setState((s) => ({
      ...s,
      reservation: s.reservation ? { ...s.reservation, status: 'playWaiting' } : s.reservation,
    }));
  }

  /** Taking the turn failed: the line is polled again. */
  resumePolling(): void {
    if (this.snapshot.reservation) this.startPolling();
  }

  /** The player left the station's line (a cancel, a play ended): nothing more to wait for. */
  left(): void {
    this.stopPolling();
    this.setState((s) => ({ ...s, reservation: null }));
  }

  private get signedIn(): boolean {
    return this.session.current() !== null;
  }

  private onEvent(event: RealtimeEvent): void {
    switch (event.type) {
      case 'reserveChange':
      case 'craneReserveCancel':
        this.refresh();
        return;
      case 'push':
        this.messages.notice(event.push);
        this.notifications.notify(event.push.title, event.push.message);
        if (event.push.kind === 'turnNow' || event.push.kind === 'turnNear') this.refresh();
        return;
      default:
        return;
    }
  }

  private request(): Observable<ReserveFetch> {
    const stationId = this.snapshot.stationId;
    if (stationId === null) return EMPTY;
    this.stopPolling();
    return this.reservations.currentReservation({ stationId }).pipe(
      catchError((error: unknown) => {
        console.warn('onkure: reserve poll failed', error);
        return EMPTY;
      }),
    );
  }

  /** One reserve poll's answer and the domain's reaction to it [R4.3-3…R4.3-7]. */
  private onPoll(answer: ReserveFetch): void {
    const stationId = this.snapshot.stationId;
    if (stationId === null) return;
    if (answer.kind === 'stationMaintenance') {
      const mine = this.snapshot.reservation;
      if (mine)
        this.react(
          maintenanceReaction({
            station_id: stationId,
            station_setting_id: mine.stationSettingId,
            viewingStationSettingId: null,
          }),
        );
      this.maintenance.next();
      return;
    }
    if (answer.kind === 'none') return;
    const mine = this.snapshot.reservation;
    if (!mine) {
      // Not waiting here (a viewer, or a push after our own turn ended): just show the line.
      this.show(answer.info);
      return;
    }
    const decision = decideReservePoll(answer.info, {
      station_id: stationId,
      station_setting_id: mine.stationSettingId,
      viewingStationSettingId: answer.info.station_setting_id,
    });
    if (decision.kind === 'continue') {
      this.show(decision.record as StationReserveInfo);
      return;
    }
    if (answer.info.reserve_status === 'playWaiting') {
      // Our own confirm (in another tab) or a play in progress: follow the play, no alert.
      this.show(answer.info);
      this.turnTaken.next();
      return;
    }
    this.react(decision.effects);
    this.show(answer.info);
  }

  /** Carries out the domain's reservation effects in order. */
  private react(effects: readonly ReservationEffect[]): void {
    for (const effect of effects) {
      switch (effect.type) {
        case 'stopPolling':
          this.stopPolling();
          break;
        case 'showPopup':
        case 'showAlert':
          this.messages.alert({ kind: effect.alert, message: effect.message });
          break;
        case 'cancelReservation':
          void this.firstOrNull(() =>
            this.reservations
              .cancelReservation({ stationSettingId: effect.station_setting_id, shopId: this.config.shopId })
              .pipe(catchError(() => EMPTY)),
          );
          break;
        case 'visitCancel':
          void this.firstOrNull(() =>
            this.reservations.cancelVisit(effect.station_setting_id).pipe(catchError(() => EMPTY)),
          );
          break;
        case 'resetPlayInfo':
          this.reset.next();
          break;
      }
    }
    this.setState((s) => ({ ...s, reservation: null }));
  }

  private show(info: StationReserveInfo): void {
    const status = info.reserve_status;
    this.setState((s) => ({
      ...s,
      viewers: info.visit_count,
      lineLength: info.reserve_count,
      receivedAt: this.clock.now(),
      reservation:
        status === null || status === 'cancel' || status === 'change'
          ? null
          : {
              status,
              place: info.reserve_num,
              secondsLeft: info.reserve_time,
              estimatedWaitSeconds: estimatedWaitSeconds(info.reserve_num),
              stationSettingId: info.station_setting_id,
            },
    }));
    if (status !== null && POLLED_RESERVE_STATUSES.includes(status)) this.startPolling();
  }

  private startPolling(): void {
    if (this.pollTimer || this.disposed) return;
    this.pollTimer = this.clock.setTimeout(() => {
      this.pollTimer = null;
      this.refresh();
    }, reservePollingIntervalMs());
  }

  private stopPolling(): void {
    this.pollTimer?.cancel();
    this.pollTimer = null;
  }
}
