import { inject, injectable } from 'inversify';
import { EMPTY, catchError, firstValueFrom, of, type Observable, type Subscription } from 'rxjs';
import {
  analyticsEvent,
  decideReservePoll,
  maintenanceReaction,
  refusalText,
  estimatedWaitSeconds,
  inputLatencyMs,
  POLLED_RESERVE_STATUSES,
  reservePollingIntervalMs,
  type AnalyticsEventName,
  type AssistGaugeView,
  type CraneButton,
  type MachineView,
  type PlayView,
  type PrizeItem,
  type PushNotice,
  type ReservationEffect,
  type ReserveStatus,
  type StationInfo,
  type StreamType,
  type VipOutcome,
} from '../../domain';
import { DOMAIN_MESSAGES } from '../../domain';
import type { AppConfig } from '../app-config';
import type { AccountPort } from '../ports/account.port';
import type { AnalyticsPort } from '../ports/analytics.port';
import type { ClockPort, ScheduledTask } from '../ports/clock.port';
import type { NotificationPort } from '../ports/live-feed.port';
import type { NavigatorPort } from '../ports/navigator.port';
import type { PlayHistoryPage, PlayPort } from '../ports/play.port';
import type { PrizeCatalogPort } from '../ports/prize-catalog.port';
import type { RealtimeEvent, RealtimePort } from '../ports/realtime.port';
import type { ReservationPort, StationReserveInfo } from '../ports/reservation.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import type { LiveFeed } from './live-feed.use-case';
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

export type PlayAlert =
  | {
      readonly kind:
        'reservedStationCancelled' | 'reservedStationMaintenance' | 'reloadError' | 'stationMaintenance' | 'refused';
      readonly message: string;
    }
  /** A guest pressed reserve: sign in first. */
  | { readonly kind: 'signIn'; readonly message: string };

export interface StationPlayState {
  readonly stationId: number | null;
  readonly station: PrizeItem | null;
  readonly signedIn: boolean;
  readonly viewers: number;
  readonly lineLength: number;
  readonly reservation: ReservationView | null;
  /** The player's own play, or null. */
  readonly play: PlayView | null;
  /** The machine as every viewer sees it (whoever plays). */
  readonly machine: MachineView | null;
  /** Someone else plays the machine now. */
  readonly othersPlaying: boolean;
  readonly gauge: AssistGaugeView | null;
  readonly popup: VipOutcome | null;
  readonly alert: PlayAlert | null;
  /** A notice shown in the page (and as a browser notification where permitted). */
  readonly notice: PushNotice | null;
  /** Input → first picture showing it, in ms (the last measured). */
  readonly latencyMs: number | null;
  readonly sound: boolean;
  readonly hideCharacter: boolean;
  /** A call is on its way (buttons show it). */
  readonly busy: boolean;
  /** Local time when `play` / `reservation` were last received, for countdowns. */
  readonly receivedAt: number;
  /** Local time, moved every 250 ms while a countdown runs. */
  readonly now: number;
  /** The player's play log, once asked for. */
  readonly history: PlayHistoryPage | null;
}

/** A station's card loaded by a server render, sent in the page for the browser to adopt. */
export interface StationSnapshot {
  readonly stationId: number;
  /** null: no station of this shop has this id. */
  readonly station: PrizeItem | null;
}

const stationKey = (stationId: number): string => `station ${stationId}`;

const INITIAL: StationPlayState = {
  stationId: null,
  station: null,
  signedIn: false,
  viewers: 0,
  lineLength: 0,
  reservation: null,
  play: null,
  machine: null,
  othersPlaying: false,
  gauge: null,
  popup: null,
  alert: null,
  notice: null,
  latencyMs: null,
  sound: true,
  hideCharacter: false,
  busy: false,
  receivedAt: 0,
  now: 0,
  history: null,
};

const COUNTDOWN_STEP_MS = 250;

/**
 * The play screen of one station (docs/play.md): watch it live, join its line, take the turn, play
 * the two buttons, see the result, continue or leave. It polls get_reserve every
 * RESERVE_POLLING_TIME while waiting [R9-3] and listens to the station's and the user's real-time
 * channels; every reaction of §4.3 comes from the domain's `decideReservePoll` [R4.3-3…R4.3-7].
 * Buttons travel over the socket; the latency from a command to the first picture showing it is
 * measured from the pictures' ticks.
 */
@injectable()
export class StationPlay extends StateStore<StationPlayState> {
  private pollTimer: ScheduledTask | null = null;
  private countdown: ScheduledTask | null = null;
  private channels: Subscription | null = null;
  private lastCommand: { tick: number; sentAt: number } | null = null;
  private held: CraneButton | null = null;
  private info: StationInfo | null = null;

  constructor(
    @inject(TOKENS.LiveFeed) readonly feed: LiveFeed,
    @inject(TOKENS.ReservationPort) private readonly reservations: ReservationPort,
    @inject(TOKENS.PlayPort) private readonly plays: PlayPort,
    @inject(TOKENS.RealtimePort) private readonly realtime: RealtimePort,
    @inject(TOKENS.PrizeCatalogPort) private readonly catalog: Pick<PrizeCatalogPort, 'lookUpPrizes'>,
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'setVolume' | 'setHideCharacter'>,
    @inject(TOKENS.SessionPort) private readonly session: SessionPort,
    @inject(TOKENS.NotificationPort) private readonly notifications: NotificationPort,
    @inject(TOKENS.AnalyticsPort) private readonly analytics: AnalyticsPort,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
    @inject(TOKENS.NavigatorPort) private readonly navigator: NavigatorPort,
  ) {
    super(INITIAL);
    this.own(() => {
      this.stopPolling();
      this.countdown?.cancel();
      this.channels?.unsubscribe();
      feed.dispose();
    });
    this.own(
      feed.onFrame((frame) => {
        const latency = inputLatencyMs(this.lastCommand, frame);
        if (latency !== null) {
          this.lastCommand = null;
          this.setState((s) => ({ ...s, latencyMs: latency }));
        }
      }),
    );
  }

  /** Opens a station: its feed, the viewer count, the caller's place, and the live channels. */
  async open(stationId: number, mode: StreamType = this.config.feedMode): Promise<void> {
    const signedIn = this.session.current() !== null;
    const adopted = this.takeAdopted(stationKey(stationId)) ? this.snapshot.station : undefined;
    this.setState({ ...INITIAL, stationId, signedIn, now: this.clock.now(), station: adopted ?? null });
    this.listen(stationId, signedIn);
    if (adopted === undefined) {
      const lookup = await this.once(() =>
        this.catalog.lookUpPrizes({ shopId: this.config.shopId, by: { stationId } }),
      );
      const station = lookup?.prize.find((p) => p.station_id === stationId) ?? null;
      this.setState((s) => ({ ...s, station }));
    }
    const info = await this.once(() => this.plays.stationInfo(stationId));
    if (info?.kind === 'info') {
      this.info = info.info;
      this.feed.start(info.info, mode);
    } else if (info?.kind === 'vipRefused') this.setState((s) => ({ ...s, popup: info.outcome }));
    else if (info?.kind === 'stationMaintenance')
      this.setState((s) => ({ ...s, alert: { kind: 'stationMaintenance', message: info.message } }));
    if (!signedIn || info?.kind !== 'info') return;
    const visit = await this.once(() => this.reservations.visit(stationId));
    if (visit?.kind === 'watching') this.showRecord(visit.info);
    else if (visit?.kind === 'vipRefused') this.setState((s) => ({ ...s, popup: visit.outcome }));
    else if (visit?.kind === 'stationMaintenance')
      this.setState((s) => ({ ...s, alert: { kind: 'stationMaintenance', message: visit.message } }));
    await this.refreshGauge();
    const current = await this.once(() => this.plays.current());
    if (current && current.station_id === stationId) this.showPlay(current);
  }

  /** Loads a station's card once without showing it (a server render's data); rejects when the call fails. */
  async loadStation(stationId: number): Promise<StationSnapshot> {
    const lookup = await firstValueFrom(
      this.catalog.lookUpPrizes({ shopId: this.config.shopId, by: { stationId } }).pipe(this.untilDisposed()),
    );
    return { stationId, station: lookup.prize.find((p) => p.station_id === stationId) ?? null };
  }

  /** Shows a station's card loaded by `loadStation`; `open` for that station then does not ask for it again. */
  adopt(snapshot: StationSnapshot): void {
    this.adoptState(stationKey(snapshot.stationId), {
      ...INITIAL,
      stationId: snapshot.stationId,
      station: snapshot.station,
    });
  }

  /** Restarts the live feed in the other mode (the player's choice: rtc video or jpg stills). */
  switchFeedMode(mode: StreamType): void {
    if (this.info) this.feed.start(this.info, mode);
  }

  /** Runs an observable once; a failure becomes null (logged), the screen stays usable. */
  private async once<T>(call: () => Observable<T>): Promise<T | null> {
    try {
      return await firstValueFrom(call().pipe(this.untilDisposed()), { defaultValue: null });
    } catch (error) {
      console.warn('onkure: play screen call failed', error);
      return null;
    }
  }

  private listen(stationId: number, signedIn: boolean): void {
    this.channels?.unsubscribe();
    const subs = this.realtime.channel({ kind: 'station', stationId }).subscribe((e) => this.onEvent(e));
    if (signedIn) subs.add(this.realtime.channel({ kind: 'user' }).subscribe((e) => this.onEvent(e)));
    this.channels = subs;
    this.own(subs);
  }

  private onEvent(event: RealtimeEvent): void {
    switch (event.type) {
      case 'reserveChange':
        if (this.snapshot.signedIn) void this.poll();
        return;
      case 'playState': {
        const mine =
          this.snapshot.play?.play_id === event.play.play_id || this.snapshot.reservation?.status === 'playWaiting';
        this.setState((s) => ({
          ...s,
          machine: event.play.machine,
          othersPlaying: !mine && event.play.phase !== 'ended',
        }));
        if (mine) this.showPlay(event.play);
        return;
      }
      case 'push':
        this.setState((s) => ({ ...s, notice: event.push }));
        this.notifications.notify(event.push.title, event.push.message);
        if (event.push.kind === 'turnNow' || event.push.kind === 'turnNear') void this.poll();
        return;
      case 'craneReserveCancel':
        void this.poll();
        return;
      default:
        return;
    }
  }

  private showRecord(info: StationReserveInfo): void {
    const now = this.clock.now();
    const status = info.reserve_status;
    this.setState((s) => ({
      ...s,
      viewers: info.visit_count,
      lineLength: info.reserve_count,
      receivedAt: now,
      now,
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
    this.runCountdown();
  }

  private showPlay(play: PlayView): void {
    const now = this.clock.now();
    const previous = this.snapshot.play;
    this.setState((s) => ({
      ...s,
      play: play.phase === 'ended' ? null : play,
      machine: play.machine,
      othersPlaying: false,
      receivedAt: now,
      now,
    }));
    if (play.phase === 'result' && previous?.phase !== 'result') {
      void this.refreshGauge();
      if (this.snapshot.history) void this.loadHistory();
    }
    if (play.phase === 'ended') {
      this.setState((s) => ({ ...s, reservation: null }));
      // A fault ended the play before its result: the charge came back (docs/play.md).
      if (play.result === 'refunded')
        this.setState((s) => ({ ...s, alert: { kind: 'refused', message: DOMAIN_MESSAGES.playRefunded } }));
    }
    this.runCountdown();
  }

  /** Keeps `now` moving while something counts down, so the page shows whole seconds left. */
  private runCountdown(): void {
    if (this.countdown || this.disposed) return;
    const step = () => {
      this.countdown = null;
      const s = this.snapshot;
      const counting = s.reservation?.status === 'playTransition' || (s.play !== null && s.play.phase !== 'ended');
      if (!counting || this.disposed) return;
      this.setState((x) => ({ ...x, now: this.clock.now() }));
      this.countdown = this.clock.setTimeout(step, COUNTDOWN_STEP_MS);
    };
    this.countdown = this.clock.setTimeout(step, COUNTDOWN_STEP_MS);
  }

  // ---- the line ------------------------------------------------------------------------------

  private startPolling(): void {
    if (this.pollTimer || this.disposed) return;
    this.pollTimer = this.clock.setTimeout(() => {
      this.pollTimer = null;
      void this.poll();
    }, reservePollingIntervalMs());
  }

  private stopPolling(): void {
    this.pollTimer?.cancel();
    this.pollTimer = null;
  }

  /** One reserve poll and the domain's reaction to it [R4.3-3…R4.3-7]. */
  private async poll(): Promise<void> {
    const stationId = this.snapshot.stationId;
    if (stationId === null || this.disposed) return;
    this.stopPolling();
    const answer = await this.once(() => this.reservations.currentReservation({ stationId }));
    if (!answer || this.disposed) return;
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
      this.setState((s) => ({
        ...s,
        station: s.station ? { ...s.station, station_status: 'maintenance' } : s.station,
      }));
      return;
    }
    if (answer.kind === 'none') return;
    const mine = this.snapshot.reservation;
    if (!mine) {
      // Not waiting here (a viewer, or a push after our own turn ended): just show the line.
      this.showRecord(answer.info);
      return;
    }
    const decision = decideReservePoll(answer.info, {
      station_id: stationId,
      station_setting_id: mine.stationSettingId,
      viewingStationSettingId: answer.info.station_setting_id,
    });
    if (decision.kind === 'continue') {
      this.showRecord(decision.record as StationReserveInfo);
      return;
    }
    if (answer.info.reserve_status === 'playWaiting') {
      // Our own confirm (in another tab) or a play in progress: follow the play, no alert.
      this.showRecord(answer.info);
      const current = await this.once(() => this.plays.current());
      if (current) this.showPlay(current);
      return;
    }
    this.react(decision.effects);
    this.showRecord(answer.info);
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
          this.setState((s) => ({ ...s, alert: { kind: effect.alert, message: effect.message } }));
          break;
        case 'cancelReservation':
          void this.once(() =>
            this.reservations
              .cancelReservation({ stationSettingId: effect.station_setting_id, shopId: this.config.shopId })
              .pipe(catchError(() => EMPTY)),
          );
          break;
        case 'visitCancel':
          void this.once(() => this.reservations.cancelVisit(effect.station_setting_id).pipe(catchError(() => EMPTY)));
          break;
        case 'resetPlayInfo':
          this.setState((s) => ({ ...s, reservation: null, play: null }));
          break;
      }
    }
    this.setState((s) => ({ ...s, reservation: null }));
  }

  /** Joins the line. A guest is asked to sign in; the VIP gates show their popups. */
  async reserve(): Promise<void> {
    const stationId = this.snapshot.stationId;
    if (stationId === null) return;
    if (this.session.current() === null) {
      this.setState((s) => ({ ...s, alert: { kind: 'signIn', message: DOMAIN_MESSAGES.signInToPlay } }));
      return;
    }
    void this.notifications.requestPermission().catch(() => false);
    await this.call(async () => {
      const outcome = await firstValueFrom(this.reservations.reserve(stationId, { shopId: this.config.shopId }));
      if (outcome.kind === 'reserved') this.showRecord(outcome.info);
      else if (outcome.kind === 'vipRefused') this.setState((s) => ({ ...s, popup: outcome.outcome }));
      else this.setState((s) => ({ ...s, alert: { kind: 'stationMaintenance', message: outcome.message } }));
    });
  }

  /** Gives up the place in line (or the turn before confirming). */
  async cancel(): Promise<void> {
    const mine = this.snapshot.reservation;
    if (!mine) return;
    await this.call(async () => {
      await firstValueFrom(
        this.reservations.cancelReservation({ stationSettingId: mine.stationSettingId, shopId: this.config.shopId }),
      );
      this.stopPolling();
      this.setState((s) => ({ ...s, reservation: null }));
    });
  }

  /** Takes the turn: polling stops (R4.3-7), the play is charged and begins. */
  async confirm(): Promise<void> {
    const stationId = this.snapshot.stationId;
    if (stationId === null) return;
    this.stopPolling();
    await this.call(
      async () => {
        const play = await firstValueFrom(this.plays.confirm(stationId));
        this.setState((s) => ({
          ...s,
          reservation: s.reservation ? { ...s.reservation, status: 'playWaiting' } : s.reservation,
        }));
        this.showPlay(play);
        this.track('play_game', play);
      },
      () => this.startPolling(),
    );
  }

  /** Plays again within the continue window. */
  async continuePlay(): Promise<void> {
    const play = this.snapshot.play;
    if (!play) return;
    await this.call(async () => {
      const next = await firstValueFrom(this.plays.continuePlay(play.play_id));
      this.showPlay(next);
      this.track('continue_game', next);
    });
  }

  /** Leaves after a result. */
  async finish(): Promise<void> {
    const play = this.snapshot.play;
    if (!play) return;
    await this.call(async () => {
      await firstValueFrom(this.plays.finish(play.play_id).pipe(catchError(() => of(undefined))));
      this.setState((s) => ({ ...s, play: null, reservation: null }));
    });
  }

  /** Presses a button (hold): → moves right, ↑ moves back. */
  press(button: CraneButton): void {
    const play = this.snapshot.play;
    if (!play || play.phase !== 'playing' || this.held !== null) return;
    if (this.snapshot.machine?.button !== button) return;
    this.held = button;
    this.send(play.play_id, button, 'press');
  }

  /** Lets the held button go. */
  release(button: CraneButton): void {
    const play = this.snapshot.play;
    if (this.held !== button || !play) return;
    this.held = null;
    this.send(play.play_id, button, 'release');
  }

  private send(playId: number, button: CraneButton, command: 'press' | 'release'): void {
    const sentAt = this.clock.now();
    this.own(
      this.realtime
        .control({ playId, button, command })
        .pipe(this.untilDisposed())
        .subscribe({
          next: (answer) => {
            if (answer.ok) {
              this.lastCommand = { tick: answer.tick, sentAt };
              this.setState((s) => ({
                ...s,
                machine: answer.machine,
                play: s.play ? { ...s.play, machine: answer.machine } : s.play,
              }));
            } else {
              this.setState((s) => ({ ...s, notice: { kind: 'notice', title: '', message: answer.error_info } }));
            }
          },
          error: (error: unknown) => console.warn('onkure: control failed', error),
        }),
    );
  }

  // ---- settings, popups and alerts ------------------------------------------------------------

  /** Sound on or off (sent as 1 or 0) [R5-1]. */
  async setSound(on: boolean): Promise<void> {
    this.setState((s) => ({ ...s, sound: on }));
    if (this.snapshot.signedIn) await this.once(() => this.account.setVolume(on));
  }

  /** Hides or shows the character overlay (sent as 1 or 0) [R5-1]. */
  async setHideCharacter(hidden: boolean): Promise<void> {
    this.setState((s) => ({ ...s, hideCharacter: hidden }));
    if (this.snapshot.signedIn) await this.once(() => this.account.setHideCharacter(hidden));
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
    this.setState((s) => ({ ...s, notice: null }));
  }

  /** Loads the player's own play log (every play's price, arm strength, assist level, seed and result). */
  async loadHistory(page = 1): Promise<void> {
    if (!this.snapshot.signedIn) return;
    const history = await this.once(() => this.plays.history(page));
    if (history) this.setState((s) => ({ ...s, history }));
  }

  private async refreshGauge(): Promise<void> {
    const stationId = this.snapshot.stationId;
    if (stationId === null || !this.snapshot.signedIn) return;
    const gauge = await this.once(() => this.plays.gauge(stationId));
    if (gauge) this.setState((s) => ({ ...s, gauge }));
  }

  /** Runs a call with `busy` set; a refusal shows its Japanese error_info. */
  private async call(work: () => Promise<void>, onError?: () => void): Promise<void> {
    this.setState((s) => ({ ...s, busy: true }));
    try {
      await work();
    } catch (error) {
      this.setState((s) => ({ ...s, alert: { kind: 'refused', message: refusalText(error) } }));
      onError?.();
    } finally {
      this.setState((s) => ({ ...s, busy: false }));
    }
  }

  private track(name: Extract<AnalyticsEventName, 'play_game' | 'continue_game'>, play: PlayView): void {
    const user = this.session.current();
    this.analytics.send(
      analyticsEvent(
        name,
        {
          crane_type: this.snapshot.station?.type ?? 'normal',
          play_money: play.currency === 'tc' ? play.price : 0,
          ticket_num: play.currency === 'ticket' ? play.price : 0,
        },
        { user_id: user?.user_id ?? 0, shop_id: this.config.shopId, measurementIds: this.config.analyticsIds },
      ),
    );
  }
}
