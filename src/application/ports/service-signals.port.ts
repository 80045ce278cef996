import type { Observable } from 'rxjs';
import type { MaintenanceCodeName, MaintenanceEffect } from '../../domain';

/**
 * What the transport learns about the service as a whole, whichever call it came with: a
 * maintenance-class answer [R8-5, R8-6, R4.6-1, R4.6-2] or a request blocked by the logout cookie [R6-9].
 */
export type ServiceSignal =
  | {
      readonly kind: 'maintenance';
      readonly code: MaintenanceCodeName;
      readonly error_code: number;
      readonly effects: readonly MaintenanceEffect[];
      /** How it came: with a call's answer (default), or pushed by the operator over the socket (§8). */
      readonly via?: 'answer' | 'push';
    }
  | { readonly kind: 'loggedOut' };

export interface ServiceSignalsPort {
  readonly signals$: Observable<ServiceSignal>;
}
