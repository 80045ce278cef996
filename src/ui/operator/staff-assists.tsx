import type { FloorStation, OperatorFloor } from '../../application/operator';
import { OP } from './operator.messages';
import { useAsk } from './station-actions';
import { countdownSeconds } from '../../domain';
import { useNow } from '../hooks/use-now';
import { StationStill } from './station-still';

const A = OP.floor.assist;

/**
 * The staff assists waiting for an answer [R11-9], oldest first, each with its station's live
 * picture (the staff check where the prize lies before and after they move it), who asked after how
 * many misses, the time left of the hold, and the two answers.
 */
export function AssistQueue({
  stations,
  floor,
  readAt,
  busy,
}: {
  stations: readonly FloorStation[];
  floor: OperatorFloor;
  readAt: number;
  busy: boolean;
}) {
  const waiting = stations
    .filter((s): s is FloorStation & { assist: NonNullable<FloorStation['assist']> } => !!s.assist)
    .sort((a, b) => a.assist.asked_at.localeCompare(b.assist.asked_at));
  return (
    <section className="op-assists" aria-labelledby="op-assists-title" data-testid="op-assist-queue">
      <h2 id="op-assists-title" className="op-subtitle">
        {A.queueTitle(waiting.length)}
      </h2>
      {waiting.length === 0 ? (
        <p className="op-note">{A.queueEmpty}</p>
      ) : (
        <>
          <p className="op-note">{A.queueNote}</p>
          <ul className="op-cards">
            {waiting.map((s) => (
              <li key={s.station_id} className="op-card op-assist" data-testid="op-assist" data-station={s.station_id}>
                <h3 className="op-station__title">{A.station(s.station_id, s.station_name)}</h3>
                <StationStill url={s.still_url} name={s.station_name} />
                <AssistRequest station={s} floor={floor} readAt={readAt} busy={busy} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** One station's waiting assist: who asked, the hold's time left, done or decline (each confirmed). */
export function AssistRequest({
  station: s,
  floor,
  readAt,
  busy,
}: {
  station: FloorStation;
  floor: OperatorFloor;
  readAt: number;
  busy: boolean;
}) {
  const ask = useAsk();
  const a = s.assist;
  if (!a) return null;
  return (
    <div className="op-assist__request" data-testid="op-assist-request">
      <p>
        {A.line(A.request(a.nickname, a.user_id, a.misses), A.play(a.play_id))}
        <HoldTimer msLeft={a.ms_left} readAt={readAt} />
      </p>
      <div className="op-inline-form">
        <button
          type="button"
          className="op-button"
          data-testid="op-assist-done"
          disabled={busy}
          onClick={() =>
            void ask(A.confirmDone(s.station_id, a.nickname), () => floor.answerAssist(s.station_id, a.play_id, 'done'))
          }
        >
          {A.done}
          <span className="op-visually-hidden">{A.whose(a.nickname)}</span>
        </button>
        <button
          type="button"
          className="op-button op-button--danger"
          data-testid="op-assist-decline"
          disabled={busy}
          onClick={() =>
            void ask(
              A.confirmDecline(s.station_id, a.nickname),
              () => floor.answerAssist(s.station_id, a.play_id, 'declined'),
              true,
            )
          }
        >
          {A.decline}
          <span className="op-visually-hidden">{A.whose(a.nickname)}</span>
        </button>
      </div>
    </div>
  );
}

/** The hold's time left, in minutes and seconds, counting down from the floor's read. */
function HoldTimer({ msLeft, readAt }: { msLeft: number; readAt: number }) {
  const now = useNow(true);
  return (
    <span className="op-timer" role="timer" aria-live="off">
      {A.left(countdownSeconds(msLeft, readAt, now))}
    </span>
  );
}
