/** The account and sign-in adapters' own chunk: loaded by the container's ports on their first call (container-core.ts). */
export { KyAccount, KyAuth } from '../../infrastructure';
