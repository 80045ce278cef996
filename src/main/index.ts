export * from './client-config';
export * from './container';
export * from './in-memory';
