/** Adapters. Only src/main (and tests) import from here. */
export * from './http/http-config';
export * from './http/errors';
export * from './http/ky-service-api.adapter';
export * from './in-memory/in-memory-service-api';
