import type { PlayRecord } from '../../application';
import type { AssistGaugeView } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import { priceText } from './price-text';
import { ClipLink } from '../clips/clip-link';
import { useModals } from '../modals/modal-host';

/** The assist gauge, with the steps it raises the arm by (published, docs/play.md). */
export function AssistGauge({ record }: { record: PlayRecord }) {
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

/** The signed-in player's plays on this station, loaded when asked for. */
export function PlayHistory({ record, signedIn }: { record: PlayRecord; signedIn: boolean }) {
  const state = useObservableState(record.state$, record.snapshot);
  const { open } = useModals();
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
                {MESSAGES.historyRow(priceText(entry), entry.arm_strength, entry.assist_level, entry.seed)}{' '}
                <ClipLink
                  clip={entry.clip}
                  label={entry.prize_name}
                  onOpen={() => open('playClip', { playId: entry.play_id })}
                />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
