import { useRef } from 'react';
import { TOKENS } from '../../application';
import {
  formatJstDateTime,
  SETTINGS_CHANGE_REASON_LABELS,
  settingChangeText,
  STAFF_ASSIST_OUTCOME_LABELS,
} from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { SETTINGS_HISTORY_MESSAGES as M } from './settings-history.messages';

/**
 * A station's published settings history [R11-6]: each version with when it came into force, why,
 * and what changed (before → after), newest first. Open to anyone, signed in or not.
 */
export default function SettingsHistoryModal({ props, close }: ModalComponentProps<{ readonly stationId: number }>) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'settings-history-title');
  const history = useScopedUseCase(TOKENS.StationSettingsHistory, (h) => h.open(props.stationId));
  const state = useObservableState(history.state$, history.snapshot);
  return (
    <div
      ref={ref}
      className="modal__body modal__body--scroll settings-history"
      data-testid="settings-history"
      data-state={state.kind}
    >
      <h2 id="settings-history-title" className="dialog__title">
        {M.title}
      </h2>
      <p className="settings-history__lead">{M.lead}</p>
      {state.kind === 'loading' ? <p role="status">{M.loading}</p> : null}
      {state.kind === 'error' ? <p role="alert">{state.message}</p> : null}
      {state.kind === 'loaded' && state.list.length === 0 ? (
        <p data-testid="settings-history-empty">{M.empty}</p>
      ) : null}
      {state.kind === 'loaded' && state.list.length > 0 ? (
        <ol className="settings-history__list">
          {state.list.map((v) => (
            <li
              key={v.version}
              className="settings-history__item"
              data-testid="settings-version"
              data-version={v.version}
            >
              <div className="settings-history__head">
                <strong>{M.version(v.version)}</strong>
                {v.version === state.currentVersion ? <span className="chip chip--small">{M.current}</span> : null}
                <time dateTime={v.applied_at}>{formatJstDateTime(Date.parse(v.applied_at))}</time>
              </div>
              <ul className="settings-history__changes">
                {v.changes.map((c) => (
                  <li key={c.field}>{settingChangeText(c)}</li>
                ))}
              </ul>
              <small>{M.reason(SETTINGS_CHANGE_REASON_LABELS[v.reason])}</small>
            </li>
          ))}
        </ol>
      ) : null}
      {state.kind === 'loaded' && state.assists.length > 0 ? (
        <section className="settings-history__assists" aria-labelledby="settings-history-assists">
          <h3 id="settings-history-assists" className="settings-history__subtitle">
            {M.assistsTitle}
          </h3>
          <p className="settings-history__lead">{M.assistsLead}</p>
          <ol className="settings-history__list">
            {state.assists.map((a) => (
              <li
                key={a.asked_at}
                className="settings-history__item"
                data-testid="settings-assist"
                data-outcome={a.outcome}
              >
                <div className="settings-history__head">
                  <strong>{STAFF_ASSIST_OUTCOME_LABELS[a.outcome]}</strong>
                  <time dateTime={a.ended_at}>{formatJstDateTime(Date.parse(a.ended_at))}</time>
                </div>
                <small>{M.assistAfter(a.misses)}</small>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {state.kind === 'loaded' && state.hasMore ? (
        <button type="button" className="button button--quiet" disabled={state.more} onClick={() => history.loadMore()}>
          {M.more}
        </button>
      ) : null}
      <button type="button" className="button button--quiet" onClick={close}>
        {M.close}
      </button>
    </div>
  );
}
