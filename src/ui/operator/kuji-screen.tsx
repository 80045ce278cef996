import { useEffect, useState } from 'react';
import {
  OPERATOR_TOKENS,
  type ActionState,
  type KujiActionName,
  type KujiBoxView,
  type OperatorKuji,
} from '../../application/operator';
import type { KujiVerification } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { ActionOutcome, LoadState, TableWrap, useConfirm, useScreenTitle } from './common';
import { OP } from './operator.messages';

const K = OP.kuji;

function describe(action: ActionState<KujiActionName>): string {
  // A check's result is shown on its box.
  if (action.name === 'verify') return '';
  return action.name === 'stock' ? K.stockDone : K.statusDone;
}

function verificationText(v: KujiVerification): string {
  if (v.ok) return K.checkOk;
  return v.reason === 'badSeed' ? K.checkBadSeed : v.reason === 'commitment' ? K.checkCommitment : K.checkDraw;
}

/** くじ: every box with its stock per rank, sale open / end, stock before opening, the seed check. */
export function KujiScreen() {
  useScreenTitle(K.title);
  const kuji = useScopedUseCase(OPERATOR_TOKENS.OperatorKuji);
  const state = useObservableState(kuji.state$, kuji.snapshot);
  useEffect(() => void kuji.refresh(), [kuji]);
  return (
    <section aria-labelledby="op-kuji-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-kuji-title">{K.title}</h1>
        <button type="button" className="op-button" onClick={() => void kuji.refresh()}>
          {OP.reload}
        </button>
      </div>
      <ActionOutcome action={state.action} describe={describe} onDismiss={() => kuji.dismissAction()} />
      {state.data.length === 0 || state.status === 'error' ? (
        <LoadState state={state} onRetry={() => void kuji.refresh()} />
      ) : null}
      {state.status === 'ready' && state.data.length === 0 ? <p>{OP.empty}</p> : null}
      <ul className="op-cards">
        {state.data.map((box) => (
          <li key={box.box_id} className="op-card" data-testid="op-kuji-box">
            <KujiBoxCard box={box} kuji={kuji} busy={state.action.status === 'running'} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function KujiBoxCard({ box, kuji, busy }: { box: KujiBoxView; kuji: OperatorKuji; busy: boolean }) {
  const confirm = useConfirm();
  const [stock, setStock] = useState<Record<string, string>>(() =>
    Object.fromEntries(box.prizes.map((p) => [p.rank, String(p.quantity)])),
  );
  const [check, setCheck] = useState<KujiVerification | null | undefined>(undefined);
  const editable = box.box_status === 'ready';
  const headingId = `op-kuji-${box.box_id}`;
  const open = async () => {
    if (await confirm({ body: K.confirmOpen(box.box_id) })) await kuji.setStatus(box.box_id, 'onSale');
  };
  const end = async () => {
    if (await confirm({ body: K.confirmEnd(box.box_id), danger: true })) await kuji.setStatus(box.box_id, 'endOfSale');
  };
  const save = async () => {
    if (await confirm({ body: K.confirmStock(box.box_id) }))
      await kuji.setStock(
        box.box_id,
        box.prizes.map((p) => ({ rank: p.rank, quantity: Number(stock[p.rank] ?? p.quantity) })),
      );
  };
  return (
    <article aria-labelledby={headingId}>
      <h2 id={headingId}>{K.box(box.kuji_name, box.box_id)}</h2>
      <p>
        {OP.labelled(K.status)}
        <span data-testid="op-kuji-status">{K.statuses[box.box_status]}</span>
      </p>
      <TableWrap label={K.stockTable(box.kuji_name, box.box_id)}>
        <table className="op-table">
          <caption className="op-visually-hidden">{K.stockTable(box.kuji_name, box.box_id)}</caption>
          <thead>
            <tr>
              <th scope="col">{K.rank}</th>
              <th scope="col">{K.quantity}</th>
              <th scope="col">{K.remaining}</th>
            </tr>
          </thead>
          <tbody>
            {box.prizes.map((p) => (
              <tr key={p.rank}>
                <th scope="row">{p.rank}</th>
                <td>
                  {editable ? (
                    <input
                      type="number"
                      min={0}
                      max={9999}
                      step={1}
                      aria-label={`${p.rank} ${K.quantity}`}
                      value={stock[p.rank] ?? ''}
                      onChange={(e) => setStock((s) => ({ ...s, [p.rank]: e.target.value }))}
                    />
                  ) : (
                    OP.count(p.quantity)
                  )}
                </td>
                <td>{OP.count(p.remaining)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <div className="op-actions__row">
        {editable ? (
          <>
            <button type="button" className="op-button" disabled={busy} onClick={() => void save()}>
              {K.setStock}
            </button>
            <button type="button" className="op-button op-button--primary" disabled={busy} onClick={() => void open()}>
              {K.open}
            </button>
          </>
        ) : (
          <p className="op-note">{K.stockOnlyBeforeOpen}</p>
        )}
        {box.box_status === 'onSale' ? (
          <button type="button" className="op-button op-button--danger" disabled={busy} onClick={() => void end()}>
            {K.end}
          </button>
        ) : null}
      </div>
      <dl className="op-facts op-facts--hash">
        <dt>{K.commitment}</dt>
        <dd className="op-hash">{box.commitment ?? K.notPublished}</dd>
        <dt>{K.seed}</dt>
        <dd className="op-hash">{box.seed ?? K.notPublished}</dd>
      </dl>
      {box.seed && box.commitment ? (
        <>
          <button
            type="button"
            className="op-button"
            disabled={busy}
            onClick={() => void kuji.verify(box.box_id).then(setCheck)}
          >
            {K.check}
          </button>
          {check === null ? (
            <p role="status" className="op-note" data-testid="op-kuji-check">
              {K.notPublished}
            </p>
          ) : null}
          {check ? (
            <p
              role="status"
              className={check.ok ? 'op-alert op-alert--ok' : 'op-alert op-alert--error'}
              data-testid="op-kuji-check"
            >
              {verificationText(check)}
            </p>
          ) : null}
        </>
      ) : null}
    </article>
  );
}
