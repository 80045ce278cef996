import { useEffect, useState, type FormEvent } from 'react';
import {
  OPERATOR_TOKENS,
  SERVICE_MESSAGE_CODES,
  type ActionState,
  type MessagesActionName,
  type OperatorUserView,
  type ServiceMessageCode,
} from '../../application/operator';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { ActionOutcome, useConfirm, useScreenTitle } from './common';
import { OP } from './operator.messages';

const M = OP.messages;

function describe(action: ActionState<MessagesActionName>): string {
  switch (action.name) {
    case 'broadcast':
    case 'userMessage':
      return M.delivered(action.result as number);
    case 'emergencyEnd':
      return M.emergencyEnded;
    case 'userStatus':
      return (action.result as OperatorUserView).suspended ? M.suspendedDone : M.restoredDone;
    default:
      return '';
  }
}

function CodeSelect({ value, onChange }: { value: ServiceMessageCode; onChange: (c: ServiceMessageCode) => void }) {
  return (
    <label className="op-field">
      <span>{M.code}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as ServiceMessageCode)}>
        {SERVICE_MESSAGE_CODES.map((c) => (
          <option key={c} value={c}>
            {M.codes[c]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** お知らせ・ユーザー: messages to everyone and the emergency state (admin), a user's look-up, message and suspension. */
export function MessagesScreen() {
  useScreenTitle(M.title);
  const session = useInjection(OPERATOR_TOKENS.OperatorSession);
  const messages = useScopedUseCase(OPERATOR_TOKENS.OperatorMessages);
  const state = useObservableState(messages.state$, messages.snapshot);
  const confirm = useConfirm();
  const canBroadcast = session.can('broadcast');
  const canUsers = session.can('users');
  useEffect(() => {
    if (canBroadcast) void messages.readServiceState();
  }, [messages, canBroadcast]);
  const [code, setCode] = useState<ServiceMessageCode>('emergency');
  const [info, setInfo] = useState('');
  const [userId, setUserId] = useState('');
  const [userCode, setUserCode] = useState<ServiceMessageCode>('reloaderror');
  const [userInfo, setUserInfo] = useState('');
  const busy = state.action.status === 'running';
  const { emergency, user } = state.data;

  const broadcast = async (event: FormEvent) => {
    event.preventDefault();
    const body = code === 'emergency' ? M.confirmEmergency : M.confirmBroadcast(M.codes[code]);
    if (await confirm({ body, danger: true, confirmLabel: M.sendAll })) await messages.broadcast(code, info);
  };
  const endEmergency = async () => {
    if (await confirm({ body: M.confirmEmergencyEnd })) await messages.endEmergency();
  };
  const lookUp = (event: FormEvent) => {
    event.preventDefault();
    const id = Number(userId);
    if (Number.isInteger(id) && id > 0) void messages.lookUp(id);
  };
  const sendToUser = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    if (await confirm({ body: M.confirmUserMessage(M.codes[userCode], user.user_id), confirmLabel: M.send }))
      await messages.userMessage(user.user_id, userCode, userInfo);
  };
  const toggleSuspend = async () => {
    if (!user) return;
    const body = user.suspended ? M.confirmRestore(user.user_id) : M.confirmSuspend(user.user_id);
    if (await confirm({ body, danger: !user.suspended })) await messages.setSuspended(user.user_id, !user.suspended);
  };

  return (
    <section aria-labelledby="op-messages-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-messages-title">{M.title}</h1>
      </div>
      <ActionOutcome action={state.action} describe={describe} onDismiss={() => messages.dismissAction()} />
      {canBroadcast ? (
        <>
          <section className="op-card" aria-labelledby="op-emergency-title">
            <h2 id="op-emergency-title">{M.emergencyTitle}</h2>
            {state.status === 'loading' && emergency === undefined ? <p role="status">{OP.loading}</p> : null}
            {state.status === 'error' ? (
              <p role="alert" className="op-alert op-alert--error">
                {OP.readFailed(state.error ?? '')}
              </p>
            ) : null}
            {emergency === null ? <p data-testid="op-emergency">{M.emergencyNone}</p> : null}
            {emergency ? (
              <div data-testid="op-emergency">
                <p className="op-badge op-badge--warn">{M.emergencyOn(OP.at(emergency.since), emergency.by)}</p>
                {emergency.info ? (
                  <p>
                    {OP.labelled(M.emergencyInfo)}
                    {emergency.info}
                  </p>
                ) : null}
                <button
                  type="button"
                  className="op-button op-button--primary"
                  disabled={busy}
                  onClick={() => void endEmergency()}
                >
                  {M.emergencyEnd}
                </button>
              </div>
            ) : null}
          </section>
          <form className="op-card op-form" aria-labelledby="op-broadcast-title" onSubmit={(e) => void broadcast(e)}>
            <h2 id="op-broadcast-title">{M.broadcastTitle}</h2>
            <CodeSelect value={code} onChange={setCode} />
            <label className="op-field">
              <span>{M.info}</span>
              <textarea maxLength={200} rows={2} value={info} onChange={(e) => setInfo(e.target.value)} />
            </label>
            <button type="submit" className="op-button op-button--danger" disabled={busy}>
              {M.sendAll}
            </button>
          </form>
        </>
      ) : null}
      {canUsers ? (
        <section className="op-card" aria-labelledby="op-user-title">
          <h2 id="op-user-title">{M.userTitle}</h2>
          <form className="op-inline-form" onSubmit={lookUp}>
            <label className="op-field">
              <span>{M.userId}</span>
              <input
                type="number"
                min={1}
                step={1}
                required
                inputMode="numeric"
                value={userId}
                onChange={(e) => setUserId(e.target.value)}
              />
            </label>
            <button type="submit" className="op-button" disabled={busy}>
              {M.lookUp}
            </button>
          </form>
          {user ? (
            <div data-testid="op-user">
              <dl className="op-facts">
                <dt>{M.userId}</dt>
                <dd>#{user.user_id}</dd>
                <dt>{M.nickname}</dt>
                <dd>{user.nickname}</dd>
                <dt>{M.userStatus}</dt>
                <dd data-testid="op-user-status">{user.suspended ? M.suspended : M.active}</dd>
                <dt>{M.createdAt}</dt>
                <dd>{OP.at(user.created_at)}</dd>
                <dt>{M.tcBalance}</dt>
                <dd>{OP.tc(user.tc_balance)}</dd>
              </dl>
              <button
                type="button"
                className={user.suspended ? 'op-button' : 'op-button op-button--danger'}
                disabled={busy}
                onClick={() => void toggleSuspend()}
              >
                {user.suspended ? M.restore : M.suspend}
              </button>
              <form className="op-form" aria-labelledby="op-user-message-title" onSubmit={(e) => void sendToUser(e)}>
                <h3 id="op-user-message-title">{M.userMessageTitle}</h3>
                <CodeSelect value={userCode} onChange={setUserCode} />
                <label className="op-field">
                  <span>{M.info}</span>
                  <textarea maxLength={200} rows={2} value={userInfo} onChange={(e) => setUserInfo(e.target.value)} />
                </label>
                <button type="submit" className="op-button" disabled={busy}>
                  {M.send}
                </button>
              </form>
            </div>
          ) : null}
        </section>
      ) : null}
    </section>
  );
}
