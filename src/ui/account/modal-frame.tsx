import { useRef, type ReactNode } from 'react';
import { TOKENS } from '../../application';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { useDialogName } from '../modals/use-dialog-name';
import { ACCOUNT as A } from './account.messages';
import { SignInLinks } from './sign-in-links';

/**
 * The frame of an account or support modal: its title names the dialog; a guest sees the sign-in
 * and sign-up links instead of the body (`children` renders only for a signed-in player).
 */
export function AccountModalFrame({
  id,
  title,
  testId,
  children,
}: {
  readonly id: string;
  readonly title: string;
  readonly testId: string;
  readonly children: () => ReactNode;
}) {
  const session = useInjection(TOKENS.SessionPort);
  const identity = useObservableState(session.identity$, session.current());
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, `${id}-title`);
  return (
    <div ref={ref} className="modal__body account-modal" data-testid={testId}>
      <h2 id={`${id}-title`} className="dialog__title">
        {title}
      </h2>
      {identity === null ? (
        <>
          <p className="dialog__text">{A.signInPrompt}</p>
          <SignInLinks />
        </>
      ) : (
        children()
      )}
    </div>
  );
}
