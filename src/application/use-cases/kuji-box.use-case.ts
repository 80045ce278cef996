import { inject, injectable } from 'inversify';
import { firstValueFrom, type Subscription } from 'rxjs';
import {
  decideKujiPoll,
  refusalText,
  reservePollingIntervalMs,
  type KujiBox,
  type KujiDrawResult,
  type KujiOnSale,
  type KujiPlayInfo,
} from '../../domain';
import type { ClockPort, ScheduledTask } from '../ports/clock.port';
import type { KujiDrawCount, KujiPlayPort, KujiReservationRef } from '../ports/kuji-play.port';
import type { PrizeCatalogPort } from '../ports/prize-catalog.port';
import type { RealtimePort } from '../ports/realtime.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface KujiBoxState {
  readonly phase: 'idle' | 'loading' | 'ready' | 'notFound' | 'error';
  readonly kuji: KujiOnSale | null;
  readonly box: KujiBox | null;
  readonly signedIn: boolean;
  /** The player's reservation on this box while it lasts. */
  readonly playInfo: KujiPlayInfo | null;
  /** The queue shows for firstReserved or confirm [R4.4-1]. */
  readonly showQueue: boolean;
  /**
   * Seconds left of the holder's window as the server answered (reserve_remaintime) at `receivedAt`
   * [R4.4-5, R9-4]; the page counts it down (`countdownSeconds`). null when not timed.
   */
  readonly remainingSeconds: number | null;
  /** Local time the latest reservation answer arrived. */
  readonly receivedAt: number;
  /** The latest draw, for the reveal; `revealing` until the player skips or the reveal ends. */
  readonly lastDraw: KujiDrawResult | null;
  readonly revealing: boolean;
  /** This page's draws, newest first. */
  readonly draws: readonly KujiDrawResult[];
  readonly alert: {
    readonly kind: 'kujiBoxEnded' | 'kujiReserveNotFound' | 'refused';
    readonly message: string;
  } | null;
  readonly busy: boolean;
}

const INITIAL: KujiBoxState = {
  phase: 'idle',
  kuji: null,
  box: null,
  signedIn: false,
  playInfo: null,
  showQueue: false,
  remainingSeconds: null,
  receivedAt: 0,
  lastDraw: null,
  revealing: false,
  draws: [],
  alert: null,
  busy: false,
};

/**
 * One kuji box's page (§4.4): the box's stock, the player's place in its line over polling
 * (/play/kuji_polling) and the box channel (a line change polls at once, play_end ends the line with
 * the box-ended alert [R4.4-2, R7-11]), the holder's time left as the server counts it [R4.4-5, R9-4],
 * and the draw with its reveal. Every reaction to a poll answer is the domain's `decideKujiPoll`
 * [R4.4-1..R4.4-5]. Page-scoped: `dispose()` stops polling, timers and the channel.
 */
@injectable()
export class KujiBoxPlay extends StateStore<KujiBoxState> {
  private ref: { kujiId: number; boxId: number } | null = null;
  private pollTimer: ScheduledTask | null = null;
  private channel: Subscription | null = null;
  private drawSeq = 0;

  constructor(
    @inject(TOKENS.KujiPlayPort) private readonly kujiPlay: KujiPlayPort,
    @inject(TOKENS.PrizeCatalogPort) private readonly catalog: Pick<PrizeCatalogPort, 'kujiOnSale'>,
    @inject(TOKENS.RealtimePort) private readonly realtime: Pick<RealtimePort, 'channel'>,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
  ) {
    super(INITIAL);
    this.own(() => this.stopTimers());
    this.own(() => this.channel?.unsubscribe());
  }

  /** Opens the box `boxId` of kuji `kujiId`: its stock, the box channel, and the player's own place if any. */
  async open(kujiId: number, boxId: number): Promise<void> {
    this.ref = { kujiId, boxId };
    const signedIn = this.session.current() !== null;
    this.setState({ ...INITIAL, phase: 'loading', signedIn });
    if (!(await this.loadStock())) return;
    this.channel?.unsubscribe();
    this.channel = this.realtime
      .channel({ kind: 'kujiBox', kujiId, boxId })
      .pipe(this.untilDisposed())
      .subscribe((event) => {
        if (event.type === 'playEnd') this.boxEnded();
        else if (event.type === 'kujiReserveChange') void this.poll();
      });
    if (!signedIn) return;
    try {
      const current = await firstValueFrom(this.kujiPlay.currentKujiReservation());
      if (current && current.kuji_id === kujiId && current.box_id === boxId) this.apply(current);
    } catch {
      // Only logged by the HTTP layer (§8): the page works without the player's place.
    }
  }

  /** Joins the box's line; the holder at once when nobody holds it. */
  async reserve(): Promise<void> {
    if (!this.ref || this.snapshot.busy) return;
    await this.run(async () => this.apply(await firstValueFrom(this.kujiPlay.reserveKuji(this.ref!))));
  }

  /** Gives the place up. */
  async cancel(): Promise<void> {
    const ref = this.reservation();
    if (!ref || this.snapshot.busy) return;
    await this.run(async () => {
      await firstValueFrom(this.kujiPlay.cancelKujiReservation(ref));
      this.reset();
    });
  }

  /** The holder draws `count` tickets (or every one left); the reveal starts. */
  async draw(count: KujiDrawCount): Promise<void> {
    const ref = this.reservation();
    if (!ref || this.snapshot.busy) return;
    this.drawSeq += 1;
    const requestId = `kuji-${ref.boxId}-${this.clock.now().toString(36)}-${this.drawSeq}`;
    await this.run(async () => {
      const { draw, playInfo } = await firstValueFrom(this.kujiPlay.drawKuji(ref, count, requestId));
      this.setState((s) => ({ ...s, lastDraw: draw, revealing: true, draws: [draw, ...s.draws] }));
      await this.loadStock();
      // Selling the box out ends the drawer's reservation: that is the reveal's news, not an alert.
      if (playInfo.reserve_status === 'end') this.reset();
      else this.apply(playInfo);
    });
  }

  /** Ends the reveal (skipped, or played to its end). */
  skipReveal(): void {
    this.setState((s) => ({ ...s, revealing: false }));
  }

  dismissAlert(): void {
    this.setState((s) => ({ ...s, alert: null }));
  }

  private reservation(): KujiReservationRef | null {
    const info = this.snapshot.playInfo;
    if (!info || !this.ref) return null;
    return { kujiId: this.ref.kujiId, boxId: this.ref.boxId, reserveToken: info.reserve_token };
  }

  private async run(work: () => Promise<void>): Promise<void> {
    this.setState((s) => ({ ...s, busy: true, alert: null }));
    try {
      await work();
    } catch (error) {
      this.setState((s) => ({ ...s, alert: { kind: 'refused', message: refusalText(error) } }));
    } finally {
      this.setState((s) => ({ ...s, busy: false }));
    }
  }

  private async loadStock(): Promise<boolean> {
    if (!this.ref) return false;
    const { kujiId, boxId } = this.ref;
    try {
      const list = await firstValueFrom(this.catalog.kujiOnSale());
      const kuji = list.find((k) => k.kuji_id === kujiId) ?? null;
      const box = kuji?.boxes.find((b) => b.box_id === boxId) ?? null;
      this.setState((s) =>
        kuji && box
          ? { ...s, phase: 'ready', kuji, box }
          : {
              ...s,
              phase: s.phase === 'ready' ? 'ready' : 'notFound',
              box: s.box ? { ...s.box, box_status: 'deleted' } : null,
            },
      );
      return kuji !== null && box !== null;
    } catch {
      if (this.snapshot.phase !== 'ready') this.setState((s) => ({ ...s, phase: 'error' }));
      return false;
    }
  }

  /** Asks the server where the player's reservation stands now. */
  private async poll(): Promise<void> {
    const ref = this.reservation();
    if (!ref) {
      await this.loadStock();
      return;
    }
    try {
      this.apply(await firstValueFrom(this.kujiPlay.pollKuji(ref)));
    } catch (error) {
      const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
      if (code === 404) this.apply({ ...this.snapshot.playInfo!, box_id: null });
    }
    void this.loadStock();
  }

  /** One poll answer through the domain's decision [R4.4-1..R4.4-5]. */
  private apply(info: KujiPlayInfo): void {
    const decision = decideKujiPoll(info);
    if (decision.kind === 'stop') {
      this.reset();
      for (const effect of decision.effects) {
        if (effect.type === 'showAlert')
          this.setState((s) => ({ ...s, alert: { kind: effect.alert, message: effect.message } }));
      }
      // The callers refresh the stock (poll and play_end after applying, a draw before).
      return;
    }
    this.setState((s) => ({
      ...s,
      playInfo: info,
      showQueue: decision.showQueue,
      remainingSeconds: decision.remainingSeconds,
      receivedAt: this.clock.now(),
    }));
    this.schedulePoll();
  }

  /** play_end on the box channel: the line is over for everyone [R4.4-2, R7-11]. */
  private boxEnded(): void {
    const info = this.snapshot.playInfo;
    // A call in flight (the draw that sold the box out) answers for itself: no alert for the drawer.
    if (info && !this.snapshot.busy) this.apply({ ...info, box_status: 'endOfSale' });
    void this.loadStock();
  }

  private reset(): void {
    this.stopTimers();
    this.setState((s) => ({ ...s, playInfo: null, showQueue: false, remainingSeconds: null }));
  }

  private schedulePoll(): void {
    this.pollTimer?.cancel();
    this.pollTimer = this.clock.setTimeout(() => void this.poll(), reservePollingIntervalMs());
  }

  private stopTimers(): void {
    this.pollTimer?.cancel();
    this.pollTimer = null;
  }
}
