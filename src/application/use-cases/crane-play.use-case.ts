import { inject, injectable } from 'inversify';
import { catchError, firstValueFrom, of, Subject, type Observable, type Subscription } from 'rxjs';
import {
  DOMAIN_MESSAGES,
  inputLatencyMs,
  type AnalyticsEventName,
  type CraneButton,
  type MachineView,
  type PlayView,
  type StationType,
} from '../../domain';
import type { ClockPort } from '../ports/clock.port';
import type { PlayPort } from '../ports/play.port';
import type { RealtimePort } from '../ports/realtime.port';
import { TOKENS } from '../tokens';
import type { CurrentUser } from './current-user.use-case';
import type { TrackEvent } from './track-event.use-case';
import type { LiveFeed } from './live-feed.use-case';
import type { PlayCommandLane } from './play-command-lane';
import type { PlayMessages } from './play-messages.use-case';
import { StateStore } from './state-store';
import type { StationLine } from './station-line.use-case';

export interface CranePlayState {
  /** The player's own play, or null. */
  readonly play: PlayView | null;
  /** The machine as every viewer sees it (whoever plays). */
  readonly machine: MachineView | null;
  /** Someone else plays the machine now. */
  readonly othersPlaying: boolean;
  /** Input → first picture showing it, in ms (the last measured). */
  readonly latencyMs: number | null;
  /** Local time `play` was last received: the page counts its ms-left fields down from it. */
  readonly receivedAt: number;
}

const INITIAL: CranePlayState = { play: null, machine: null, othersPlaying: false, latencyMs: null, receivedAt: 0 };

/**
 * The play itself (docs/play.md): taking the turn (the charge), the two buttons over the socket,
 * the machine as every viewer sees it, the result, continue or leave. The latency from a command to
 * the first picture showing it is measured from the pictures' ticks. Commands go through the
 * screen's lane (one at a time); a button is held once and released once. One per play screen
 * (request scope).
 */
@injectable()
export class CranePlay extends StateStore<CranePlayState> {
  private stationId: number | null = null;
  private craneType: StationType = 'normal';
  private lastCommand: { tick: number; sentAt: number } | null = null;
  private held: CraneButton | null = null;
  private watching: Subscription | null = null;
  private readonly results = new Subject<PlayView>();
  /** A play reached its result (the gauge and the log change then). */
  readonly results$: Observable<PlayView> = this.results.asObservable();

  constructor(
    @inject(TOKENS.PlayPort) private readonly plays: PlayPort,
    @inject(TOKENS.RealtimePort) private readonly realtime: RealtimePort,
    @inject(TOKENS.StationLine) private readonly line: StationLine,
    @inject(TOKENS.PlayCommandLane) private readonly lane: PlayCommandLane,
    @inject(TOKENS.PlayMessages) private readonly messages: PlayMessages,
    @inject(TOKENS.TrackEvent) private readonly events: Pick<TrackEvent, 'track'>,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload' | 'user'>,
  ) {
    super(INITIAL);
    this.own(() => this.watching?.unsubscribe());
    this.own(line.playWaiting$.subscribe(() => void this.follow()));
    this.own(line.playReset$.subscribe(() => this.setState((s) => ({ ...s, play: null }))));
  }

  /** Watches the station's machine; `feed` gives the pictures the latency is measured on. */
  start(stationId: number, feed: LiveFeed): void {
    this.stationId = stationId;
    this.setState(INITIAL);
    this.watching?.unsubscribe();
    const watching = this.realtime
      .channel({ kind: 'station', stationId })
      .pipe(this.untilDisposed())
      .subscribe((event) => {
        if (event.type === 'playState') this.onPlayState(event.play);
      });
    watching.add(
      feed.onFrame((frame) => {
        const latency = inputLatencyMs(this.lastCommand, frame);
        if (latency === null) return;
        this.lastCommand = null;
        this.setState((s) => ({ ...s, latencyMs: latency }));
      }),
    );
    this.watching = watching;
  }

  /** The station's kind, for the analytics of a play (crane_type). */
  setCraneType(type: StationType): void {
    this.craneType = type;
  }

  /** Shows the player's play at this station when one runs (opening the page mid-play). */
  async follow(): Promise<void> {
    const current = await this.firstOrNull(() => this.plays.current());
    if (current && current.station_id === this.stationId) this.show(current);
  }

  /** Takes the turn: polling stops (R4.3-7), the play is charged and begins. */
  confirm(): Promise<void> {
    const stationId = this.stationId;
    if (stationId === null) return Promise.resolve();
    this.line.holdForTurn();
    return this.lane.run(
      async () => {
        // The server pays a one-ticket play with the day's free play first, while it lasts [R11-8].
        const dailyFree = this.currentUser.user?.daily_free_play?.available === 1;
        const play = await firstValueFrom(this.plays.confirm(stationId));
        this.line.tookTurn();
        this.show(play);
        this.track('play_game', play);
        if (dailyFree && play.currency === 'ticket' && play.price === 1)
          this.events.track('daily_free_play_use', { crane_type: this.craneType });
        // The play is charged: the header's TC balance follows.
        this.currentUser.reload();
      },
      () => this.line.resumePolling(),
    );
  }

  /** Plays again within the continue window. */
  continuePlay(): Promise<void> {
    const play = this.snapshot.play;
    if (!play) return Promise.resolve();
    return this.lane.run(async () => {
      const next = await firstValueFrom(this.plays.continuePlay(play.play_id));
      this.show(next);
      this.track('continue_game', next);
      this.currentUser.reload();
    });
  }

  /**
   * Asks the staff for an assist after a miss [R11-9]: the turn is held (the continue window stops)
   * until they answer; a refusal shows its reason.
   */
  askAssist(): Promise<void> {
    const play = this.snapshot.play;
    if (!play || play.staff_assist?.state !== 'available') return Promise.resolve();
    return this.lane.run(async () => {
      const held = await firstValueFrom(this.plays.askAssist(play.play_id));
      this.show(held);
      this.events.track('staff_assist_request', { crane_type: this.craneType, misses: play.staff_assist?.misses ?? 0 });
    });
  }

  /** Leaves after a result. */
  finish(): Promise<void> {
    const play = this.snapshot.play;
    if (!play) return Promise.resolve();
    return this.lane.run(async () => {
      await firstValueFrom(this.plays.finish(play.play_id).pipe(catchError(() => of(undefined))));
      this.setState((s) => ({ ...s, play: null }));
      this.line.left();
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

  private onPlayState(play: PlayView): void {
    const mine =
      this.snapshot.play?.play_id === play.play_id || this.line.snapshot.reservation?.status === 'playWaiting';
    this.setState((s) => ({ ...s, machine: play.machine, othersPlaying: !mine && play.phase !== 'ended' }));
    if (mine) this.show(play);
  }

  private show(play: PlayView): void {
    const previous = this.snapshot.play;
    this.setState((s) => ({
      ...s,
      play: play.phase === 'ended' ? null : play,
      machine: play.machine,
      othersPlaying: false,
      receivedAt: this.clock.now(),
    }));
    if (play.phase === 'result' && previous?.phase !== 'result') this.results.next(play);
    if (play.phase === 'ended') {
      this.line.left();
      // A fault ended the play before its result: the charge came back (docs/play.md).
      if (play.result === 'refunded') {
        this.messages.alert({ kind: 'refused', message: DOMAIN_MESSAGES.playRefunded });
        this.currentUser.reload();
      }
    }
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
            } else this.messages.notice({ kind: 'notice', title: '', message: answer.error_info });
          },
          error: (error: unknown) => console.warn('onkure: control failed', error),
        }),
    );
  }

  private track(name: Extract<AnalyticsEventName, 'play_game' | 'continue_game'>, play: PlayView): void {
    this.events.track(name, {
      crane_type: this.craneType,
      play_money: play.currency === 'tc' ? play.price : 0,
      ticket_num: play.currency === 'ticket' ? play.price : 0,
    });
  }
}
