import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { text, refList, flag, decimal, email } from '@pos/domain/wire-fields';
import { validationError } from '@pos/domain/errors';
import { paymentType, purchase, purchaseOrder, supplier, supplierPayment, supplierStore } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, storeLinkFilter, storeLinkScope } from '../../resources/filters.ts';
import { num, setStoreLinks, storesByOwner } from '../../lib/present.ts';
import { assertCallerStores } from '../../lib/scope.ts';
import { ADD_STORES, stamps, optText } from './shared.ts';

const body = z.object({
  name: text(),
  phone: text(50),
  email: email(),
  whatsApp: optText(50),
  fax: optText(50),
  address: optText(),
  openingBalance: decimal(),
  stores: refList(ADD_STORES),
  isActive: flag().optional(),
});

/**
 * Suppliers, store-linked. Read-only ledger figures as in the reference (4.7), over the caller's
 * stores' purchases: purchaseTotal = openingBalance + credit purchases, paid = payments,
 * outstanding = purchaseTotal - paid.
 */
export const suppliersResource: ResourceDef<typeof supplier.$inferSelect> = {
  path: 'suppliers',
  type: 'Supplier',
  table: supplier,
  filters: {
    name: partial(supplier.name), phone: partial(supplier.phone), email: partial(supplier.email),
    openingBalance: exact(supplier.openingBalance, 'number'), isActive: bool(supplier.isActive),
    id: exact(supplier.id, 'int'), store: storeLinkFilter(supplierStore, supplier.id),
  },
  sorts: { id: supplier.id, name: supplier.name, phone: supplier.phone, email: supplier.email, openingBalance: supplier.openingBalance },
  scope: storeLinkScope(supplierStore, supplier.id),
  async present(rows, ctx) {
    const ids = rows.map((r) => r.id);
    const stores = await storesByOwner(ctx.db, supplierStore, ids);
    const credit = new Map<number, number>();
    const paid = new Map<number, number>();
    if (ids.length) {
      if (ctx.auth.storeIds.length) {
        const pr = await ctx.db.select({ id: purchase.supplierId, total: sql<string>`coalesce(sum(${purchase.total}), 0)` })
          .from(purchase).innerJoin(paymentType, eq(paymentType.id, purchase.paymentTypeId))
          .where(and(inArray(purchase.supplierId, ids), eq(paymentType.type, 'credit'), inArray(purchase.storeId, ctx.auth.storeIds)))
          .groupBy(purchase.supplierId);
        for (const r of pr) credit.set(r.id!, Number(r.total));
      }
      const pay = await ctx.db.select({ id: supplierPayment.supplierId, total: sql<string>`coalesce(sum(${supplierPayment.amount}), 0)` })
        .from(supplierPayment).where(inArray(supplierPayment.supplierId, ids)).groupBy(supplierPayment.supplierId);
      for (const r of pay) paid.set(r.id, Number(r.total));
    }
    return rows.map((s) => {
      const purchaseTotal = Math.round((Number(s.openingBalance) + (credit.get(s.id) ?? 0)) * 100) / 100;
      const p = paid.get(s.id) ?? 0;
      return {
        id: s.id, name: s.name, phone: s.phone, email: s.email, whatsApp: s.whatsApp, fax: s.fax, address: s.address,
        openingBalance: num(s.openingBalance), isActive: s.isActive, stores: stores.get(s.id) ?? [],
        purchaseTotal, paid: p, outstanding: Math.round((purchaseTotal - p) * 100) / 100, ...stamps(s),
      };
    });
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      assertCallerStores(ctx.auth, input.stores, 'stores');
      const { stores, ...fields } = input;
      const [row] = await tx.insert(supplier).values({ ...fields, isActive: input.isActive ?? true }).returning({ id: supplier.id });
      await setStoreLinks(tx, supplierStore, row.id, stores, ctx.auth.storeIds);
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const { stores, ...fields } = input;
      if (Object.keys(fields).length) await tx.update(supplier).set({ ...fields, updatedAt: new Date() }).where(eq(supplier.id, id));
      if (stores) {
        assertCallerStores(ctx.auth, stores, 'stores');
        await setStoreLinks(tx, supplierStore, id, stores, ctx.auth.storeIds);
      }
    },
  },
  /**
   * Deletes the supplier with its purchases, purchase orders and payments (database cascades), as the
   * client's confirmation says. Stock already received stays (its ledger rows stay too). Refused with
   * 422 when the supplier is also linked to, or has purchases in, a store the caller does not manage.
   */
  async remove(tx, id, ctx) {
    const mine = ctx.auth.storeIds.length ? ctx.auth.storeIds : [-1];
    const [links] = await tx.select({ n: sql<number>`count(*)::int` }).from(supplierStore)
      .where(and(eq(supplierStore.ownerId, id), notInArray(supplierStore.storeId, mine)));
    const [buys] = await tx.select({ n: sql<number>`count(*)::int` }).from(purchase)
      .where(and(eq(purchase.supplierId, id), notInArray(purchase.storeId, mine)));
    const [pos] = await tx.select({ n: sql<number>`count(*)::int` }).from(purchaseOrder)
      .where(and(eq(purchaseOrder.supplierId, id), notInArray(purchaseOrder.storeId, mine)));
    if (Number(links.n) + Number(buys.n) + Number(pos.n) > 0) {
      throw validationError([{ propertyPath: 'stores', message: 'This supplier is also used by stores you do not manage.' }]);
    }
    await tx.delete(supplier).where(eq(supplier.id, id));
  },
};
