/**
 * Staff permissions and roles (issue 21.1), shared by the server (enforcement) and the web app
 * (hiding what the user may not do). The names are the wire values: a custom role is a list of them.
 */
export const PERMISSIONS = [
  'discount.overLimit',     // a line or order discount above the store's limit
  'price.override',         // a unit price other than the catalogue's
  'sale.refund',            // returns and refunds
  'refund.cashForNonCash',  // refund a card (non-cash) payment in cash
  'sale.void',              // delete (void) or clear a completed sale, restore one
  'drawer.open',            // open the cash drawer without a sale
  'cost.view',              // see cost prices and margins
  'customer.creditTerms',   // allowCreditSale, creditLimit, openingBalance; ID numbers; erase a customer
  'customer.payments',      // record customer payments (beyond what is owed needs creditTerms)
  'closing.edit',           // edit a day closing's figures, close a day
  'products.manage',        // catalogue: products, categories, taxes, discounts, imports and exports
  'purchasing',             // suppliers, purchases, purchase orders, stock transfers, counts (open, scan), reorder
  'stock.adjust',           // stock adjustments with reasons, approving a stock count (writes its variances)
  'expenses',               // record and delete expenses
  'users',                  // users and roles
  'settings',               // stores, terminals, payment types, settings
  'audit.view',             // the audit log
  'reports.view',           // back-office reports: sales, top sellers and slow movers, customer and supplier balances (margins also need cost.view)
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const isPermission = (x: unknown): x is Permission => typeof x === 'string' && (PERMISSIONS as readonly string[]).includes(x);

/** Built-in roles. Owner: every permission (and manages owners and managers); Manager: everything in their stores; Cashier: the till. */
export const BUILTIN_ROLES = ['owner', 'manager', 'cashier'] as const;
export type BuiltinRole = (typeof BUILTIN_ROLES)[number];

export const CASHIER_PERMISSIONS: readonly Permission[] = ['customer.payments', 'sale.refund'];
const MANAGER_EXCLUDED: readonly Permission[] = [];

export const BUILTIN_PERMISSIONS: Record<BuiltinRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  manager: PERMISSIONS.filter((p) => !MANAGER_EXCLUDED.includes(p)),
  cashier: CASHIER_PERMISSIONS,
};

/** The old client's roles: ROLE_ADMIN is an Owner, ROLE_USER a Cashier (what each could do before roles). */
export function builtinOfLegacy(roles: readonly string[]): BuiltinRole {
  return roles.includes('ROLE_ADMIN') ? 'owner' : 'cashier';
}

/** The legacy roles array the old client reads for a role: only an Owner is ROLE_ADMIN. */
export function legacyRolesOf(role: BuiltinRole | 'custom'): string[] {
  return role === 'owner' ? ['ROLE_ADMIN'] : ['ROLE_USER'];
}

/** Digits only, 4 to 8 of them. */
export const PIN_PATTERN = /^\d{4,8}$/;
export const PIN_MESSAGE = 'A PIN is 4 to 8 digits.';
