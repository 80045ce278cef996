import type { CranePlay, CranePlayState, StationLine, StationLineState, StationPlay } from '../../application';
import {
  countdownSeconds,
  DOMAIN_MESSAGES,
  isMaintenanceStatus,
  SECOND_MS,
  STAFF_ASSIST_OUTCOME_LABELS,
  type PlayView,
  type PrizeItem,
  type StaffAssistView,
} from '../../domain';
import { useNow } from '../hooks/use-now';
import { MESSAGES } from '../messages';
import { useModals } from '../modals/modal-host';
import { PLAY_SCREEN_MESSAGES } from './play-screen.messages';
import { useDailyFreePlay } from '../account/use-current-user';

/**
 * The player's side of the line: reserve, the place in line, the turn with its confirm countdown,
 * and after a play its result with continue (within the window) or finish. Nothing while the
 * player's own play runs.
 */
export function TurnPanel({
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
  if (mine?.phase === 'result')
    return <ResultPanel crane={screen.play} play={mine} receivedAt={run.receivedAt} busy={busy} />;
  if (mine) return null;
  if (r?.status === 'playTransition') {
    return (
      <YourTurnPanel screen={screen} msLeft={r.secondsLeft * SECOND_MS} receivedAt={line.receivedAt} busy={busy} />
    );
  }
  if (r) return <InLinePanel line={screen.line} place={r.place} waitSeconds={r.estimatedWaitSeconds} busy={busy} />;
  return <ReservePanel line={screen.line} station={station} busy={busy} />;
}

/** A play's result, with continue while its window lasts and finish. */
function ResultPanel({
  crane,
  play,
  receivedAt,
  busy,
}: {
  crane: CranePlay;
  play: PlayView;
  receivedAt: number;
  busy: boolean;
}) {
  const now = useNow(true);
  const { open } = useModals();
  const s = countdownSeconds(play.window_ms_left, receivedAt, now) ?? 0;
  const held = play.staff_assist?.state === 'asked';
  return (
    <section className="panel panel--result" data-testid="result" data-result={play.result}>
      <p className="panel__headline">
        {play.result === 'win'
          ? play.won_prize_name
            ? MESSAGES.resultWin(play.won_prize_name)
            : MESSAGES.resultWinPractice
          : play.result === 'refunded'
            ? MESSAGES.resultRefunded
            : MESSAGES.resultMiss}
      </p>
      {held ? null : <p>{MESSAGES.continueWithin(s)}</p>}
      {play.staff_assist ? (
        <StaffAssistBox crane={crane} assist={play.staff_assist} secondsLeft={s} busy={busy} />
      ) : null}
      <div className="panel__actions">
        <button
          type="button"
          className="button"
          data-testid="continue"
          disabled={busy || s === 0 || held}
          onClick={() => void crane.continuePlay()}
        >
          {MESSAGES.continuePlay(MESSAGES.priceOfPlay(play))}
        </button>
        <button
          type="button"
          className="button button--quiet"
          data-testid="finish"
          disabled={busy}
          onClick={() => void crane.finish()}
        >
          {MESSAGES.finishPlay}
        </button>
      </div>
      {/* The play's video (issue 44) [R11-5]: ready a few seconds after the result; the modal waits for it. */}
      <button
        type="button"
        className="button button--quiet panel__clip"
        data-testid="result-clip"
        onClick={() => open('playClip', { playId: play.play_id })}
      >
        {PLAY_SCREEN_MESSAGES.resultClip}
      </button>
    </section>
  );
}

/**
 * Staff assist in the result [R11-9]: how many misses in a row count toward it, the way to ask once
 * they are enough, the hold while the staff work (the live picture shows them), and how it ended.
 */
function StaffAssistBox({
  crane,
  assist,
  secondsLeft,
  busy,
}: {
  crane: CranePlay;
  assist: StaffAssistView;
  secondsLeft: number;
  busy: boolean;
}) {
  return (
    <div
      className={`staff-assist staff-assist--${assist.state}`}
      data-testid="staff-assist"
      data-state={assist.state}
      data-outcome={assist.outcome ?? ''}
    >
      <p className="staff-assist__title">{MESSAGES.staffAssistTitle}</p>
      {assist.outcome ? (
        <p className="staff-assist__outcome" role="status">
          {STAFF_ASSIST_OUTCOME_LABELS[assist.outcome]}
        </p>
      ) : null}
      {assist.state === 'counting' ? (
        <p className="staff-assist__text">{MESSAGES.staffAssistCounting(assist.misses, assist.needed)}</p>
      ) : null}
      {assist.state === 'available' ? (
        <>
          <p className="staff-assist__text">{MESSAGES.staffAssistAvailable(assist.misses)}</p>
          <button
            type="button"
            className="button"
            data-testid="staff-assist-ask"
            disabled={busy || secondsLeft === 0}
            onClick={() => void crane.askAssist()}
          >
            {MESSAGES.staffAssistAsk}
          </button>
        </>
      ) : null}
      {assist.state === 'asked' ? (
        <p className="staff-assist__text" role="status">
          {MESSAGES.staffAssistAsked(DOMAIN_MESSAGES.minutesSeconds(secondsLeft))}
        </p>
      ) : null}
    </div>
  );
}

/** The player's turn: start the play within the confirm window, or give the place up. */
function YourTurnPanel({
  screen,
  msLeft,
  receivedAt,
  busy,
}: {
  screen: StationPlay;
  msLeft: number;
  receivedAt: number;
  busy: boolean;
}) {
  const now = useNow(true);
  const s = countdownSeconds(msLeft, receivedAt, now);
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
        <CancelButton line={screen.line} busy={busy} />
      </div>
    </section>
  );
}

/** A place in line with its estimated wait. */
function InLinePanel({
  line,
  place,
  waitSeconds,
  busy,
}: {
  line: StationLine;
  place: number;
  waitSeconds: number;
  busy: boolean;
}) {
  return (
    <section className="panel" data-testid="in-line" data-place={place}>
      <p className="panel__headline">{MESSAGES.placeInLine(place)}</p>
      <p>{MESSAGES.estimatedWait(waitSeconds)}</p>
      <CancelButton line={line} busy={busy} />
    </section>
  );
}

function CancelButton({ line, busy }: { line: StationLine; busy: boolean }) {
  return (
    <button type="button" className="button button--quiet" disabled={busy} onClick={() => void line.cancel()}>
      {MESSAGES.cancelReservation}
    </button>
  );
}

/** Not in line: the reserve button with the station's price, held back while the station is under maintenance. */
function ReservePanel({ line, station, busy }: { line: StationLine; station: PrizeItem | null; busy: boolean }) {
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
      {station?.designated_type === 'point_ticket' ? <DailyFreePlayStationNote /> : null}
      <button
        type="button"
        className="button button--big"
        data-testid="reserve"
        disabled={busy || !station || maintenance}
        onClick={() => void line.reserve()}
      >
        {label}
      </button>
    </section>
  );
}

/** A ticket station's note of the day's free play: usable now, or used today [R11-8]. */
function DailyFreePlayStationNote() {
  const free = useDailyFreePlay();
  if (!free) return null;
  return (
    <p className="panel__note daily-free__note" data-testid="daily-free-station" data-available={free.available}>
      {free.available === 1 ? MESSAGES.dailyFreeAtStation : MESSAGES.dailyFreeUsed}
    </p>
  );
}
