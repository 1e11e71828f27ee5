import type { ResourceDef } from '../../resources/engine.ts';
import { terminalsResource } from './terminals.resource.ts';
import { usersResource } from './users.resource.ts';
import { discountsResource } from './discounts.resource.ts';
import { paymentTypesResource } from './payment-types.resource.ts';
import { departmentsResource } from './departments.resource.ts';
import { categoriesResource } from './categories.resource.ts';
import { brandsResource } from './brands.resource.ts';
import { suppliersResource } from './suppliers.resource.ts';
import { settingsResource } from './settings.resource.ts';
import { devicesResource } from './devices.resource.ts';
import { productsResource } from './products.resource.ts';
import { barcodesResource } from './barcodes.resource.ts';
import { productVariantsResource } from './product-variants.resource.ts';

/** The catalogue and reference-data resources (issue 3), registered in modules/registry.ts. */
export const catalogueResources: ResourceDef[] = [
  terminalsResource, usersResource, discountsResource, paymentTypesResource, departmentsResource, categoriesResource,
  brandsResource, suppliersResource, settingsResource, devicesResource, productsResource, barcodesResource, productVariantsResource,
];
