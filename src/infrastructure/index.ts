/** Adapters. Only src/main (and tests) import from here. */
export * from './http/http-config';
export * from './http/errors';
export * from './http/ky-http-client';
export * from './http/ky-prize-catalog.adapter';
export * from './http/logout-guard';
export * from './http/service-signal-bus';
export * from './session/memory-session';
export * from './browser/location-navigator';
export * from './in-memory/in-memory-prize-catalog';
export * from './in-memory/in-memory-backend';
