import { Subject, type Observable } from 'rxjs';
import type { ServiceSignal, ServiceSignalsPort } from '../../application';

/** The one stream of service-wide signals the HTTP transport publishes on. */
export class ServiceSignalBus implements ServiceSignalsPort {
  private readonly subject = new Subject<ServiceSignal>();
  readonly signals$: Observable<ServiceSignal> = this.subject.asObservable();

  publish(signal: ServiceSignal): void {
    this.subject.next(signal);
  }
}
