import { sql } from 'drizzle-orm';
import { productVariant, product } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { exact, partial } from '../../resources/filters.ts';
import { presentVariant } from './products.presenter.ts';
import { productVisible } from './shared.ts';
import { searchCondition } from '../../resources/search.ts';

/**
 * /api/product_variants: read-only (variants are written through their product). Used by the
 * client's DynamicValue cells (attributeValue of a variant IRI). Scoped through the product.
 */
export const productVariantsResource: ResourceDef<typeof productVariant.$inferSelect> = {
  path: 'product_variants',
  type: 'ProductVariant',
  table: productVariant,
  filters: {
    id: exact(productVariant.id, 'int'),
    product: exact(productVariant.productId, 'int'),
    'product.id': exact(productVariant.productId, 'int'),
    'product.name': (v, _ctx, name = 'product.name') => {
      const c = searchCondition(product.name, v, name);
      return c && sql`${productVariant.productId} in (select ${product.id} from ${product} where ${c})`;
    },
    barcode: exact(productVariant.barcode),
    attributeValue: partial(productVariant.attributeValue),
    attributeName: partial(productVariant.attributeName),
    name: partial(productVariant.name),
  },
  sorts: { id: productVariant.id, name: productVariant.name, attributeValue: productVariant.attributeValue, barcode: productVariant.barcode, price: productVariant.price, quantity: productVariant.quantity },
  scope: (ctx) => productVisible(productVariant.productId, ctx.auth.storeIds),
  async present(rows) {
    return rows.map((v) => {
      const { '@id': _id, '@type': _type, ...rest } = presentVariant(v);
      return rest;
    });
  },
};
