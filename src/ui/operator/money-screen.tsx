import { useEffect, useState, type FormEvent } from 'react';
import { OPERATOR_TOKENS, type ReconciliationReportView } from '../../application/operator';
import { formatJstDateTime, jstIsoDate } from '../../domain';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { LoadState, useScreenTitle } from './common';
import { OP } from './operator.messages';

const M = OP.money;
const DAY_MS = 86_400_000;

/** Two numbers side by side; marked when they differ. */
function Pair({ ours, theirs }: { ours: string | number; theirs: string | number }) {
  const differ = String(ours) !== String(theirs);
  const shown = (value: string | number) => (typeof value === 'number' ? value.toLocaleString('ja-JP') : value);
  return (
    <>
      <td>{shown(ours)}</td>
      <td data-differ={differ ? 1 : 0} className={differ ? 'op-money__differ' : undefined}>
        {shown(theirs)}
      </td>
    </>
  );
}

function SideBySide({ report }: { report: ReconciliationReportView }) {
  const { settlements: s, provider: p, ledger: l, deliveries: d } = report;
  return (
    <div className="op-table-wrap" tabIndex={0} role="region" aria-labelledby="op-money-caption">
      <table className="op-table" data-testid="op-money-sources">
        <caption id="op-money-caption">{M.sideBySide(report.day)}</caption>
        <thead>
          <tr>
            <th scope="col">{M.source}</th>
            <th scope="col">{M.ours}</th>
            <th scope="col">{M.theirs}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">
              {M.sales} / {M.providerPaid}
            </th>
            <Pair ours={M.countYen(s.completed.count, s.completed.yen)} theirs={M.countYen(p.paid.count, p.paid.yen)} />
          </tr>
          <tr>
            <th scope="row">{M.tollTc}</th>
            <Pair ours={s.completed.tollTc} theirs={l.purchaseTollTc} />
          </tr>
          <tr>
            <th scope="row">{M.freeTc}</th>
            <Pair ours={s.completed.freeTc} theirs={l.purchaseFreeTc} />
          </tr>
          <tr>
            <th scope="row">{M.tickets}</th>
            <Pair ours={s.completed.tickets} theirs={l.purchaseTickets} />
          </tr>
          <tr>
            <th scope="row">{M.fees}</th>
            <Pair ours={d.feeTc} theirs={l.deliveryFeeTc} />
          </tr>
          <tr>
            <th scope="row">{M.opened}</th>
            <td colSpan={2}>
              {s.opened} / {s.failed} / {s.cancelled}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** お金の照合: a day's money from each source side by side, and every mismatch (admins). */
export function MoneyScreen() {
  useScreenTitle(M.title);
  const clock = useInjection(OPERATOR_TOKENS.ClockPort);
  const money = useScopedUseCase(OPERATOR_TOKENS.OperatorMoney);
  const state = useObservableState(money.state$, money.snapshot);
  const [day, setDay] = useState(() => jstIsoDate(clock.now() - DAY_MS));
  useEffect(() => void money.read(day), [money]); // eslint-disable-line react-hooks/exhaustive-deps -- the first day only
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void money.read(day);
  };
  const view = state.data;
  const report = view?.report ?? null;
  return (
    <section aria-labelledby="op-money-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-money-title">{M.title}</h1>
      </div>
      <form className="op-inline-form" onSubmit={submit}>
        <label className="op-field">
          <span>{M.day}</span>
          <input
            type="date"
            required
            value={day}
            max={jstIsoDate(clock.now())}
            onChange={(e) => setDay(e.target.value)}
          />
        </label>
        <button type="submit" className="op-button op-button--primary">
          {M.show}
        </button>
        <button type="button" className="op-button" data-testid="op-money-run" onClick={() => void money.runAgain(day)}>
          {M.runAgain}
        </button>
      </form>
      {state.status !== 'ready' ? <LoadState state={state} onRetry={() => void money.read(day)} /> : null}
      {view && view.ranAt ? (
        <p data-testid="op-money-ran-at">{M.ranAt(formatJstDateTime(Date.parse(view.ranAt)))}</p>
      ) : null}
      {view && !report && state.status === 'ready' ? <p>{M.never}</p> : null}
      {report ? <SideBySide report={report} /> : null}
      {report && report.mismatches.length === 0 ? (
        <p className="op-money__clear" data-testid="op-money-clear">
          {M.allClear}
        </p>
      ) : null}
      {report && report.mismatches.length > 0 ? (
        <div className="op-table-wrap" tabIndex={0} role="region" aria-labelledby="op-money-mismatches">
          <table className="op-table" data-testid="op-money-mismatches">
            <caption id="op-money-mismatches">{M.mismatches(report.mismatches.length)}</caption>
            <thead>
              <tr>
                <th scope="col">{M.kind}</th>
                <th scope="col">{M.reference}</th>
                <th scope="col">{M.user}</th>
                <th scope="col">{M.expected}</th>
                <th scope="col">{M.found}</th>
              </tr>
            </thead>
            <tbody>
              {report.mismatches.map((m) => (
                <tr key={`${m.kind}-${m.reference}-${m.unit}`} data-kind={m.kind}>
                  <th scope="row">{M.kinds[m.kind]}</th>
                  <td className="op-money__reference">{m.reference}</td>
                  <td>{m.userId ?? '—'}</td>
                  <td>
                    {m.expected.toLocaleString('ja-JP')}
                    {M.units[m.unit]}
                  </td>
                  <td>
                    {m.found.toLocaleString('ja-JP')}
                    {M.units[m.unit]}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {view && view.runs.length > 0 ? (
        <section aria-labelledby="op-money-runs">
          <h2 id="op-money-runs">{M.runs}</h2>
          <ul className="op-money__runs">
            {view.runs.map((r) => (
              <li key={r.day}>
                <button
                  type="button"
                  className="op-button op-button--small"
                  data-mismatches={r.mismatches}
                  onClick={() => {
                    setDay(r.day);
                    void money.read(r.day);
                  }}
                >
                  {M.runRow(r.day, r.mismatches)}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}
