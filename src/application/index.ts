/** onkure/application: use-cases (RxJS) and the ports they need. Imports only the domain. */
export * from './tokens';
export * from './app-config';
export * from './ports/prize-catalog.port';
export * from './ports/reservation.port';
export * from './ports/kuji-play.port';
export * from './use-cases/state-store';
export * from './use-cases/browse-top-page.use-case';
export * from './ports/session.port';
export * from './ports/service-signals.port';
export * from './ports/navigator.port';
export * from './ports/clock.port';
export * from './use-cases/service-maintenance.use-case';
export * from './ports/auth.port';
export * from './ports/account.port';
export * from './ports/wallet.port';
export * from './ports/prize-delivery.port';
