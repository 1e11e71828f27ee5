import { exists, sql, type SQL } from 'drizzle-orm';
import {
  brand, category, department, product, productBrand, productCategory, productSupplier, productTax, productTerminal,
  productVariant, supplier, tax,
} from '../../db/schema/index.ts';
import type { FilterFn, ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, throughPartial } from '../../resources/filters.ts';
import { presentProducts, presentProductsJson } from './products.presenter.ts';
import { createProduct, productBody, productUpdateBody, updateProduct } from './products.service.ts';
import { productVisible } from './shared.ts';
import { searchCondition } from '../../resources/search.ts';

const first = (v: string | string[]) => (Array.isArray(v) ? v[0] : v);

/** barcode=X matches the product's barcode or one of its variants' barcodes (exact). */
const barcodeFilter: FilterFn = (v) => {
  const code = first(v).trim();
  // One IN over a union of two unique-index lookups (an OR with a correlated EXISTS reads every product).
  return sql`${product.id} in (select ${product.id} from ${product} where ${product.barcode} = ${code}
    union all select ${productVariant.productId} from ${productVariant} where ${productVariant.barcode} = ${code})`;
};

/** store=<id>: products stocked in that store (a product_store row) or catalogue-wide (no row at all). */
const storeFilter: FilterFn = (v) => {
  const id = Number(/(\d+)$/.exec(first(v))?.[1]);
  return Number.isInteger(id) ? productVisible(product.id, [id]) : undefined;
};

const linkedTo = (link: typeof productTerminal): FilterFn => (v) => {
  const id = Number(/(\d+)$/.exec(first(v))?.[1]);
  if (!Number.isInteger(id) || id > 2147483647) return sql`false`;
  return exists(sql`(select 1 from ${link} where ${link.productId} = ${product.id} and ${link.otherId} = ${id})`);
};

/** Sorting by a to-many relation sorts by its first name (alphabetically). */
const firstName = (link: typeof productCategory, other: { id: any; name: any }): SQL =>
  sql`(select min(o.name) from ${link} l join ${other as any} o on o.id = l.${sql.identifier(link.otherId.name)} where l.product_id = ${product.id})`;

/**
 * /api/products: the catalogue with every relation embedded (see products.presenter.ts). Paged by
 * id with relations batch-loaded per page. Scoped through per-store stock rows (shared.ts).
 * Create/update bodies: reference client 2.3a; PUT is a merge (toggle = {isActive}).
 */
export const productsResource: ResourceDef<typeof product.$inferSelect> = {
  path: 'products',
  type: 'Product',
  table: product,
  filters: {
    id: exact(product.id, 'int'),
    name: partial(product.name),
    sku: partial(product.sku),
    barcode: barcodeFilter,
    basePrice: exact(product.basePrice, 'number'),
    cost: exact(product.cost, 'number'),
    isActive: bool(product.isActive),
    isAvailable: bool(product.isAvailable),
    manageInventory: bool(product.manageInventory),
    'department.name': (v, _ctx, name = 'department.name') => {
      const c = searchCondition(department.name, v, name);
      return c && sql`${product.departmentId} in (select ${department.id} from ${department} where ${c})`;
    },
    'department.id': exact(product.departmentId, 'int'),
    department: exact(product.departmentId, 'int'),
    'categories.name': throughPartial(productCategory, productCategory.productId, product.id, productCategory.otherId, category, category.name),
    'suppliers.name': throughPartial(productSupplier, productSupplier.productId, product.id, productSupplier.otherId, supplier, supplier.name),
    'brands.name': throughPartial(productBrand, productBrand.productId, product.id, productBrand.otherId, brand, brand.name),
    'taxes.name': throughPartial(productTax, productTax.productId, product.id, productTax.otherId, tax, tax.name),
    'categories.id': linkedTo(productCategory),
    'brands.id': linkedTo(productBrand),
    'suppliers.id': linkedTo(productSupplier),
    'taxes.id': linkedTo(productTax),
    'terminals.id': linkedTo(productTerminal),
    store: storeFilter,
    'stores.store': storeFilter,
  },
  sorts: {
    id: product.id,
    name: product.name,
    barcode: product.barcode,
    basePrice: product.basePrice,
    cost: product.cost,
    sku: product.sku,
    isActive: product.isActive,
    updatedAt: product.updatedAt,
    'department.name': sql`(select ${department.name} from ${department} where ${department.id} = ${product.departmentId})`,
    'categories.name': firstName(productCategory, category),
    'suppliers.name': firstName(productSupplier, supplier),
    'brands.name': firstName(productBrand, brand),
    'taxes.name': firstName(productTax, tax),
  },
  scope: (ctx) => productVisible(product.id, ctx.auth.storeIds),
  // The till's reference call (?isActive=true, id order), the plain list and the back office's
  // list by name: paged through the position index, so page 1,000 of 100,000 costs what page 1 costs.
  positionIndex: { filters: ['isActive', 'isAvailable', 'manageInventory'], sorts: ['name'] },
  present: (rows, ctx) => presentProducts(rows, ctx),
  presentIdsJson: (ids, ctx) => presentProductsJson(ids, ctx),
  create: { schema: productBody, run: (tx, input, ctx) => createProduct(tx, input, ctx) },
  update: { schema: productUpdateBody, run: (tx, id, input, ctx) => updateProduct(tx, id, input, ctx) },
};

