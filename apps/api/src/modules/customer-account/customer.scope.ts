import { and, eq, sql, type SQL } from 'drizzle-orm';
import { notFound } from '@pos/domain/errors';
import type { Db, Tx } from '../../db/client.ts';
import { customer, setting } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';

/**
 * Per-store or shared customers (issue 21.6), a shop setting: the shared setting (no user)
 * `customers_per_store` = "true" limits each customer to the store that registered them
 * (`customer.store_id`, set at creation to the caller's first store); customers from before, with
 * no store, stay shared. Without the setting every store sees every customer (the old behaviour).
 */
export const CUSTOMERS_PER_STORE = 'customers_per_store';

export function customerScope(auth: Pick<AuthInfo, 'storeIds'>): SQL {
  const stores = auth.storeIds.length ? auth.storeIds : [-1];
  return sql`(not exists (select 1 from ${setting} where ${setting.name} = ${CUSTOMERS_PER_STORE} and ${setting.userId} is null and lower(${setting.value}) in ('true', '1'))
    or ${customer.storeId} is null or ${customer.storeId} in (${sql.join(stores.map((s) => sql`${s}`), sql`, `)}))`;
}

/** 404 unless the customer exists and the caller's stores may see them. */
export async function assertCustomerVisible(db: Db | Tx, id: number, auth: Pick<AuthInfo, 'storeIds'>) {
  const [row] = await (db as Db).select({ id: customer.id }).from(customer).where(and(eq(customer.id, id), customerScope(auth)));
  if (!row) throw notFound('Customer not found');
}
