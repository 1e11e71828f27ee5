import type { FastifyPluginAsync } from 'fastify';
import type { ResourceDef } from '../resources/engine.ts';
import { storesResource } from './catalogue/stores.resource.ts';
import { taxesResource } from './catalogue/taxes.resource.ts';
import { catalogueResources } from './catalogue/resources.ts';
import { purchaseOrdersResource } from './purchasing/purchase-orders.resource.ts';
import { purchasesResource } from './purchasing/purchases.resource.ts';
import { supplierPaymentsResource } from './purchasing/supplier-payments.resource.ts';
import { purchaseItemsResource } from './purchasing/purchase-items.resource.ts';
import authRoutes from './auth/auth.routes.ts';
import catalogueRoutes from './catalogue/catalogue.routes.ts';
import catalogueSyncRoutes from './catalogue/catalogue-sync.routes.ts';
import salesRoutes from './sales/sales.routes.ts';
import customersRoutes from './customers/customers.routes.ts';
import receiptsRoutes from './receipts/receipts.routes.ts';
import purchasingRoutes from './purchasing/purchasing.routes.ts';
import expensesRoutes from './cash/expenses.routes.ts';
import closingRoutes from './cash/closing.routes.ts';
import stockRoutes from './stock/stock.routes.ts';
import stockLedgerRoutes from './stock/stock-ledger.routes.ts';
import printingRoutes from './printing/printing.routes.ts';
import printAgentRoutes from './printing/agent.routes.ts';
import setupRoutes from '../setup/setup.routes.ts';
import backupRoutes from './backup/backup.routes.ts';
import staffRoutes from './staff/staff.routes.ts';
import reportsRoutes from './reports/reports.routes.ts';

/** Route modules with business rules (sales, purchasing, closing...). Each registers its own routes. */
export const modules: FastifyPluginAsync[] = [authRoutes, catalogueRoutes, catalogueSyncRoutes, purchasingRoutes, expensesRoutes, closingRoutes, receiptsRoutes, salesRoutes, customersRoutes, stockRoutes, stockLedgerRoutes, staffRoutes, reportsRoutes, printingRoutes, printAgentRoutes, setupRoutes, backupRoutes];

/** Every plain resource served by the generic engine (resources/engine.ts); each definition lives in the module that owns its rules. */
export const resources: ResourceDef[] = [storesResource, taxesResource, ...catalogueResources, purchaseOrdersResource, purchasesResource, supplierPaymentsResource, purchaseItemsResource];
