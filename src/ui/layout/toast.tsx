import { useLayoutEffect, useRef } from 'react';
import { TOKENS } from '../../application';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';

/** A toast's content: an optional title and the message; announced politely to screen readers. */
export function Toast({
  title,
  message,
  testId = 'notice',
}: {
  title?: string | undefined;
  message: string;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // A popover in the top layer, so it shows above an open modal dialog too.
  useLayoutEffect(() => {
    if (!ref.current?.matches(':popover-open')) ref.current?.showPopover?.();
  }, []);
  return (
    <div ref={ref} popover="manual" className="toast" role="status" data-testid={testId}>
      {title ? <strong>{title}</strong> : null}
      <span>{message}</span>
    </div>
  );
}

/** The app's notice toast (Notices use-case): each notice goes by itself after 3.5 s [R2.5-6]. */
export function ToastHost() {
  const notices = useInjection(TOKENS.Notices);
  const notice = useObservableState(notices.state$, notices.snapshot);
  return notice ? <Toast key={notice.id} title={notice.title} message={notice.message} testId="toast" /> : null;
}
