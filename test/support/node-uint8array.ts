import { afterAll, beforeAll } from 'vitest';

/**
 * Node's own Uint8Array as the global one while the calling file runs (call at its top level).
 * Under jsdom the global is the page's, and the embedded store's driver checks each bytea parameter
 * (a session's or a key's hash, a Node Buffer) with `instanceof Uint8Array`: it would refuse every
 * sign-in and key of a server started in the same file.
 */
export function useNodeUint8Array(): void {
  const pageUint8Array = globalThis.Uint8Array;
  beforeAll(() => {
    globalThis.Uint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
  });
  afterAll(() => {
    globalThis.Uint8Array = pageUint8Array;
  });
}
