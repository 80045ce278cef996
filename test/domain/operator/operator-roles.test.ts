import { describe, expect, it } from 'vitest';
import { OPERATOR_RIGHTS, OPERATOR_ROLE_RIGHTS, OPERATOR_ROLES, operatorRoleAllows } from '../../../src/domain';

describe('operator roles and their rights (docs/operator-console.md)', () => {
  it('[R10-9] each role holds the rights the table lists, in the order the console receives them', () => {
    expect(OPERATOR_ROLE_RIGHTS).toEqual({
      admin: [
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
        'money',
      ],
      floor: ['session', 'floor', 'kuji', 'numbers'],
      support: ['session', 'fulfilment', 'support', 'users'],
    });
  });

  it('[R10-9] an admin is allowed every right, every role its own session, only an admin the audit log and broadcasts', () => {
    expect(OPERATOR_RIGHTS.filter((right) => operatorRoleAllows('admin', right))).toEqual(OPERATOR_RIGHTS);
    expect(OPERATOR_ROLES.filter((role) => operatorRoleAllows(role, 'session'))).toEqual(OPERATOR_ROLES);
    expect(OPERATOR_ROLES.filter((role) => operatorRoleAllows(role, 'audit'))).toEqual(['admin']);
    expect(OPERATOR_ROLES.filter((role) => operatorRoleAllows(role, 'broadcast'))).toEqual(['admin']);
    expect(OPERATOR_ROLES.filter((role) => operatorRoleAllows(role, 'machines'))).toEqual(['admin']);
    expect(operatorRoleAllows('floor', 'fulfilment')).toBe(false);
    expect(operatorRoleAllows('support', 'floor')).toBe(false);
  });
});
