import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { ActionState, ScreenState } from '../../application/operator';
import { OP } from './operator.messages';

export interface ConfirmRequest {
  readonly title?: string;
  readonly body: string;
  readonly confirmLabel?: string;
  /** A destructive action: the confirm button is drawn as a warning. */
  readonly danger?: boolean;
}

const ConfirmContext = createContext<((request: ConfirmRequest) => Promise<boolean>) | null>(null);

/**
 * One modal confirmation for the whole console (the native <dialog>: focus moves into it, Esc
 * cancels, focus returns to the button that opened it). Every action runs only after it.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const titleId = useId();
  const bodyId = useId();
  const confirm = useCallback((next: ConfirmRequest) => {
    resolver.current?.(false);
    setRequest(next);
    return new Promise<boolean>((resolve) => (resolver.current = resolve));
  }, []);
  useEffect(() => {
    if (request && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [request]);
  const finish = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    dialog.current?.close();
    setRequest(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <dialog
        ref={dialog}
        className="op-dialog"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onCancel={(event) => {
          event.preventDefault();
          finish(false);
        }}
      >
        {request ? (
          <form
            method="dialog"
            onSubmit={(event) => {
              event.preventDefault();
              finish(true);
            }}
          >
            <h2 id={titleId} className="op-dialog__title">
              {request.title ?? OP.confirmTitle}
            </h2>
            <p id={bodyId}>{request.body}</p>
            <div className="op-dialog__buttons">
              <button type="button" className="op-button" onClick={() => finish(false)}>
                {OP.cancel}
              </button>
              <button
                type="submit"
                className={request.danger ? 'op-button op-button--danger' : 'op-button op-button--primary'}
              >
                {request.confirmLabel ?? OP.run}
              </button>
            </div>
          </form>
        ) : null}
      </dialog>
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): (request: ConfirmRequest) => Promise<boolean> {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('onkure: a <ConfirmProvider> must be above this component');
  return confirm;
}

/** The read's state: loading, or the server's words when it failed, with a retry. */
export function LoadState({ state, onRetry }: { state: ScreenState<unknown>; onRetry: () => void }) {
  if (state.status === 'loading' || state.status === 'idle')
    return (
      <p role="status" className="op-note">
        {OP.loading}
      </p>
    );
  if (state.status === 'error')
    return (
      <div role="alert" className="op-alert op-alert--error">
        <p>{OP.readFailed(state.error ?? '')}</p>
        <button type="button" className="op-button" onClick={onRetry}>
          {OP.reload}
        </button>
      </div>
    );
  return null;
}

/**
 * The last action's outcome: running, done (with what it answered, worded by `describe`), or
 * refused with the server's words. Announced to screen readers.
 */
export function ActionOutcome<N extends string>({
  action,
  describe,
  onDismiss,
}: {
  action: ActionState<N>;
  describe: (action: ActionState<N>) => string;
  onDismiss: () => void;
}) {
  if (action.status === 'idle' || (action.status === 'done' && !describe(action)))
    return <div role="status" aria-live="polite" className="op-outcome-slot" />;
  const failed = action.status === 'failed';
  return (
    <div
      role={failed ? 'alert' : 'status'}
      aria-live={failed ? 'assertive' : 'polite'}
      className={`op-alert ${failed ? 'op-alert--error' : action.status === 'done' ? 'op-alert--ok' : ''}`}
      data-testid="op-outcome"
    >
      <p>
        {action.status === 'running' ? OP.running : failed ? OP.actionFailed(action.error ?? '') : describe(action)}
      </p>
      {action.status !== 'running' ? (
        <button type="button" className="op-button op-button--small" onClick={onDismiss}>
          {OP.close}
        </button>
      ) : null}
    </div>
  );
}

/**
 * A table that scrolls sideways on a narrow screen: a named region that takes focus, so keyboard
 * users can scroll it too.
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="op-table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/** Sets the page title for a screen. */
export function useScreenTitle(screen: string): void {
  useEffect(() => {
    document.title = OP.documentTitle(screen);
  }, [screen]);
}
