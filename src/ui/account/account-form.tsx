import type { ReactNode } from 'react';
import { CODE_FIELD } from './account-fields';
import { FormError, FormField } from './form-field';

/** What a form shows of its use-case: busy while it sends, the service's refusal of the last send. */
interface SendState {
  readonly busy: boolean;
  readonly error: string | null;
}

/**
 * An account form (sign-up, password reset, e-mail change, phone check …): its fields, then the
 * service's refusal announced above the submit button, which is off while the form sends.
 */
export function AccountForm({
  className,
  testId,
  onSubmit,
  state,
  submitLabel,
  submitClassName = 'button',
  beside,
  after,
  children,
}: {
  readonly className: string;
  readonly testId?: string;
  /** Sends the form (the browser's own submit and its checks are held back). */
  readonly onSubmit: () => void;
  readonly state: SendState;
  readonly submitLabel: string;
  readonly submitClassName?: string;
  /** Buttons in one row beside the submit button (a way back to the step before). */
  readonly beside?: ReactNode;
  /** What follows the submit button (links, a way back). */
  readonly after?: ReactNode;
  readonly children: ReactNode;
}) {
  // A step's submit button is its own (keyed by what it says): when the form turns to its next
  // step, the focus does not stay on a button that now sends something else.
  const submit = (
    <button key={submitLabel} type="submit" className={submitClassName} disabled={state.busy}>
      {submitLabel}
    </button>
  );
  return (
    <form
      className={className}
      noValidate
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <FormError error={state.error} />
      {beside ? (
        <div className="panel__actions">
          {submit}
          {beside}
        </div>
      ) : (
        submit
      )}
      {after}
    </form>
  );
}

/**
 * A code check in two steps (an e-mail change, a phone check): first `children` (the address the
 * code goes to, a lead) and the send button; once the use-case has sent (`state.sentTo`), where the
 * code went, the code and the verify button, with `back` beside it. One form throughout.
 */
export function CodeSteps({
  className,
  state,
  onSend,
  sendLabel,
  sendClassName,
  sentText,
  code,
  onCode,
  onVerify,
  verifyLabel,
  back,
  children,
}: {
  readonly className: string;
  readonly state: SendState & { readonly sentTo: string | null; readonly fieldErrors: { readonly code?: string } };
  readonly onSend: () => void;
  readonly sendLabel: string;
  readonly sendClassName?: string;
  /** Where the code was sent, announced. */
  readonly sentText: (sentTo: string) => string;
  readonly code: string;
  readonly onCode: (code: string) => void;
  readonly onVerify: () => void;
  readonly verifyLabel: string;
  readonly back?: ReactNode;
  readonly children: ReactNode;
}) {
  if (state.sentTo === null)
    return (
      <AccountForm
        className={className}
        onSubmit={onSend}
        state={state}
        submitLabel={sendLabel}
        submitClassName={sendClassName}
      >
        {children}
      </AccountForm>
    );
  return (
    <AccountForm className={className} onSubmit={onVerify} state={state} submitLabel={verifyLabel} beside={back}>
      <p role="status">{sentText(state.sentTo)}</p>
      <FormField {...CODE_FIELD} value={code} onChange={(e) => onCode(e.target.value)} error={state.fieldErrors.code} />
    </AccountForm>
  );
}
