import { useEffect, useState, type FormEvent } from 'react';
import { OPERATOR_TOKENS, type NumbersRow } from '../../application/operator';
import { jstIsoDate } from '../../domain';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { LoadState, useScreenTitle } from './common';
import { OP } from './operator.messages';

const N = OP.numbers;
const DAY_MS = 86_400_000;

function Cells({ row }: { row: Omit<NumbersRow, 'day' | 'station_id' | 'station_name'> }) {
  return (
    <>
      <td>{OP.count(row.plays)}</td>
      <td>{OP.count(row.wins)}</td>
      <td>{OP.percent(row.win_rate)}</td>
      <td>{OP.count(row.tc_taken)}</td>
      <td>{OP.count(row.refunds)}</td>
      <td>{OP.count(row.refunded_tc)}</td>
      <td>{OP.count(row.assist_payouts)}</td>
    </>
  );
}

/** 数字: plays, wins, win rate, TC taken, refunds and assist payouts per station per day, for a date range. */
export function NumbersScreen() {
  useScreenTitle(N.title);
  const clock = useInjection(OPERATOR_TOKENS.ClockPort);
  const numbers = useScopedUseCase(OPERATOR_TOKENS.OperatorNumbers);
  const state = useObservableState(numbers.state$, numbers.snapshot);
  const [from, setFrom] = useState(() => jstIsoDate(clock.now() - 6 * DAY_MS));
  const [to, setTo] = useState(() => jstIsoDate(clock.now()));
  useEffect(() => void numbers.read(from, to), [numbers]); // eslint-disable-line react-hooks/exhaustive-deps -- the first range only
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void numbers.read(from, to);
  };
  const { rows, total } = state.data;
  return (
    <section aria-labelledby="op-numbers-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-numbers-title">{N.title}</h1>
      </div>
      <form className="op-inline-form" onSubmit={submit}>
        <label className="op-field">
          <span>{N.from}</span>
          <input type="date" required value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="op-field">
          <span>{N.to}</span>
          <input type="date" required value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="submit" className="op-button op-button--primary">
          {N.show}
        </button>
      </form>
      {state.status !== 'ready' ? <LoadState state={state} onRetry={() => void numbers.read(from, to)} /> : null}
      {state.status === 'ready' && rows.length === 0 ? <p>{OP.empty}</p> : null}
      {rows.length > 0 ? (
        <div className="op-table-wrap" tabIndex={0} role="region" aria-labelledby="op-numbers-caption">
          <table className="op-table op-table--numbers" data-testid="op-numbers">
            <caption id="op-numbers-caption">{N.caption(state.data.from, state.data.to)}</caption>
            <thead>
              <tr>
                <th scope="col">{N.day}</th>
                <th scope="col">{N.station}</th>
                <th scope="col">{N.plays}</th>
                <th scope="col">{N.wins}</th>
                <th scope="col">{N.winRate}</th>
                <th scope="col">{N.tcTaken}</th>
                <th scope="col">{N.refunds}</th>
                <th scope="col">{N.refundedTc}</th>
                <th scope="col">{N.assist}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.day}-${r.station_id}`}>
                  <td>{r.day}</td>
                  <th scope="row">
                    #{r.station_id} {r.station_name}
                  </th>
                  <Cells row={r} />
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {N.total}
                </th>
                <Cells row={total} />
              </tr>
            </tfoot>
          </table>
        </div>
      ) : null}
    </section>
  );
}
