export * from './client-config';
export * from './container';
export * from './create-onkure-client';
