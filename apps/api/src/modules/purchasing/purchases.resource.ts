import { paymentType, purchase, purchaseOrder, store, supplier } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { exact, partial, storeColumnScope } from '../../resources/filters.ts';
import { datePartial, relatedPartial, relatedSort } from './purchasing.filters.ts';
import { presentPurchases } from './purchasing.present.ts';

/**
 * /api/purchases (list, item): goods receipts of the caller's stores. Writes (ROLE_ADMIN) are
 * custom routes in modules/purchasing/purchasing.routes.ts: the client sends `createdAt`, which the
 * engine treats as read-only.
 */
export const purchasesResource: ResourceDef<typeof purchase.$inferSelect> = {
  path: 'purchases',
  type: 'Purchase',
  table: purchase,
  filters: {
    id: exact(purchase.id, 'int'),
    purchaseNumber: partial(purchase.purchaseNumber),
    purchaseMode: exact(purchase.purchaseMode),
    'purchaseOrder.poNumber': relatedPartial(purchase.purchaseOrderId, purchaseOrder, purchaseOrder.poNumber),
    purchaseOrder: exact(purchase.purchaseOrderId, 'int'),
    'supplier.name': relatedPartial(purchase.supplierId, supplier, supplier.name),
    supplier: exact(purchase.supplierId, 'int'),
    'supplier.id': exact(purchase.supplierId, 'int'),
    'paymentType.name': relatedPartial(purchase.paymentTypeId, paymentType, paymentType.name),
    createdAt: datePartial(purchase.createdAt),
    store: exact(purchase.storeId, 'int'),
    'store.id': exact(purchase.storeId, 'int'),
  },
  sorts: {
    id: purchase.id, purchaseNumber: purchase.purchaseNumber, purchaseMode: purchase.purchaseMode, createdAt: purchase.createdAt, total: purchase.total,
    'purchaseOrder.poNumber': relatedSort(purchase.purchaseOrderId, purchaseOrder, purchaseOrder.poNumber),
    'supplier.name': relatedSort(purchase.supplierId, supplier, supplier.name),
    'paymentType.name': relatedSort(purchase.paymentTypeId, paymentType, paymentType.name),
    'store.name': relatedSort(purchase.storeId, store, store.name),
  },
  scope: storeColumnScope(purchase.storeId, false),
  present: (rows, ctx) => presentPurchases(ctx.db, rows),
  access: { read: 'purchasing', write: 'purchasing' },
};
