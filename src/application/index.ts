/** onkure/application: use-cases (RxJS) and the ports they need. Imports only the domain. */
export * from './tokens';
export * from './app-config';
export * from './ports/prize-catalog.port';
export * from './use-cases/browse-top-page.use-case';
