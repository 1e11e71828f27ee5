import { eq } from 'drizzle-orm';
import { notFound } from '@pos/domain/errors';
import type { Db } from '../../db/client.ts';
import { customer, order } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { audit } from '../../lib/audit.ts';
import { assertCustomerVisible } from '../customer-account/customer.scope.ts';

/**
 * Erases a customer on request (issue 21.6): every personal field is blanked in one transaction
 * (name replaced by "Erased customer #id", contact, birthday, address, location, ID number), the
 * name copied onto their sales is removed; the sales, payments and balance stay, now anonymous.
 * The audit entry names the record only, never the person.
 */
export async function eraseCustomer(db: Db, id: number, auth: AuthInfo) {
  await assertCustomerVisible(db, id, auth);
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ id: customer.id, erasedAt: customer.erasedAt }).from(customer).where(eq(customer.id, id)).for('update');
    if (!row) throw notFound('Customer not found');
    await tx.update(customer).set({
      name: `Erased customer #${id}`, email: null, phone: null, birthday: null, address: null, lat: null, lng: null, cnic: null,
      erasedAt: row.erasedAt ?? new Date(), updatedAt: new Date(),
    }).where(eq(customer.id, id));
    const sales = await tx.update(order).set({ customerName: null }).where(eq(order.customerId, id)).returning({ id: order.id });
    await audit(tx, { action: 'customer.erased', actor: auth, entity: 'customer', entityId: id, details: { sales: sales.length } });
    return { '@id': `/api/customers/${id}`, erased: true, sales: sales.length, erasedAt: (row.erasedAt ?? new Date()).toISOString() };
  });
}
