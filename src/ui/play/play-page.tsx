import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Tutorial } from '../account/account-gates';
import { useLocation, useParams } from 'react-router';
import {
  TOKENS,
  type CranePlay,
  type CranePlayState,
  type PlayAlert,
  type PlayerSettings,
  type PlayRecord,
  type StationLineState,
  type StationPlay,
  type StationSnapshot,
} from '../../application';
import {
  countdownSeconds,
  isMaintenanceStatus,
  NOTICE_TOAST_MS,
  playScreenStationId,
  SECOND_MS,
  VIDEO_VIEW_HEIGHT_PERCENT,
  VIDEO_VIEW_ROTATION_DEG,
  type Camera,
  type AssistGaugeView,
  type CraneButton,
  type PlayView,
  type PrizeItem,
  type VipOutcome,
} from '../../domain';
import { useInjection } from '../di/container-context';
import { Toast } from '../layout/toast';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../hooks/use-scoped-use-case';
import { useHydrated } from '../hooks/use-hydrated';
import { useNow } from '../hooks/use-now';
import { MESSAGES } from '../messages';
import { NotFoundPage } from '../pages/not-found-page';
import { PlayMethodButton } from '../modals/document-links';
import { useStateModal } from '../modals/use-state-modal';
import { usePreloaded } from '../ssr/preload';

const priceText = (play: Pick<PlayView, 'currency' | 'price'>): string =>
  play.currency === 'ticket'
    ? MESSAGES.priceTicket
    : play.currency === 'free'
      ? MESSAGES.reserveFree
      : MESSAGES.priceTc(play.price);

/** The station id of /game/{stationId} or of a play path for this build target; null when it is not one. */
function useStationId(): number | null {
  const { stationId } = useParams();
  const { pathname } = useLocation();
  const { target } = useInjection(TOKENS.AppConfig);
  return playScreenStationId(target, stationId, pathname);
}

/** /play/{tag...}/{stationId} and /game/{stationId} (§2.1): a station's play screen. */
export function PlayPage() {
  const stationId = useStationId();
  if (stationId === null) return <NotFoundPage />;
  return <StationPlayScreen key={stationId} stationId={stationId} />;
}

function StationPlayScreen({ stationId }: { stationId: number }) {
  const preloaded = usePreloaded<StationSnapshot>();
  const screen = useScopedUseCase(TOKENS.StationPlay, (p) => preloaded?.stationId === stationId && p.adopt(preloaded));
  const state = useObservableState(screen.state$, screen.snapshot);
  const line = useObservableState(screen.line.state$, screen.line.snapshot);
  const run = useObservableState(screen.play.state$, screen.play.snapshot);
  const messages = useObservableState(screen.messages.state$, screen.messages.snapshot);
  const { busy } = useObservableState(screen.lane.state$, screen.lane.snapshot);

  useEffect(() => {
    void screen.open(stationId);
  }, [screen, stationId]);

  // The refresh rate follows the page's visibility [R9-8].
  useEffect(() => {
    const onVisibility = () => screen.feed.setBrowsing(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [screen]);

  // The in-page notice disappears after 3.5 s [R2.5-6].
  useEffect(() => {
    if (!messages.notice) return undefined;
    const timer = setTimeout(() => screen.messages.dismissNotice(), NOTICE_TOAST_MS);
    return () => clearTimeout(timer);
  }, [screen, messages.notice]);

  const station = state.station;
  const myPlay = run.play;
  return (
    <div className="play-screen" data-testid="play-screen" data-station-id={stationId}>
      <header className="play-screen__head">
        <h1 className="play-screen__title">{station?.prize_name ?? MESSAGES.playScreen}</h1>
        <p className="play-screen__meta">
          <span data-testid="viewers">{MESSAGES.viewers(line.viewers)}</span>
          <span>{MESSAGES.lineLength(line.lineLength)}</span>
          {myPlay ? <span>{MESSAGES.armStrength(myPlay.arm_strength)}</span> : null}
        </p>
        <PlayMethodButton />
      </header>
      {/* The guide gives way once the player's own play starts: it would push the controls down. */}
      {myPlay ? null : <Tutorial name="tutorial_play" />}
      <div className="play-screen__grid">
        <section className="play-screen__stage">
          <LiveCameras screen={screen} latencyMs={run.latencyMs} posters={state.posters} />
          <MachineStatus run={run} />
          <CraneButtons crane={screen.play} run={run} />
        </section>
        <aside className="play-screen__side">
          <ReservationPanel screen={screen} station={station} line={line} run={run} busy={busy} />
          <AssistGauge record={screen.record} />
          <Settings settings={screen.settings} />
          <PlayHistory record={screen.record} signedIn={state.signedIn} />
        </aside>
      </div>
      <Dialogs
        popup={messages.popup}
        alert={messages.alert}
        onDismissPopup={() => screen.messages.dismissPopup()}
        onDismissAlert={() => screen.messages.dismissAlert()}
      />
      {messages.notice ? <Toast title={messages.notice.title} message={messages.notice.message} /> : null}
    </div>
  );
}

/**
 * Both cameras with a front/side switch; stills in jpg mode, rotated videos in rtc mode [R9-10, R9-9].
 * It follows the feed itself: a new picture (ten a second in jpg mode) renders the cameras only, not
 * the whole play screen.
 */
function LiveCameras({
  screen,
  latencyMs,
  posters,
}: {
  screen: StationPlay;
  latencyMs: number | null;
  posters: Readonly<Record<Camera, string>> | null;
}) {
  const feed = useObservableState(screen.feed.state$, screen.feed.snapshot);
  const view = feed.stream.view;
  const labels: Record<Camera, string> = { front: MESSAGES.cameraFront, side: MESSAGES.cameraSide };
  // The camera filter is a style attribute: set in the browser only (the CSP blocks it in server markup).
  const hydrated = useHydrated();
  return (
    <div className="cameras">
      <div className="cameras__frame" data-testid="camera" data-camera={view}>
        {(['front', 'side'] as const).map((camera) => {
          const c = feed.cameras[camera];
          return (
            <div
              key={camera}
              className="cameras__layer"
              hidden={camera !== view}
              style={hydrated ? { filter: c.filter.css } : undefined}
            >
              {c.video ? <VideoView stream={c.video} label={MESSAGES.cameraAlt(labels[camera])} /> : null}
              {c.still && c.stillVisible ? (
                <img
                  className="cameras__still"
                  src={c.still}
                  alt={MESSAGES.cameraAlt(labels[camera])}
                  width={480}
                  height={360}
                  data-tick={c.stillTick}
                />
              ) : null}
              {/* Until the feed shows, the camera's latest picture (in the server's page too: the page's
                  lead picture, issue 27), else a line saying it is connecting. */}
              {c.still || c.video ? null : posters && camera === view ? (
                <img
                  className="cameras__still"
                  src={posters[camera]}
                  alt={MESSAGES.cameraAlt(labels[camera])}
                  width={480}
                  height={360}
                  fetchPriority="high"
                  data-testid="camera-poster"
                />
              ) : (
                <p className="cameras__loading">{MESSAGES.feedConnecting}</p>
              )}
            </div>
          );
        })}
        <span className="cameras__mode" data-testid="feed-mode" data-mode={feed.stream.type}>
          {feed.stream.type === 'rtc' ? MESSAGES.feedModeRtc : MESSAGES.feedModeJpg}
        </span>
        <span className="cameras__latency" data-testid="latency">
          {latencyMs === null ? MESSAGES.latencyPending : MESSAGES.latency(latencyMs)}
        </span>
      </div>
      {feed.stream.isSignalingError ? (
        <p className="cameras__fallback" data-testid="feed-fallback">
          {MESSAGES.feedFallback}
        </p>
      ) : null}
      <div className="cameras__controls">
        <div className="cameras__switch" role="group" aria-label={MESSAGES.cameraSwitch}>
          {(['front', 'side'] as const).map((camera) => (
            <button
              key={camera}
              type="button"
              className="chip"
              aria-pressed={view === camera}
              onClick={() => screen.feed.switchView(camera)}
            >
              {labels[camera]}
            </button>
          ))}
        </div>
        <div className="cameras__switch" role="group" aria-label={MESSAGES.feedModeSwitch}>
          <button
            type="button"
            className="chip"
            data-testid="mode-rtc"
            aria-pressed={feed.stream.type === 'rtc'}
            onClick={() => screen.switchFeedMode('rtc')}
          >
            {MESSAGES.feedModeRtcShort}
          </button>
          <button
            type="button"
            className="chip"
            data-testid="mode-jpg"
            aria-pressed={feed.stream.type === 'jpg'}
            onClick={() => screen.switchFeedMode('jpg')}
          >
            {MESSAGES.feedModeJpgShort}
          </button>
        </div>
      </div>
    </div>
  );
}

/** An rtc video: 75% height, rotated 90 degrees [R9-10], no audio. */
function VideoView({ stream, label }: { stream: unknown; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.srcObject = stream as MediaStream;
  }, [stream]);
  return (
    <video
      ref={ref}
      className="cameras__video"
      aria-label={label}
      autoPlay
      muted
      playsInline
      style={{ height: `${VIDEO_VIEW_HEIGHT_PERCENT}%`, transform: `rotate(${VIDEO_VIEW_ROTATION_DEG}deg)` }}
    />
  );
}

function MachineStatus({ run }: { run: CranePlayState }) {
  const play = run.play;
  const now = useNow(play?.phase === 'playing');
  let text: ReactNode = null;
  if (play?.phase === 'resetting') text = MESSAGES.resetting;
  else if (play?.phase === 'playing') {
    const grace = countdownSeconds(play.grace_ms_left, run.receivedAt, now);
    if (grace !== null) text = MESSAGES.away(grace);
    else if (play.machine.button === null) text = MESSAGES.dropping;
    else {
      const s = countdownSeconds(play.machine.button_ms_left, run.receivedAt, now);
      text = s === null ? MESSAGES.buttonHint : MESSAGES.buttonCountdown(s);
    }
  } else if (!play && run.othersPlaying) text = MESSAGES.othersPlaying;
  return text ? (
    <p className="machine-status" role="status" data-testid="machine-status">
      {text}
    </p>
  ) : null;
}

/** The two buttons, held by touch, mouse or keyboard (→ / ↑ keys, or Space on the focused button). */
function CraneButtons({ crane: play, run }: { crane: CranePlay; run: CranePlayState }) {
  const mine = run.play?.phase === 'playing' ? run.play : null;
  const usable = mine && run.machine ? run.machine.button : null;
  const modals = useInjection(TOKENS.ModalStack);
  useEffect(() => {
    if (!mine) return undefined;
    const keyOf = (e: KeyboardEvent): CraneButton | null =>
      e.key === 'ArrowRight' ? 'right' : e.key === 'ArrowUp' ? 'back' : null;
    const down = (e: KeyboardEvent) => {
      const button = keyOf(e);
      // While a modal is open the arrow keys belong to it (scrolling, its own controls), not the crane.
      if (!button || modals.depth > 0) return;
      e.preventDefault();
      if (!e.repeat) play.press(button);
    };
    const up = (e: KeyboardEvent) => {
      const button = keyOf(e);
      if (!button) return;
      e.preventDefault();
      play.release(button);
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, [play, mine, modals]);
  if (!mine) return null;
  return (
    <div className="crane-buttons" data-testid="crane-buttons">
      <HoldButton button="right" label={MESSAGES.buttonRight} enabled={usable === 'right'} play={play} />
      <HoldButton button="back" label={MESSAGES.buttonBack} enabled={usable === 'back'} play={play} />
    </div>
  );
}

function HoldButton({
  button,
  label,
  enabled,
  play,
}: {
  button: CraneButton;
  label: string;
  enabled: boolean;
  play: CranePlay;
}) {
  const [held, setHeld] = useState(false);
  const press = () => {
    if (!enabled) return;
    setHeld(true);
    play.press(button);
  };
  const release = () => {
    if (!held) return;
    setHeld(false);
    play.release(button);
  };
  return (
    <button
      type="button"
      className={`crane-button crane-button--${button}`}
      data-testid={`button-${button}`}
      data-held={held}
      disabled={!enabled && !held}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture?.(e.pointerId);
        press();
      }}
      onPointerUp={release}
      onPointerCancel={release}
      onLostPointerCapture={release}
      onKeyDown={(e) => {
        if ((e.key === ' ' || e.key === 'Enter') && !e.repeat) {
          e.preventDefault();
          press();
        }
      }}
      onKeyUp={(e) => {
        if (e.key === ' ' || e.key === 'Enter') release();
      }}
      onContextMenu={(e) => e.preventDefault()}
    >
      {label}
    </button>
  );
}

function ReservationPanel({
  screen,
  station,
  line,
  run,
  busy,
}: {
  screen: StationPlay;
  station: PrizeItem | null;
  line: StationLineState;
  run: CranePlayState;
  busy: boolean;
}) {
  const mine = run.play;
  const r = line.reservation;
  const now = useNow(mine?.phase === 'result' || (!mine && r?.status === 'playTransition'));
  if (mine && mine.phase === 'result') {
    const s = countdownSeconds(mine.window_ms_left, run.receivedAt, now) ?? 0;
    const price = priceText(mine);
    return (
      <section className="panel panel--result" data-testid="result" data-result={mine.result}>
        <p className="panel__headline">
          {mine.result === 'win'
            ? mine.won_prize_name
              ? MESSAGES.resultWin(mine.won_prize_name)
              : MESSAGES.resultWinPractice
            : mine.result === 'refunded'
              ? MESSAGES.resultRefunded
              : MESSAGES.resultMiss}
        </p>
        <p>{MESSAGES.continueWithin(s)}</p>
        <div className="panel__actions">
          <button
            type="button"
            className="button"
            data-testid="continue"
            disabled={busy || s === 0}
            onClick={() => void screen.play.continuePlay()}
          >
            {MESSAGES.continuePlay(price)}
          </button>
          <button
            type="button"
            className="button button--quiet"
            data-testid="finish"
            disabled={busy}
            onClick={() => void screen.play.finish()}
          >
            {MESSAGES.finishPlay}
          </button>
        </div>
      </section>
    );
  }
  if (mine) return null;
  if (r?.status === 'playTransition') {
    const s = countdownSeconds(r.secondsLeft * SECOND_MS, line.receivedAt, now);
    return (
      <section className="panel panel--turn" data-testid="your-turn">
        <p className="panel__headline">{MESSAGES.yourTurn}</p>
        <p>{MESSAGES.confirmWithin(s)}</p>
        <div className="panel__actions">
          <button
            type="button"
            className="button button--big"
            data-testid="confirm"
            disabled={busy}
            onClick={() => void screen.play.confirm()}
          >
            {MESSAGES.startPlay}
          </button>
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => void screen.line.cancel()}
          >
            {MESSAGES.cancelReservation}
          </button>
        </div>
      </section>
    );
  }
  if (r) {
    return (
      <section className="panel" data-testid="in-line" data-place={r.place}>
        <p className="panel__headline">{MESSAGES.placeInLine(r.place)}</p>
        <p>{MESSAGES.estimatedWait(r.estimatedWaitSeconds)}</p>
        <button
          type="button"
          className="button button--quiet"
          disabled={busy}
          onClick={() => void screen.line.cancel()}
        >
          {MESSAGES.cancelReservation}
        </button>
      </section>
    );
  }
  const maintenance = station ? isMaintenanceStatus(station.station_status) : false;
  const label =
    station?.designated_type === 'practice'
      ? MESSAGES.reserveFree
      : station?.designated_type === 'point_ticket'
        ? MESSAGES.reserve(MESSAGES.priceTicket)
        : MESSAGES.reserve(MESSAGES.priceTc(station?.play_price ?? 0));
  return (
    <section className="panel">
      {maintenance ? <p className="panel__note">{MESSAGES.stationStatusMaintenance}</p> : null}
      <button
        type="button"
        className="button button--big"
        data-testid="reserve"
        disabled={busy || !station || maintenance}
        onClick={() => void screen.line.reserve()}
      >
        {label}
      </button>
    </section>
  );
}

/** The assist gauge, with the steps it raises the arm by (published, docs/play.md). */
function AssistGauge({ record }: { record: PlayRecord }) {
  const g: AssistGaugeView | null = useObservableState(record.state$, record.snapshot).gauge;
  if (!g) return null;
  return (
    <section className="panel gauge" data-testid="gauge" data-level={g.level}>
      <h2 className="panel__title">
        {MESSAGES.gaugeTitle} <span className="gauge__level">{MESSAGES.gaugeLevel(g.level)}</span>
      </h2>
      <div
        className="gauge__bar"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(g.fill * 100)}
        aria-label={MESSAGES.gaugeTitle}
      >
        <span style={{ width: `${Math.round(g.fill * 100)}%` }} />
      </div>
      <p className="gauge__text">
        {MESSAGES.gaugeLine(
          MESSAGES.gaugeBonus(g.strength_bonus),
          g.misses_to_next_level > 0 ? MESSAGES.gaugeNext(g.misses_to_next_level) : MESSAGES.gaugeFull,
        )}
      </p>
      <p className="panel__note">{MESSAGES.gaugeHelp}</p>
    </section>
  );
}

function Settings({ settings }: { settings: PlayerSettings }) {
  const state = useObservableState(settings.state$, settings.snapshot);
  return (
    <section className="panel settings">
      <label className="switch">
        <input type="checkbox" checked={state.sound} onChange={(e) => void settings.setSound(e.target.checked)} />
        <span>{MESSAGES.sound}</span>
      </label>
      <label className="switch">
        <input
          type="checkbox"
          checked={state.hideCharacter}
          onChange={(e) => void settings.setHideCharacter(e.target.checked)}
        />
        <span>{MESSAGES.hideCharacter}</span>
      </label>
    </section>
  );
}

function PlayHistory({ record, signedIn }: { record: PlayRecord; signedIn: boolean }) {
  const state = useObservableState(record.state$, record.snapshot);
  if (!signedIn) return null;
  if (!state.history) {
    return (
      <section className="panel">
        <button
          type="button"
          className="button button--quiet"
          data-testid="show-history"
          onClick={() => record.loadHistory()}
        >
          {MESSAGES.historyShow}
        </button>
      </section>
    );
  }
  return (
    <section className="panel history" data-testid="history">
      <h2 className="panel__title">{MESSAGES.historyTitle}</h2>
      {state.history.list.length === 0 ? (
        <p className="panel__note">{MESSAGES.historyEmpty}</p>
      ) : (
        <ol className="history__list">
          {state.history.list.map((entry) => (
            <li key={entry.play_id} className="history__row" data-result={entry.result ?? ''}>
              <span className={`history__result history__result--${entry.result ?? 'none'}`}>
                {MESSAGES.historyResult[entry.result ?? ''] ?? '—'}
              </span>
              <span className="history__name">{entry.prize_name}</span>
              <span className="history__detail">
                {MESSAGES.historyRow(priceText(entry), entry.arm_strength, entry.assist_level, entry.seed)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * The alerts (cancelled, maintenance, reload error, refusals, sign in) and the VIP popups
 * (569/570/571), as registry modals following the screen's messages; a popup comes first.
 */
function Dialogs({
  popup,
  alert,
  onDismissPopup,
  onDismissAlert,
}: {
  popup: VipOutcome | null;
  alert: PlayAlert | null;
  onDismissPopup: () => void;
  onDismissAlert: () => void;
}) {
  const popupProps = useMemo(
    () => (popup ? { title: popup.title, message: popup.text, button: popup.button.label, testId: 'dialog' } : null),
    [popup],
  );
  const alertProps = useMemo(
    () =>
      alert && !popup
        ? {
            message: alert.message,
            testId: 'dialog',
            signIn: alert.kind === 'signIn',
            buyTc: alert.kind === 'needTc',
          }
        : null,
    [alert, popup],
  );
  useStateModal('alert', popupProps, onDismissPopup);
  useStateModal('alert', alertProps, onDismissAlert);
  return null;
}

export default PlayPage;
