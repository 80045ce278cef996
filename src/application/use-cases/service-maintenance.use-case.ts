import { inject, injectable } from 'inversify';
import { BehaviorSubject, Subject, takeUntil, type Observable } from 'rxjs';
import { DOMAIN_MESSAGES, type MaintenanceEffect } from '../../domain';
import type { AppConfig } from '../app-config';
import type { NavigatorPort } from '../ports/navigator.port';
import type { ServiceSignal, ServiceSignalsPort } from '../ports/service-signals.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';

export interface MaintenanceState {
  /** The maintenance screen (emergency / invaliduser) with the answer's code and info, or null. */
  readonly screen: { readonly code: number; readonly info: string } | null;
  /** The reload-error alert text (reloaderror, logout cookie), or null. */
  readonly alert: string | null;
}

/** Effects other use-cases carry out themselves: sound, stream, polling and modals. */
export type DelegatedEffect = Extract<MaintenanceEffect, { type: 'stopSound' | 'resetStream' | 'stopPolling' | 'stopModal' }>;

/**
 * Handles the service-wide answers [R8-5, R8-6, R4.6-1, R4.6-2, R6-9]: shows the maintenance screen or the
 * reload alert, reloads / redirects / signs out as the target requires, and announces on `effects$`
 * what the sound, stream, polling and modal owners must stop.
 */
@injectable()
export class ServiceMaintenance {
  private readonly state = new BehaviorSubject<MaintenanceState>({ screen: null, alert: null });
  private readonly effects = new Subject<DelegatedEffect>();
  private readonly disposed = new Subject<void>();

  readonly state$: Observable<MaintenanceState> = this.state.asObservable();
  readonly effects$: Observable<DelegatedEffect> = this.effects.asObservable();

  constructor(
    @inject(TOKENS.ServiceSignalsPort) signals: ServiceSignalsPort,
    @inject(TOKENS.NavigatorPort) private readonly navigator: NavigatorPort,
    @inject(TOKENS.SessionPort) private readonly session: SessionPort,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
  ) {
    signals.signals$.pipe(takeUntil(this.disposed)).subscribe((signal) => this.handle(signal));
  }

  get snapshot(): MaintenanceState {
    return this.state.value;
  }

  /** Closes the reload alert; for the logout cookie and reloaderror the page is reloaded. */
  confirmAlert(): void {
    if (this.state.value.alert === null) return;
    this.state.next({ ...this.state.value, alert: null });
    this.navigator.reload();
  }

  dispose(): void {
    this.disposed.next();
    this.disposed.complete();
    this.effects.complete();
  }

  private handle(signal: ServiceSignal): void {
    if (signal.kind === 'loggedOut') {
      this.state.next({ ...this.state.value, alert: DOMAIN_MESSAGES.reloadError });
      return;
    }
    for (const effect of signal.effects) {
      switch (effect.type) {
        case 'showMaintenanceScreen':
          this.state.next({ ...this.state.value, screen: { code: effect.code, info: effect.info } });
          break;
        case 'showAlert':
          this.state.next({ ...this.state.value, alert: effect.message });
          break;
        case 'reloadPage':
          this.navigator.reload();
          break;
        case 'redirectToYahooTop':
          this.navigator.goTo(this.config.yahooTopUrl);
          break;
        case 'resetAuth':
          this.session.signOut();
          break;
        default:
          this.effects.next(effect);
      }
    }
  }
}
