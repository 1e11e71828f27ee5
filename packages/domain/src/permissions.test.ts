import { describe, expect, it } from 'vitest';
import { BUILTIN_PERMISSIONS, PERMISSIONS, PIN_PATTERN, builtinOfLegacy, legacyRolesOf, isPermission } from './permissions.ts';

describe('permissions and roles', () => {
  it('the old roles map onto Owner and Cashier, and back', () => {
    expect(builtinOfLegacy(['ROLE_ADMIN', 'ROLE_USER'])).toBe('owner');
    expect(builtinOfLegacy(['ROLE_USER'])).toBe('cashier');
    expect(builtinOfLegacy([])).toBe('cashier');
    expect(legacyRolesOf('owner')).toEqual(['ROLE_ADMIN']);
    expect(legacyRolesOf('manager')).toEqual(['ROLE_USER']);
    expect(legacyRolesOf('custom')).toEqual(['ROLE_USER']);
  });

  it('the Owner holds every permission; a Cashier neither discounts above the limit nor sees costs', () => {
    expect([...BUILTIN_PERMISSIONS.owner].sort()).toEqual([...PERMISSIONS].sort());
    for (const p of ['discount.overLimit', 'price.override', 'cost.view', 'customer.creditTerms', 'users', 'audit.view'] as const) {
      expect(BUILTIN_PERMISSIONS.cashier).not.toContain(p);
    }
  });

  it('names are checked; a PIN is 4 to 8 digits', () => {
    expect(isPermission('sale.refund')).toBe(true);
    expect(isPermission('launch.rockets')).toBe(false);
    expect(['1234', '12345678'].every((p) => PIN_PATTERN.test(p))).toBe(true);
    expect(['123', '123456789', '12a4', ' 1234', ''].some((p) => PIN_PATTERN.test(p))).toBe(false);
  });
});
