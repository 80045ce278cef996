/** Adapters. Only src/main (and tests) import from here. */
export * from './http/http-config';
export * from './http/errors';
export * from './http/ky-http-client';
export * from './http/ky-service-api.adapter';
export * from './http/logout-guard';
export * from './http/service-signal-bus';
export * from './session/memory-session';
export * from './browser/location-navigator';
export * from './in-memory/in-memory-service-api';
