import type { OperatorIdentity, OperatorRight } from './ports/operator-api.port';

/**
 * Whether the operator holds `right`, as the server said at sign-in (`rights` of operator/login and
 * operator/me). The console uses it only to show each operator the sections they can use; the
 * server checks every call anyway.
 */
export function operatorHas(operator: OperatorIdentity | null, right: OperatorRight): boolean {
  return operator !== null && operator.rights.includes(right);
}
