import { lazy, Suspense } from 'react';
import type { PlayRecord } from '../../application';
import type { AssistGaugeView } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';

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

/**
 * The list's code (its rows and their links to the plays' videos): fetched when the player asks for
 * the history, beside the history's own call, not with the play screen.
 */
const loadHistoryList = () => import('./play-history-list');
const HistoryList = lazy(loadHistoryList);

/** The signed-in player's plays on this station, loaded when asked for. */
export function PlayHistory({ record, signedIn }: { record: PlayRecord; signedIn: boolean }) {
  const state = useObservableState(record.state$, record.snapshot);
  if (!signedIn) return null;
  if (!state.history) {
    return (
      <section className="panel">
        <button
          type="button"
          className="button button--quiet"
          data-testid="show-history"
          onClick={() => {
            void loadHistoryList();
            record.loadHistory();
          }}
        >
          {MESSAGES.historyShow}
        </button>
      </section>
    );
  }
  return (
    <section className="panel history" data-testid="history">
      <h2 className="panel__title">{MESSAGES.historyTitle}</h2>
      <Suspense fallback={null}>
        <HistoryList list={state.history.list} />
      </Suspense>
    </section>
  );
}
