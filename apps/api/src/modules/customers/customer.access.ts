import { eq } from 'drizzle-orm';
import { forbidden, notFound } from '@pos/domain/errors';
import { parseMoney } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { customer } from '../../db/schema/index.ts';
import { can, type AuthInfo } from '../../plugins/auth.ts';
import type { CustomerInput } from './customer.input.ts';

/**
 * What a non-admin may not do to a customer (issue 21 point 6, until roles and permissions land):
 * set or change the credit terms (allowCredit/allowCreditSale, creditLimit, openingBalance) and
 * see the national ID (cnic). The old client sends the whole customer back on every edit, so a
 * term sent unchanged is accepted; a changed one is refused (403 naming the field), never dropped.
 */
const DEFAULTS = { allowCreditSale: false, creditLimit: null as string | null, openingBalance: '0' };

const cents = (v: string | null | undefined) => (v == null || v === '' ? null : parseMoney(v));

/** The field name the caller used for the credit flag: the form's `allowCredit` or the model's `allowCreditSale`. */
const flagName = (raw: unknown) => (raw && typeof raw === 'object' && 'allowCredit' in raw ? 'allowCredit' : 'allowCreditSale');

/** 403 naming the first credit term a non-admin tries to set (create) or change (update, `id`). */
export async function assertCreditTerms(db: Db, auth: AuthInfo, input: CustomerInput, raw: unknown, id?: number) {
  if (can(auth, 'customer.creditTerms')) return;
  let current = DEFAULTS;
  if (id !== undefined) {
    const [row] = await db.select({ allowCreditSale: customer.allowCreditSale, creditLimit: customer.creditLimit, openingBalance: customer.openingBalance })
      .from(customer).where(eq(customer.id, id));
    if (!row) throw notFound('Customer not found');
    current = row;
  }
  const refuse = (field: string) => { throw forbidden(`${field}: setting or changing it needs the 'customer.creditTerms' permission.`); };
  if (input.allowCreditSale !== undefined && input.allowCreditSale !== current.allowCreditSale) refuse(flagName(raw));
  if (input.creditLimit !== undefined && cents(input.creditLimit) !== cents(current.creditLimit)) refuse('creditLimit');
  if (input.openingBalance !== undefined && (cents(input.openingBalance) ?? 0) !== cents(current.openingBalance)) refuse('openingBalance');
}

/** A customer as a non-admin reads it: without the national ID. */
export function redactCustomer<T extends { cnic?: unknown }>(c: T, auth: AuthInfo): T {
  if (can(auth, 'customer.creditTerms')) return c;
  const { cnic: _hidden, ...rest } = c;
  return rest as T;
}
