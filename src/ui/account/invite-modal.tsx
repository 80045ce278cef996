import { useEffect, useState } from 'react';
import { TOKENS } from '../../application';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from '../modals/registry';
import { ACCOUNT as A } from './account.messages';
import { AccountModalFrame } from './modal-frame';

/**
 * Invite friend (spec §2.5, R3-16): the tickets each invited friend brings, the player's link, and
 * the text to send — copied to the clipboard, or handed to the device's share sheet where it has one.
 */
export default function InviteModal(_: ModalComponentProps<Record<never, never>>) {
  return (
    <AccountModalFrame id="invite" title={A.inviteTitle} testId="invite-modal">
      {() => <Invite />}
    </AccountModalFrame>
  );
}

function Invite() {
  const invite = useScopedUseCase(TOKENS.InviteFriend);
  const state = useObservableState(invite.state$, invite.snapshot);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  useEffect(() => void invite.start(), [invite]);
  if (state.kind === 'loading') return <p role="status">{MESSAGES.loading}</p>;
  if (state.kind === 'error') return <p role="alert">{state.message}</p>;
  const { info } = state;
  const message = `${info.text}\n${info.url}`;
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  return (
    <div className="invite">
      <p className="dialog__text">{A.inviteLead(info.invite_ticket)}</p>
      <p className="invite__title">{info.title}</p>
      <p className="invite__text">{info.text}</p>
      <p>
        {A.inviteUrl}:{' '}
        <a href={info.url} data-testid="invite-url" className="invite__url">
          {info.url}
        </a>
      </p>
      <div className="panel__actions">
        <button
          type="button"
          className="button"
          data-testid="invite-copy"
          onClick={() => {
            navigator.clipboard.writeText(message).then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            );
          }}
        >
          {A.inviteCopy}
        </button>
        {canShare ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void navigator.share({ title: info.title, text: info.text, url: info.url }).catch(() => {})}
          >
            {A.inviteShare}
          </button>
        ) : null}
      </div>
      <p role="status" aria-live="polite">
        {copied === 'yes' ? A.inviteCopied : copied === 'failed' ? A.inviteCopyFailed : ''}
      </p>
    </div>
  );
}
