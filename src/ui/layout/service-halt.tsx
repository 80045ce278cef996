import { useEffect, useId, useRef } from 'react';
import type { MaintenanceState } from '../../application';
import { MESSAGES } from '../messages';

/**
 * What the page shows once the service has stopped it [R8-5, R8-6]: the maintenance screen with the
 * answer's code and info (emergency, invaliduser), or the reload-error alert (reloaderror). The
 * routed page is not rendered any more, so its sound, live feed, polling and modals stop with it.
 */
export function ServiceHalt({
  state,
  onConfirmAlert,
  onReload,
}: {
  readonly state: MaintenanceState;
  readonly onConfirmAlert: () => void;
  readonly onReload: () => void;
}) {
  const titleId = useId();
  const textId = useId();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), [state.screen, state.alert]);
  if (state.screen) {
    return (
      <section
        className="error-page service-halt"
        aria-labelledby={titleId}
        data-testid="maintenance-screen"
        data-code={state.screen.code}
      >
        <h1 id={titleId} className="error-page__heading">
          {MESSAGES.maintenanceTitle}
        </h1>
        <p className="service-halt__info" data-testid="maintenance-info">
          {state.screen.info || MESSAGES.maintenanceDefaultInfo}
        </p>
        <p className="service-halt__code" data-testid="maintenance-code">
          {MESSAGES.maintenanceCode(state.screen.code)}
        </p>
        <button ref={button} type="button" className="button" onClick={onReload}>
          {MESSAGES.maintenanceReload}
        </button>
      </section>
    );
  }
  if (state.alert === null) return null;
  return (
    <div className="dialog-backdrop">
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        data-testid="reload-alert"
      >
        <h2 id={titleId} className="dialog__title">
          {MESSAGES.reloadAlertTitle}
        </h2>
        <p id={textId} className="dialog__text">
          {state.alert}
        </p>
        <div className="panel__actions">
          <button ref={button} type="button" className="button" onClick={onConfirmAlert}>
            {MESSAGES.reloadAlertButton}
          </button>
        </div>
      </div>
    </div>
  );
}
