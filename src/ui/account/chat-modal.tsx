import { useEffect, useRef, useState } from 'react';
import { TOKENS } from '../../application';
import { CHAT_TEXT_MAX, formatJstDateTime, parseServiceTime } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from '../modals/registry';
import { ACCOUNT as A } from './account.messages';
import { FormError, FormField } from './form-field';
import { AccountModalFrame } from './modal-frame';

/**
 * Chat support (spec §2.5): the conversation with the operators, their replies arriving live on the
 * user channel; older messages on demand. Opening it reads the messages (the unread mark goes).
 */
export default function ChatModal(_: ModalComponentProps<Record<never, never>>) {
  return (
    <AccountModalFrame id="chat" title={A.chatTitle} testId="chat-modal">
      {() => <Chat />}
    </AccountModalFrame>
  );
}

function Chat() {
  const chat = useScopedUseCase(TOKENS.SupportChat);
  const state = useObservableState(chat.state$, chat.snapshot);
  const [text, setText] = useState('');
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => void chat.start(), [chat]);
  const last = state.messages.at(-1)?.messageId;
  // A block body: newer browsers' scrollIntoView answers a promise, which must not become the cleanup.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [last]);
  return (
    <div className="chat">
      <p className="dialog__text">{A.chatLead}</p>
      {state.status === 'loading' ? <p role="status">{MESSAGES.loading}</p> : null}
      {state.hasMore ? (
        <button type="button" className="link-button" onClick={() => void chat.loadOlder()}>
          {A.chatOlder}
        </button>
      ) : null}
      {state.status === 'ready' && state.messages.length === 0 ? <p>{A.chatEmpty}</p> : null}
      <ol className="chat__log" aria-live="polite" data-testid="chat-log">
        {state.messages.map((m) => (
          <li key={m.messageId} className={`chat__message chat__message--${m.from}`} data-from={m.from}>
            <span className="chat__who">{m.from === 'player' ? A.chatYou : A.chatOperator}</span>
            <span className="chat__text">{m.text}</span>
            <time className="chat__time" dateTime={m.createdAt}>
              {formatJstDateTime(parseServiceTime(m.createdAt) ?? 0)}
            </time>
          </li>
        ))}
        <li ref={end} aria-hidden="true" className="chat__end" />
      </ol>
      <form
        className="chat__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void chat.send(text).then((sent) => {
            if (sent) setText('');
          });
        }}
      >
        <FormField label={A.chatInput} error={state.fieldError ?? undefined}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              name="message"
              rows={2}
              maxLength={CHAT_TEXT_MAX}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                chat.edited();
              }}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
            />
          )}
        </FormField>
        <FormError error={state.error} />
        <button type="submit" className="button" disabled={state.sending}>
          {A.chatSend}
        </button>
      </form>
    </div>
  );
}
