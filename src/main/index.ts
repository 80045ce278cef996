export * from './client-config';
export * from './container';
