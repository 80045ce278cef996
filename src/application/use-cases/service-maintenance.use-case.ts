import { inject, injectable } from 'inversify';
import { Subject, type Observable } from 'rxjs';
import { DOMAIN_MESSAGES, handlesMaintenancePush, type MaintenanceEffect, type UserData } from '../../domain';
import type { AppConfig } from '../app-config';
import type { NavigatorPort } from '../ports/navigator.port';
import type { ServiceSignal, ServiceSignalsPort } from '../ports/service-signals.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface MaintenanceState {
  /** The maintenance screen (emergency / invaliduser) with the answer's code and info, or null. */
  readonly screen: { readonly code: number; readonly info: string } | null;
  /** The reload-error alert text (reloaderror, logout cookie), or null. */
  readonly alert: string | null;
}

/** Effects other use-cases carry out themselves: sound, stream, polling and modals. */
export type DelegatedEffect = Extract<
  MaintenanceEffect,
  { type: 'stopSound' | 'resetStream' | 'stopPolling' | 'stopModal' }
>;

/**
 * Handles the service-wide answers and pushes [R8-5, R8-6, R4.6-1, R4.6-2, R4.1-2, R6-9]: shows the maintenance screen or the
 * reload alert, reloads / redirects / signs out as the target requires, and announces on `effects$`
 * what the sound, stream, polling and modal owners must stop.
 */
@injectable()
export class ServiceMaintenance extends StateStore<MaintenanceState> {
  private readonly effects = new Subject<DelegatedEffect>();

  readonly effects$: Observable<DelegatedEffect> = this.effects.asObservable();

  constructor(
    @inject(TOKENS.ServiceSignalsPort) signals: ServiceSignalsPort,
    @inject(TOKENS.NavigatorPort) private readonly navigator: NavigatorPort,
    @inject(TOKENS.SessionPort) private readonly session: SessionPort,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
    /** Whose status decides whether maintenance pushes are heeded (status 3 ignores them) [R4.1-2]. */
    @inject(TOKENS.CurrentUser) private readonly currentUser: { readonly user: UserData | null },
  ) {
    super({ screen: null, alert: null });
    this.own(signals.signals$.pipe(this.untilDisposed()).subscribe((signal) => this.handle(signal)));
    this.own(() => this.effects.complete());
  }

  /** Closes the reload alert; for the logout cookie and reloaderror the page is reloaded. */
  confirmAlert(): void {
    if (this.snapshot.alert === null) return;
    this.setState((state) => ({ ...state, alert: null }));
    this.navigator.reload();
  }

  private handle(signal: ServiceSignal): void {
    if (signal.kind === 'loggedOut') {
      this.setState((state) => ({ ...state, alert: DOMAIN_MESSAGES.reloadError }));
      return;
    }
    // A push (not an answer to a call of theirs) is ignored by status-3 users [R4.1-2].
    if (signal.via === 'push' && !handlesMaintenancePush(this.currentUser.user?.login_info.status)) return;
    for (const effect of signal.effects) {
      switch (effect.type) {
        case 'showMaintenanceScreen':
          this.setState((state) => ({ ...state, screen: { code: effect.code, info: effect.info } }));
          break;
        case 'showAlert':
          this.setState((state) => ({ ...state, alert: effect.message }));
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
