import { supplierPayment, supplierStore } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { exact, linkedToStores } from '../../resources/filters.ts';
import { presentSupplierPayment } from './purchasing.present.ts';

/** /api/supplier_payments (list, item): payments to suppliers the caller can see. POST (ROLE_ADMIN) is in modules/purchasing/purchasing.routes.ts. */
export const supplierPaymentsResource: ResourceDef<typeof supplierPayment.$inferSelect> = {
  path: 'supplier_payments',
  type: 'SupplierPayment',
  table: supplierPayment,
  filters: {
    id: exact(supplierPayment.id, 'int'),
    supplier: exact(supplierPayment.supplierId, 'int'),
    'supplier.id': exact(supplierPayment.supplierId, 'int'),
    purchase: exact(supplierPayment.purchaseId, 'int'),
    'purchase.id': exact(supplierPayment.purchaseId, 'int'),
  },
  sorts: { id: supplierPayment.id, createdAt: supplierPayment.createdAt, amount: supplierPayment.amount },
  scope: (ctx) => linkedToStores(supplierStore, supplierPayment.supplierId, ctx.auth.storeIds),
  present: (rows, ctx) => presentSupplierPayment(ctx.db, rows),
  access: { read: 'purchasing', write: 'purchasing' },
};
