import type { ResourceDef } from '../../resources/engine.ts';
import { terminalsResource } from '../../resources/definitions/terminals.ts';
import { usersResource } from '../../resources/definitions/users.ts';
import { discountsResource } from '../../resources/definitions/discounts.ts';
import { paymentTypesResource } from '../../resources/definitions/payment-types.ts';
import { departmentsResource } from '../../resources/definitions/departments.ts';
import { categoriesResource } from '../../resources/definitions/categories.ts';
import { brandsResource } from '../../resources/definitions/brands.ts';
import { suppliersResource } from '../../resources/definitions/suppliers.ts';
import { settingsResource } from '../../resources/definitions/settings.ts';
import { devicesResource } from '../../resources/definitions/devices.ts';
import { productsResource } from '../../resources/definitions/products.ts';
import { barcodesResource } from '../../resources/definitions/barcodes.ts';
import { productVariantsResource } from '../../resources/definitions/product-variants.ts';

/** The catalogue and reference-data resources (issue 3), registered in resources/registry.ts. */
export const catalogueResources: ResourceDef[] = [
  terminalsResource, usersResource, discountsResource, paymentTypesResource, departmentsResource, categoriesResource,
  brandsResource, suppliersResource, settingsResource, devicesResource, productsResource, barcodesResource, productVariantsResource,
];
