import type { ResourceDef } from './engine.ts';
import { storesResource } from './definitions/stores.ts';
import { taxesResource } from './definitions/taxes.ts';
import { catalogueResources } from '../modules/catalogue/resources.ts';
import { purchaseOrdersResource } from './definitions/purchase-orders.ts';
import { purchasesResource } from './definitions/purchases.ts';
import { supplierPaymentsResource } from './definitions/supplier-payments.ts';
import { purchaseItemsResource } from './definitions/purchase-items.ts';

/** Every plain resource served by the engine. Add a definition here to expose it. */
export const resources: ResourceDef[] = [storesResource, taxesResource, ...catalogueResources, purchaseOrdersResource, purchasesResource, supplierPaymentsResource, purchaseItemsResource];
