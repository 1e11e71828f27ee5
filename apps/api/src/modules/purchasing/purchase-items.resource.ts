import { inArray, sql } from 'drizzle-orm';
import { purchase, purchaseItem } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { exact } from '../../resources/filters.ts';
import { datePartial, existsQ, relatedSort } from './purchasing.filters.ts';
import { presentPurchaseItemRows } from './purchasing.present.ts';

/**
 * GET /api/purchase_items (read-only): purchase lines of the caller's stores, for the item detail
 * dialog's Purchases tab (`item.id=<IRI>&order[purchase.purchaseNumber]=desc`).
 */
export const purchaseItemsResource: ResourceDef<typeof purchaseItem.$inferSelect> = {
  path: 'purchase_items',
  type: 'PurchaseItem',
  table: purchaseItem,
  filters: {
    id: exact(purchaseItem.id, 'int'),
    item: exact(purchaseItem.itemId, 'int'),
    'item.id': exact(purchaseItem.itemId, 'int'),
    purchase: exact(purchaseItem.purchaseId, 'int'),
    'purchase.id': exact(purchaseItem.purchaseId, 'int'),
    'purchase.purchaseNumber': (v) => existsQ(sql`select 1 from ${purchase} where ${purchase.id} = ${purchaseItem.purchaseId} and ${inArray(purchase.purchaseNumber, Array.isArray(v) ? v : [v])}`),
    quantity: exact(purchaseItem.quantity, 'number'),
    quantityRequested: exact(purchaseItem.quantityRequested, 'number'),
    purchasePrice: exact(purchaseItem.purchasePrice, 'number'),
    createdAt: datePartial(purchaseItem.createdAt),
  },
  sorts: {
    id: purchaseItem.id, createdAt: purchaseItem.createdAt, quantity: purchaseItem.quantity, quantityRequested: purchaseItem.quantityRequested,
    purchasePrice: purchaseItem.purchasePrice,
    'purchase.purchaseNumber': relatedSort(purchaseItem.purchaseId, purchase, purchase.purchaseNumber),
    'purchase.createdAt': relatedSort(purchaseItem.purchaseId, purchase, purchase.createdAt),
  },
  scope: (ctx) => existsQ(sql`select 1 from ${purchase} where ${purchase.id} = ${purchaseItem.purchaseId} and ${ctx.auth.storeIds.length ? inArray(purchase.storeId, ctx.auth.storeIds) : sql`false`}`),
  present: (rows, ctx) => presentPurchaseItemRows(ctx.db, rows),
  access: { read: 'purchasing', write: 'purchasing' },
};
