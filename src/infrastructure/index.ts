/** Adapters. Only src/main (and tests) import from here. */
export * from './http/http-config';
export * from './http/errors';
export * from './http/ky-http-client';
export * from './http/retry-policy';
export * from './http/ky-prize-catalog.adapter';
export * from './http/ky-reservation.adapter';
export * from './http/ky-kuji-play.adapter';
export * from './http/logout-guard';
export * from './http/service-signal-bus.adapter';
export * from './session/stored-session.adapter';
export * from './browser/location-navigator.adapter';
export * from './time/system-clock.adapter';
export * from './http/ky-auth.adapter';
export * from './http/ky-account.adapter';
export * from './http/ky-wallet.adapter';
export * from './http/ky-prize-delivery.adapter';
