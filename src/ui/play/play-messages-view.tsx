import { useMemo } from 'react';
import type { PlayMessages } from '../../application';
import { Toast } from '../layout/toast';
import { useObservableState } from '../hooks/use-observable-state';
import { useStateModal } from '../modals/use-state-modal';

/**
 * What the play screen tells the player: the alerts (cancelled, maintenance, reload error, refusals,
 * sign in) and the VIP popups (569/570/571) as registry modals, a popup first; and the notice toast
 * (PlayMessages takes it down after 3.5 s [R2.5-6]).
 */
export function PlayMessagesView({ messages }: { messages: PlayMessages }) {
  const { popup, alert, notice } = useObservableState(messages.state$, messages.snapshot);

  const popupProps = useMemo(
    () => (popup ? { title: popup.title, message: popup.text, button: popup.button.label, testId: 'dialog' } : null),
    [popup],
  );
  const alertProps = useMemo(
    () =>
      alert && !popup
        ? {
            message: alert.message,
            testId: 'dialog',
            signIn: alert.kind === 'signIn',
            buyTc: alert.kind === 'needTc',
          }
        : null,
    [alert, popup],
  );
  useStateModal('alert', popupProps, () => messages.dismissPopup());
  useStateModal('alert', alertProps, () => messages.dismissAlert());
  return notice ? <Toast title={notice.title} message={notice.message} /> : null;
}
