/**
 * onkure/infrastructure: the real adapters (ky, stored session, system clock, …) and
 * `createOnkureClient`, which wires them to the use-cases with no React.
 */
export * from '../infrastructure';
export * from './create-onkure-client';
export { createAppContainer, type HostEnvironment, type Override } from './container';
export type { ClientConfig } from './client-config';
