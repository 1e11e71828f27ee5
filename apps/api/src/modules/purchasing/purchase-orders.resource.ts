import { purchaseOrder, store, supplier } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, storeColumnScope } from '../../resources/filters.ts';
import { datePartial, relatedPartial, relatedSort } from './purchasing.filters.ts';
import { presentPurchaseOrders } from './purchasing.present.ts';

/**
 * /api/purchase_orders of the caller's stores. Open or Used (isUsed); a Used order cannot be
 * edited or deleted (409). `isUsed=null` from the picker is junk and ignored. Writes (ROLE_ADMIN)
 * are custom routes in modules/purchasing/purchasing.routes.ts (the client sends `createdAt`).
 */
export const purchaseOrdersResource: ResourceDef<typeof purchaseOrder.$inferSelect> = {
  path: 'purchase_orders',
  type: 'PurchaseOrder',
  table: purchaseOrder,
  filters: {
    id: exact(purchaseOrder.id, 'int'),
    poNumber: partial(purchaseOrder.poNumber),
    'supplier.name': relatedPartial(purchaseOrder.supplierId, supplier, supplier.name),
    supplier: exact(purchaseOrder.supplierId, 'int'),
    'supplier.id': exact(purchaseOrder.supplierId, 'int'),
    isUsed: bool(purchaseOrder.isUsed),
    createdAt: datePartial(purchaseOrder.createdAt),
    store: exact(purchaseOrder.storeId, 'int'),
    'store.id': exact(purchaseOrder.storeId, 'int'),
  },
  sorts: {
    id: purchaseOrder.id, poNumber: purchaseOrder.poNumber, createdAt: purchaseOrder.createdAt, isUsed: purchaseOrder.isUsed,
    'supplier.name': relatedSort(purchaseOrder.supplierId, supplier, supplier.name),
    'store.name': relatedSort(purchaseOrder.storeId, store, store.name),
  },
  scope: storeColumnScope(purchaseOrder.storeId, false),
  present: (rows, ctx) => presentPurchaseOrders(ctx.db, rows),
  access: { read: 'purchasing', write: 'purchasing' },
};
