import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import type {
  AccountPort,
  AuthPort,
  BuildManifestPort,
  ClipPort,
  KujiPlayPort,
  ReloadMarkPort,
  NavigatorPort,
  PrizeCatalogPort,
  PrizeDeliveryPort,
  ReservationPort,
  ServiceSignal,
  ServiceSignalsPort,
  SessionPort,
  SupportPort,
  WalletPort,
} from '../application';
import type { AuthIdentity } from '../domain';
import { Scripted } from './scripted';

/** PrizeCatalogPort with answers given by the test. */
export class ScriptedPrizeCatalog extends Scripted<PrizeCatalogPort> {
  constructor() {
    super('PrizeCatalogPort');
  }
}

/** ClipPort (videos of plays) with answers given by the test. */
export class ScriptedClips extends Scripted<ClipPort> {
  constructor() {
    super('ClipPort');
  }
}

/** ReservationPort with answers given by the test. */
export class ScriptedReservation extends Scripted<ReservationPort> {
  constructor() {
    super('ReservationPort');
  }
}

/** KujiPlayPort with answers given by the test. */
export class ScriptedKujiPlay extends Scripted<KujiPlayPort> {
  constructor() {
    super('KujiPlayPort');
  }
}

/** AuthPort with answers given by the test. */
export class ScriptedAuth extends Scripted<AuthPort> {
  constructor() {
    super('AuthPort');
  }
}

/** AccountPort with answers given by the test. */
export class ScriptedAccount extends Scripted<AccountPort> {
  constructor() {
    super('AccountPort');
  }
}

/** WalletPort with answers given by the test. */
export class ScriptedWallet extends Scripted<WalletPort> {
  constructor() {
    super('WalletPort');
  }
}

/** PrizeDeliveryPort with answers given by the test. */
export class ScriptedPrizeDelivery extends Scripted<PrizeDeliveryPort> {
  constructor() {
    super('PrizeDeliveryPort');
  }
}

/** SupportPort with answers given by the test. */
export class ScriptedSupport extends Scripted<SupportPort> {
  constructor() {
    super('SupportPort');
  }
}

/** A SessionPort holding whatever identity the test signs in; `identity$` follows it. */
export class FakeSession implements SessionPort {
  private readonly identity = new BehaviorSubject<AuthIdentity | null>(null);
  readonly identity$: Observable<AuthIdentity | null> = this.identity.asObservable();

  constructor(initial: AuthIdentity | null = null) {
    this.identity.next(initial);
  }

  current(): AuthIdentity | null {
    return this.identity.value;
  }

  signIn(identity: AuthIdentity): void {
    this.identity.next(identity);
  }

  signOut(): void {
    this.identity.next(null);
  }
}

/** BuildManifestPort with answers given by the test (the served build id, or null). */
export class ScriptedBuildManifest extends Scripted<BuildManifestPort> {
  constructor() {
    super('BuildManifestPort');
  }
}

/** A ReloadMarkPort kept in memory (a tab's session storage in the browser). */
export class MemoryReloadMark implements ReloadMarkPort {
  constructor(private at: number | null = null) {}

  lastReloadAt(): number | null {
    return this.at;
  }

  markReload(at: number): void {
    this.at = at;
  }
}

/** A NavigatorPort that records where the app asked to go instead of leaving the page. */
export class RecordingNavigator implements NavigatorPort {
  readonly visits: ({ readonly kind: 'reload' } | { readonly kind: 'goTo'; readonly url: string })[] = [];

  reload(): void {
    this.visits.push({ kind: 'reload' });
  }

  goTo(url: string): void {
    this.visits.push({ kind: 'goTo', url });
  }
}

/** A ServiceSignalsPort the test pushes signals through (`emit`). */
export class FakeServiceSignals implements ServiceSignalsPort {
  private readonly subject = new Subject<ServiceSignal>();
  readonly signals$: Observable<ServiceSignal> = this.subject.asObservable();

  emit(signal: ServiceSignal): void {
    this.subject.next(signal);
  }
}
