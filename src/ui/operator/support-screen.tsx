import { useEffect, useState, type FormEvent } from 'react';
import { OPERATOR_TOKENS, type ActionState, type SupportActionName } from '../../application/operator';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { ActionOutcome, LoadState, useConfirm, useScreenTitle } from './common';
import { OP } from './operator.messages';

const S = OP.support;

function describe(action: ActionState<SupportActionName>): string {
  if (action.name === 'closeContact') return S.contactClosed((action.result as { contact_id: number }).contact_id);
  if (action.name === 'reply') return S.replied;
  return '';
}

/** サポート: the contact inbox (open / closed) and closing, the chat threads, a thread and a reply. */
export function SupportScreen() {
  useScreenTitle(S.title);
  const support = useScopedUseCase(OPERATOR_TOKENS.OperatorSupport);
  const state = useObservableState(support.state$, support.snapshot);
  const confirm = useConfirm();
  const [text, setText] = useState('');
  useEffect(() => void support.refresh(), [support]);
  const { contacts, threads, thread, contactStatus } = state.data;
  const busy = state.action.status === 'running';
  const threadUser = thread ? threads.find((t) => t.user_id === thread.userId) : undefined;
  const close = async (id: number) => {
    if (await confirm({ body: S.confirmClose(id) })) await support.closeContact(id);
  };
  const reply = async (event: FormEvent) => {
    event.preventDefault();
    if (thread && (await support.reply(thread.userId, text))) setText('');
  };
  return (
    <section aria-labelledby="op-support-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-support-title">{S.title}</h1>
        <button type="button" className="op-button" onClick={() => void support.refresh()}>
          {OP.reload}
        </button>
      </div>
      <ActionOutcome action={state.action} describe={describe} onDismiss={() => support.dismissAction()} />
      <LoadState state={state} onRetry={() => void support.refresh()} />
      <div className="op-columns">
        <section className="op-card" aria-labelledby="op-inbox-title">
          <h2 id="op-inbox-title">{S.inbox}</h2>
          <div className="op-segmented" role="group" aria-label={S.inbox}>
            {(['open', 'closed'] as const).map((s) => (
              <button
                key={s}
                type="button"
                className="op-button op-button--small"
                aria-pressed={contactStatus === s}
                onClick={() => void support.refresh(s)}
              >
                {S[s]}
              </button>
            ))}
          </div>
          {state.status === 'ready' && contacts.length === 0 ? <p>{OP.empty}</p> : null}
          <ul className="op-plain-list">
            {contacts.map((c) => (
              <li key={c.contact_id} className="op-item" data-testid="op-contact">
                <h3>{S.contact(c.contact_id, c.user_id)}</h3>
                <p className="op-note">
                  {OP.labelled(S.category)}
                  {S.categories[c.category] ?? c.category} / {OP.at(c.created_at)}
                </p>
                <p className="op-pre">{c.text}</p>
                {c.plays && c.plays.length > 0 ? (
                  <details>
                    <summary>{S.plays}</summary>
                    <ul>
                      {c.plays.map((p) => (
                        <li key={p.play_id}>
                          {S.attachedPlay(p.play_id, p.prize_name, p.station_id, p.result)} {OP.at(p.played_at)}
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
                {c.status === 'open' ? (
                  <button
                    type="button"
                    className="op-button op-button--small"
                    disabled={busy}
                    onClick={() => void close(c.contact_id)}
                  >
                    {S.closeContact}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
        <section className="op-card" aria-labelledby="op-threads-title">
          <h2 id="op-threads-title">{S.threads}</h2>
          {state.status === 'ready' && threads.length === 0 ? <p>{OP.empty}</p> : null}
          <ul className="op-plain-list">
            {threads.map((t) => (
              <li key={t.user_id} className="op-item" data-testid="op-thread">
                <h3>{S.thread(t.nickname, t.user_id)}</h3>
                <p className="op-note">
                  {t.waiting > 0 ? <span className="op-badge op-badge--warn">{S.waiting(t.waiting)}</span> : null}{' '}
                  {OP.at(t.last_message.createdAt)}
                </p>
                <p className="op-pre">{t.last_message.text}</p>
                <button
                  type="button"
                  className="op-button op-button--small"
                  disabled={busy}
                  onClick={() => void support.openThread(t.user_id)}
                >
                  {S.openThread}
                </button>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {thread ? (
        <section className="op-card" aria-labelledby="op-thread-title" data-testid="op-thread-open">
          <div className="op-screen__head">
            <h2 id="op-thread-title">{S.thread(threadUser?.nickname ?? '', thread.userId)}</h2>
            <button type="button" className="op-button op-button--small" onClick={() => support.closeThread()}>
              {OP.close}
            </button>
          </div>
          <ol className="op-chat">
            {thread.messages.map((m) => (
              <li
                key={m.messageId}
                className={m.from === 'operator' ? 'op-chat__msg op-chat__msg--op' : 'op-chat__msg'}
              >
                <p className="op-note">
                  {m.from === 'operator' ? S.fromOperator : S.fromPlayer} {OP.at(m.createdAt)}
                </p>
                <p className="op-pre">{m.text}</p>
              </li>
            ))}
          </ol>
          <form className="op-form" onSubmit={(e) => void reply(e)}>
            <label className="op-field">
              <span>{S.replyText}</span>
              <textarea required maxLength={1000} rows={3} value={text} onChange={(e) => setText(e.target.value)} />
            </label>
            <button type="submit" className="op-button op-button--primary" disabled={busy}>
              {S.send}
            </button>
          </form>
        </section>
      ) : null}
    </section>
  );
}
