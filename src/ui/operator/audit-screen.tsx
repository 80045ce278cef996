import { useEffect, useState, type FormEvent } from 'react';
import { OPERATOR_TOKENS } from '../../application/operator';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { LoadState, useScreenTitle } from './common';
import { OP } from './operator.messages';

const A = OP.audit;

/** A logged value in one line (the before / after of a change, the call's target). */
function brief(value: unknown): string {
  if (value === undefined || value === null) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** 監査ログ (admin only): every operator action, newest first, filtered by operator. */
export function AuditScreen() {
  useScreenTitle(A.title);
  const audit = useScopedUseCase(OPERATOR_TOKENS.OperatorAudit);
  const state = useObservableState(audit.state$, audit.snapshot);
  const [login, setLogin] = useState('');
  useEffect(() => void audit.read(), [audit]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void audit.read(login);
  };
  const { rows } = state.data;
  return (
    <section aria-labelledby="op-audit-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-audit-title">{A.title}</h1>
        <button type="button" className="op-button" onClick={() => void audit.read(state.data.login)}>
          {OP.reload}
        </button>
      </div>
      <form className="op-inline-form" onSubmit={submit}>
        <label className="op-field">
          <span>{A.operator}</span>
          <input value={login} autoComplete="off" onChange={(e) => setLogin(e.target.value)} />
        </label>
        <button type="submit" className="op-button op-button--primary">
          {A.filter}
        </button>
        <button
          type="button"
          className="op-button"
          onClick={() => {
            setLogin('');
            void audit.read('');
          }}
        >
          {A.clear}
        </button>
      </form>
      {state.status !== 'ready' ? <LoadState state={state} onRetry={() => void audit.read(state.data.login)} /> : null}
      {state.status === 'ready' && rows.length === 0 ? <p>{OP.empty}</p> : null}
      {rows.length > 0 ? (
        <div className="op-table-wrap" tabIndex={0} role="region" aria-label={A.table}>
          <table className="op-table op-table--stack" data-testid="op-audit">
            <thead>
              <tr>
                <th scope="col">{A.at}</th>
                <th scope="col">{A.who}</th>
                <th scope="col">{A.action}</th>
                <th scope="col">{A.target}</th>
                <th scope="col">{A.change}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.audit_id} data-testid="op-audit-row">
                  <td data-label={A.at}>{OP.at(r.at)}</td>
                  <td data-label={A.who}>{r.operator_login}</td>
                  <th scope="row" data-label={A.action}>
                    {r.action}
                  </th>
                  <td className="op-code" data-label={A.target}>
                    {brief(r.target)}
                  </td>
                  <td className="op-code" data-label={A.change}>
                    {brief(r.before)} → {brief(r.after)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
