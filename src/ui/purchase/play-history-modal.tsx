import { useEffect, useRef } from 'react';
import { TOKENS } from '../../application';
import { formatJstDateTime, formatThousands } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../hooks/use-scoped-use-case';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { HISTORY_MESSAGES as H } from './purchase.messages';
import { PlaySettingsLog } from './play-settings-log';

/** The play history: each finished play (station, prize, time, result, charge) with its settings log. */
export default function PlayHistoryModal(_: ModalComponentProps<Record<never, never>>) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'play-history-title');
  const history = useScopedUseCase(TOKENS.PlayHistory);
  const state = useObservableState(history.state$, history.snapshot);
  useEffect(() => void history.start(), [history]);
  return (
    <div ref={ref} className="modal__body history" data-testid="play-history">
      <h2 id="play-history-title" className="dialog__title">
        {H.playTitle}
      </h2>
      {state.entries.length === 0 && !state.loading && state.page > 0 ? <p>{H.playEmpty}</p> : null}
      <ul className="history__list">
        {state.entries.map((p) => (
          <li key={p.play_id} className="history__play" data-result={p.result ?? ''}>
            <div>
              <strong>{p.prize_name}</strong>
              <small>{H.stationAt(p.station_id, formatJstDateTime(Date.parse(p.started_at)))}</small>
            </div>
            <div className="history__play-side">
              <span className={`chip chip--small history__result--${p.result ?? ''}`}>
                {p.result ? (H.result[p.result] ?? '') : ''}
              </span>
              <span>{p.currency === 'free' ? H.free : H.charge(formatThousands(p.price), p.currency)}</span>
            </div>
            <PlaySettingsLog entry={p} />
          </li>
        ))}
      </ul>
      {state.loading ? <p role="status">{MESSAGES.loading}</p> : null}
      {state.error ? <p role="alert">{state.error}</p> : null}
      {state.hasMore && !state.loading ? (
        <button type="button" className="button button--secondary" onClick={() => void history.more()}>
          {H.more}
        </button>
      ) : null}
    </div>
  );
}
