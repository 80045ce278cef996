/** The roles of operator accounts (docs/operator-console.md). */
export const OPERATOR_ROLES = ['admin', 'floor', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * What an operator call needs: each call names one right, and each role is a set of rights.
 * `session`: one's own session (who am I, sign out), which every role has; `users`: look a player
 * up, message them, suspend and restore them; `broadcast`: service messages to everyone and the
 * emergency maintenance; `numbers`: the figures per station per day; `machines`: the station
 * agents' keys (issue, rotate, revoke), which let a process drive real cabinets.
 */
export const OPERATOR_RIGHTS = [
  'session',
  'floor',
  'kuji',
  'fulfilment',
  'support',
  'audit',
  'users',
  'broadcast',
  'numbers',
  'machines',
  /** The money reconciliation (admins only). */
  'money',
] as const;
export type OperatorRight = (typeof OPERATOR_RIGHTS)[number];

/** The rights each role holds: the server refuses a call outside them, the console hides it. */
export const OPERATOR_ROLE_RIGHTS: Readonly<Record<OperatorRole, readonly OperatorRight[]>> = {
  admin: OPERATOR_RIGHTS,
  floor: ['session', 'floor', 'kuji', 'numbers'],
  support: ['session', 'fulfilment', 'support', 'users'],
};

/** Whether `role` holds `right`. */
export function operatorRoleAllows(role: OperatorRole, right: OperatorRight): boolean {
  return OPERATOR_ROLE_RIGHTS[role].includes(right);
}
