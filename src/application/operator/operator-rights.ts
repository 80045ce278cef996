import type { OperatorRole } from './ports/operator-api.port';

/**
 * What each role may do (docs/operator-console.md). The server checks every call; the console uses
 * this table only to show each operator the sections they can use.
 */
export const OPERATOR_RIGHTS = {
  floor: ['admin', 'floor'],
  kuji: ['admin', 'floor'],
  numbers: ['admin', 'floor'],
  fulfilment: ['admin', 'support'],
  support: ['admin', 'support'],
  users: ['admin', 'support'],
  broadcast: ['admin'],
  audit: ['admin'],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type OperatorRight = keyof typeof OPERATOR_RIGHTS;

export function roleHas(role: OperatorRole, right: OperatorRight): boolean {
  return (OPERATOR_RIGHTS[right] as readonly OperatorRole[]).includes(role);
}
