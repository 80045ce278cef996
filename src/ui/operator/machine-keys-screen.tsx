import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  OPERATOR_TOKENS,
  revealedKey,
  type ActionState,
  type IssuedStationKeyView,
  type MachineKeyActionName,
  type OperatorMachineKeys,
  type StationKeyView,
} from '../../application/operator';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { ActionOutcome, LoadState, TableWrap, useConfirm, useScreenTitle } from './common';
import { OP } from './operator.messages';

const K = OP.machineKeys;
const DEFAULT_OVERLAP_MINUTES = 24 * 60;

/** "3, 4、5" → [3, 4, 5]; null unless every part is a positive whole number (and there is one). */
export function parseStationIds(text: string): number[] | null {
  const parts = text.split(/[\s,、，]+/).filter((p) => p !== '');
  if (parts.length === 0 || !parts.every((p) => /^[1-9][0-9]{0,8}$/.test(p))) return null;
  return [...new Set(parts.map(Number))];
}

// An issued or rotated key is shown in its own panel, not in the outcome line.
const describe = (action: ActionState<MachineKeyActionName>) => (action.name === 'revoke' ? K.revoked : '');

function stateText(key: StationKeyView): string {
  return key.state === 'rotating' && key.expires_at ? K.rotatingUntil(OP.at(key.expires_at)) : K.states[key.state];
}

/** 機械の接続キー (right `machines`, admin only): the keys station agents connect with. */
export function MachineKeysScreen() {
  useScreenTitle(K.title);
  const keys = useScopedUseCase(OPERATOR_TOKENS.OperatorMachineKeys);
  const state = useObservableState(keys.state$, keys.snapshot);
  const [overlap, setOverlap] = useState(DEFAULT_OVERLAP_MINUTES);
  useEffect(() => void keys.refresh(), [keys]);
  const busy = state.action.status === 'running';
  const revealed = revealedKey(state.action);
  return (
    <section aria-labelledby="op-machine-keys-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-machine-keys-title">{K.title}</h1>
        <button type="button" className="op-button" onClick={() => void keys.refresh()}>
          {OP.reload}
        </button>
      </div>
      <p className="op-note">{K.lead}</p>
      <ActionOutcome action={state.action} describe={describe} onDismiss={() => keys.dismissAction()} />
      {revealed ? <RevealedKey issued={revealed} onClose={() => keys.dismissAction()} /> : null}
      <IssueForm keys={keys} busy={busy} />
      {state.status !== 'ready' ? <LoadState state={state} onRetry={() => void keys.refresh()} /> : null}
      {state.status === 'ready' && state.data.length === 0 ? <p>{OP.empty}</p> : null}
      {state.data.length > 0 ? (
        <>
          <label className="op-field op-field--inline">
            <span>{K.overlap}</span>
            <select value={overlap} onChange={(e) => setOverlap(Number(e.target.value))}>
              {K.overlaps.map((o) => (
                <option key={o.minutes} value={o.minutes}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <KeyTable keys={keys} list={state.data} overlap={overlap} busy={busy} />
        </>
      ) : null}
    </section>
  );
}

function IssueForm({ keys, busy }: { keys: OperatorMachineKeys; busy: boolean }) {
  const confirm = useConfirm();
  const [name, setName] = useState('');
  const [stations, setStations] = useState('');
  const [invalid, setInvalid] = useState(false);
  const id = useId();
  const errorId = `${id}-error`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ids = parseStationIds(stations);
    setInvalid(ids === null);
    if (!ids || !(await confirm({ body: K.confirmIssue(name.trim(), ids), confirmLabel: K.issue }))) return;
    if (await keys.issue(name, ids)) {
      setName('');
      setStations('');
    }
  };
  return (
    <form className="op-card op-form" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
      <h2 id={`${id}-title`}>{K.issueTitle}</h2>
      <label className="op-field">
        <span>{K.issueName}</span>
        <input required maxLength={64} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="op-field">
        <span>{K.issueStations}</span>
        <input
          required
          inputMode="numeric"
          autoComplete="off"
          value={stations}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          onChange={(e) => setStations(e.target.value)}
        />
      </label>
      {invalid ? (
        <p id={errorId} role="alert" className="op-alert op-alert--error">
          {K.stationsInvalid}
        </p>
      ) : null}
      <button type="submit" className="op-button op-button--primary" disabled={busy}>
        {K.issue}
      </button>
    </form>
  );
}

/** The key just made, once: a warning, the key, a copy button; closing it forgets the key. */
function RevealedKey({ issued, onClose }: { issued: IssuedStationKeyView; onClose: () => void }) {
  const confirm = useConfirm();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const titleId = useId();
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(issued.key);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  const close = async () => {
    if (await confirm({ body: K.confirmCloseKey, confirmLabel: K.closeKey })) onClose();
  };
  return (
    <section className="op-card" aria-labelledby={titleId} data-testid="op-new-key">
      <h2 id={titleId}>{K.newKeyTitle}</h2>
      <p>{K.newKeyFor(issued.entry.name)}</p>
      <p role="alert" className="op-alert op-alert--error">
        {K.newKeyWarning}
      </p>
      <label className="op-field">
        <span>{K.newKeyTitle}</span>
        <input
          readOnly
          className="op-code"
          value={issued.key}
          data-testid="op-new-key-value"
          onFocus={(e) => e.target.select()}
        />
      </label>
      <div className="op-actions__row">
        <button type="button" className="op-button op-button--primary" onClick={() => void copyKey()}>
          {K.copy}
        </button>
        <button type="button" className="op-button" onClick={() => void close()}>
          {K.closeKey}
        </button>
      </div>
      <p role="status" className="op-note">
        {copy === 'copied' ? K.copied : copy === 'failed' ? K.copyFailed : ''}
      </p>
    </section>
  );
}

function KeyTable(props: {
  keys: OperatorMachineKeys;
  list: readonly StationKeyView[];
  overlap: number;
  busy: boolean;
}) {
  const { keys, list, overlap, busy } = props;
  const confirm = useConfirm();
  const rotate = async (key: StationKeyView) => {
    const body = K.confirmRotate(key.name, K.overlapText(overlap));
    if (await confirm({ body, confirmLabel: K.rotate })) await keys.rotate(key.key_id, overlap);
  };
  const revoke = async (key: StationKeyView) => {
    const body = K.confirmRevoke(key.name, key.key_id);
    if (await confirm({ title: K.confirmRevokeTitle, body, confirmLabel: K.revoke, danger: true }))
      await keys.revoke(key.key_id);
  };
  return (
    <TableWrap label={K.table}>
      <table className="op-table op-table--stack" data-testid="op-machine-keys">
        <caption className="op-visually-hidden">{K.table}</caption>
        <thead>
          <tr>
            <th scope="col">{K.name}</th>
            <th scope="col">{K.stations}</th>
            <th scope="col">{K.created}</th>
            <th scope="col">{K.lastUsed}</th>
            <th scope="col">{K.state}</th>
            <th scope="col">{K.actions}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((key) => (
            <tr key={key.key_id} data-testid="op-machine-key">
              <th scope="row" data-label={K.name}>
                {key.name}
                <span className="op-code op-note">{` ${key.key_id}`}</span>
              </th>
              <td data-label={K.stations}>{K.stationList(key.station_ids)}</td>
              <td data-label={K.created}>{K.createdBy(key.created_by, OP.at(key.created_at))}</td>
              <td data-label={K.lastUsed}>{key.last_used_at ? OP.at(key.last_used_at) : K.never}</td>
              <td data-label={K.state}>
                <span
                  className={key.state === 'active' ? 'op-badge op-badge--ok' : 'op-badge op-badge--warn'}
                  data-testid="op-machine-key-state"
                >
                  {stateText(key)}
                </span>
                {key.rotated_to ? <span className="op-note">{` ${K.replacedBy(key.rotated_to)}`}</span> : null}
              </td>
              <td data-label={K.actions}>
                {key.state === 'active' ? (
                  <button
                    type="button"
                    className="op-button op-button--small"
                    aria-label={K.rotateLabel(key.name)}
                    disabled={busy}
                    onClick={() => void rotate(key)}
                  >
                    {K.rotate}
                  </button>
                ) : null}
                {key.state === 'active' || key.state === 'rotating' ? (
                  <button
                    type="button"
                    className="op-button op-button--small op-button--danger"
                    aria-label={K.revokeLabel(key.name)}
                    disabled={busy}
                    onClick={() => void revoke(key)}
                  >
                    {K.revoke}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
