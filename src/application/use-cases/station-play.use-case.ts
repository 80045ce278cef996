import { inject, injectable } from 'inversify';
import { combineLatest, distinctUntilChanged, EMPTY, firstValueFrom, map, switchMap, type Subscription } from 'rxjs';
import {
  markedMaintenance,
  watchKind,
  watchRole,
  stationPosters,
  type Camera,
  type PrizeItem,
  type StationInfo,
  type StreamType,
} from '../../domain';
import type { AppConfig } from '../app-config';
import type { PlayPort, StationInfoOutcome } from '../ports/play.port';
import type { PrizeCatalogPort } from '../ports/prize-catalog.port';
import type { RealtimePort } from '../ports/realtime.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import type { CranePlay } from './crane-play.use-case';
import type { LiveFeed } from './live-feed.use-case';
import type { PlayCommandLane } from './play-command-lane';
import type { PlayMessages } from './play-messages.use-case';
import type { PlayRecord } from './play-record.use-case';
import type { PlayerSettings } from './player-settings.use-case';
import { StateStore } from './state-store';
import type { StationLine } from './station-line.use-case';

export interface StationPlayState {
  readonly stationId: number | null;
  /** The station's card (its prize, price, status), or null while loading or when none has this id. */
  readonly station: PrizeItem | null;
  readonly signedIn: boolean;
  /**
   * Each camera's latest picture (its still address) while the live feed is not showing yet: a
   * server render shows it at once, before the page's scripts run (issue 27). Null until the
   * station's feed is known.
   */
  readonly posters: Readonly<Record<Camera, string>> | null;
}

/** A station's card loaded by a server render, sent in the page for the browser to adopt. */
export interface StationSnapshot {
  readonly stationId: number;
  /** null: no station of this shop has this id. */
  readonly station: PrizeItem | null;
  /**
   * Where the station's feed is, as the server answers anyone (a server render is a guest's); null
   * when it answers a guest nothing (a VIP station, maintenance): the browser then asks itself.
   */
  readonly info?: StationInfo | null;
}

const stationKey = (stationId: number): string => `station ${stationId}`;

const INITIAL: StationPlayState = { stationId: null, station: null, signedIn: false, posters: null };

/**
 * The play screen of one station (docs/play.md): it opens the station (its card, its live feed)
 * and holds the screen's parts, one job each, sharing one command lane and one set of messages:
 * `line` (the line and the turn), `play` (the play itself), `settings` (the player's switches),
 * `record` (the assist gauge and the play log), `messages` (popups, alerts, notices), `lane` (one
 * command at a time, `busy`). Disposing it closes them all.
 */
@injectable()
export class StationPlay extends StateStore<StationPlayState> {
  private info: StationInfo | null = null;
  /** The viewer picked rtc or jpg with the switch: no move to or from HLS after that. */
  private modeChosen = false;
  /** The feed's addresses a server render sent with the station (`adopt`), used once by `open`. */
  private adoptedInfo: StationInfo | null = null;
  /** Telling the server what this page shows of the open station (the consoles' spectator counts). */
  private reporting: Subscription | null = null;

  constructor(
    @inject(TOKENS.LiveFeed) readonly feed: LiveFeed,
    @inject(TOKENS.StationLine) readonly line: StationLine,
    @inject(TOKENS.CranePlay) readonly play: CranePlay,
    @inject(TOKENS.PlayerSettings) readonly settings: PlayerSettings,
    @inject(TOKENS.PlayRecord) readonly record: PlayRecord,
    @inject(TOKENS.PlayMessages) readonly messages: PlayMessages,
    @inject(TOKENS.PlayCommandLane) readonly lane: PlayCommandLane,
    @inject(TOKENS.PrizeCatalogPort) private readonly catalog: Pick<PrizeCatalogPort, 'lookUpPrizes'>,
    @inject(TOKENS.PlayPort) private readonly plays: Pick<PlayPort, 'stationInfo'>,
    @inject(TOKENS.SessionPort) private readonly session: SessionPort,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
    @inject(TOKENS.RealtimePort) private readonly realtime: Pick<RealtimePort, 'watch'>,
  ) {
    super(INITIAL);
    for (const part of [feed, line, play, settings, record, messages, lane]) this.own(() => part.dispose());
    this.own(() => this.reporting?.unsubscribe());
    this.own(play.results$.subscribe(() => record.afterResult()));
    // Who watches how (issue 44): a spectator watches the station's HLS; the player playing, or
    // next but one, watches in real time. The feed moves between them without a gap.
    this.own(
      combineLatest([line.state$, play.state$])
        .pipe(
          map(([l, p]) => watchRole({ playing: p.play !== null, place: l.reservation?.place ?? null })),
          distinctUntilChanged(),
        )
        .subscribe((role) => {
          // A mode the viewer picked themselves (the switch under the cameras) is kept, whoever they are.
          if (!this.modeChosen) feed.setRole(role);
        }),
    );
    this.own(
      line.maintenance$.subscribe(() =>
        this.setState((s) =>
          s.station && s.stationId !== null ? { ...s, station: markedMaintenance(s.station, s.stationId) } : s,
        ),
      ),
    );
  }

  /** Opens a station: its card, its feed, the viewer count, the caller's place and play, the live channels. */
  async open(stationId: number, mode: StreamType = this.config.feedMode): Promise<void> {
    const signedIn = this.session.current() !== null;
    const adopted = this.takeAdopted(stationKey(stationId)) ? this.snapshot : undefined;
    const adoptedInfo = adopted ? this.adoptedInfo : null;
    this.adoptedInfo = null;
    this.setState({
      stationId,
      signedIn,
      station: adopted?.station ?? null,
      posters: adoptedInfo ? stationPosters(adoptedInfo) : null,
    });
    this.line.start(stationId);
    this.reportWatching(stationId);
    this.play.start(stationId, this.feed);
    this.record.start(stationId);
    let station: PrizeItem | null = adopted?.station ?? null;
    if (adopted === undefined) {
      const lookup = await this.firstOrNull(() =>
        this.catalog.lookUpPrizes({ shopId: this.config.shopId, by: { stationId } }),
      );
      const found = lookup?.prize.find((p) => p.station_id === stationId) ?? null;
      station = found;
      this.setState((s) => ({ ...s, station: found }));
    }
    if (station) this.play.setCraneType(station.type);
    // What the server answered a guest for this station is what it answers anyone (VIP stations,
    // whose addresses carry a viewer's token, answer a guest nothing and are asked for here).
    const info: StationInfoOutcome | null = adoptedInfo
      ? { kind: 'info', info: adoptedInfo }
      : await this.firstOrNull(() => this.plays.stationInfo(stationId));
    if (info?.kind === 'info') {
      this.info = info.info;
      this.setState((s) => ({ ...s, posters: s.posters ?? stationPosters(info.info) }));
      this.feed.start(info.info, mode);
    } else if (info?.kind === 'vipRefused') this.messages.popup(info.outcome);
    else if (info?.kind === 'stationMaintenance')
      this.messages.alert({ kind: 'stationMaintenance', message: info.message });
    if (!signedIn || info?.kind !== 'info') return;
    await this.line.visit();
    this.record.refreshGauge();
    await this.play.follow();
  }

  /**
   * Tells the server what this page shows of the station's cameras (hls, rtc or jpg; nothing while
   * the feed is stopped), as it changes, until another station opens or the screen goes: guests too,
   * one report per page (docs/spectators.md "Counting spectators").
   */
  private reportWatching(stationId: number): void {
    this.reporting?.unsubscribe();
    this.reporting = this.feed.state$
      .pipe(
        map((s) => watchKind(s.stream)),
        distinctUntilChanged(),
        switchMap((kind) => (kind === null ? EMPTY : this.realtime.watch({ stationId, kind }))),
      )
      .subscribe();
  }

  /** Loads a station's card once without showing it (a server render's data); rejects when the call fails. */
  async loadStation(stationId: number): Promise<StationSnapshot> {
    const [lookup, info] = await Promise.all([
      firstValueFrom(
        this.catalog.lookUpPrizes({ shopId: this.config.shopId, by: { stationId } }).pipe(this.untilDisposed()),
      ),
      // The feed's addresses are for the picture the page leads with; without them it shows none.
      this.firstOrNull(() => this.plays.stationInfo(stationId)),
    ]);
    return {
      stationId,
      station: lookup.prize.find((p) => p.station_id === stationId) ?? null,
      info: info?.kind === 'info' ? info.info : null,
    };
  }

  /**
   * Shows a station's card (and its cameras' latest pictures) loaded by `loadStation`; `open` for
   * that station then asks for neither again.
   */
  adopt(snapshot: StationSnapshot): void {
    this.adoptedInfo = snapshot.info ?? null;
    this.adoptState(stationKey(snapshot.stationId), {
      ...INITIAL,
      stationId: snapshot.stationId,
      station: snapshot.station,
      posters: snapshot.info ? stationPosters(snapshot.info) : null,
    });
  }

  /**
   * Restarts the live feed in the other mode (the player's choice: rtc video or jpg stills). A
   * spectator who picks one gets it too, and keeps it (issue 44: HLS is the default, not a rule).
   */
  switchFeedMode(mode: StreamType): void {
    this.modeChosen = true;
    if (this.info) this.feed.start(this.info, mode, 'player');
  }
}
