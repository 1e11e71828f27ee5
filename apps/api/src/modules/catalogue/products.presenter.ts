import { sql, type SQL } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { preparedQuery } from '../../db/client.ts';
import { can } from '../../plugins/auth.ts';
import { pgArray } from '../../db/raw.ts';
import type { product, productPrice, productVariant } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { num } from '../../lib/present.ts';
import { ld, scopes, stamps } from './shared.ts';

type ProductRow = typeof product.$inferSelect;
type VariantRow = typeof productVariant.$inferSelect;
type PriceRow = typeof productPrice.$inferSelect;

const hhmm = (t: string | null) => (t ? t.slice(0, 5) : null);

export function presentPrice(p: PriceRow) {
  return {
    id: p.id, date: p.date, time: hhmm(p.time), timeTo: hhmm(p.timeTo), day: p.day, week: p.week, month: p.month, quarter: p.quarter,
    rate: num(p.rate), minQuantity: num(p.minQuantity), maxQuantity: num(p.maxQuantity), basePrice: num(p.basePrice), baseQuantity: num(p.baseQuantity),
    productVariant: p.productVariantId ? `/api/product_variants/${p.productVariantId}` : null,
  };
}

/** A variant as embedded in a product: price null = the product's price applies; quantity is its stock over all stores. */
export function presentVariant(v: VariantRow, prices: PriceRow[] = []) {
  return ld('product_variants', 'ProductVariant', {
    id: v.id, name: v.name, attributeName: v.attributeName, attributeValue: v.attributeValue, barcode: v.barcode, sku: v.sku,
    price: num(v.price), purchasePrice: num(v.purchasePrice), quantity: num(v.quantity) ?? 0,
    prices: prices.filter((p) => p.productVariantId === v.id).map(presentPrice),
    product: `/api/products/${v.productId}`, ...stamps(v),
  });
}

/** An ISO-8601 UTC timestamp with milliseconds, as Date.toISOString() writes it. */
const iso = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** A CTE of the linked entities of one link table for the page's products: (pid, JSON array of `obj`), scoped. */
function linkedCte(name: string, link: string, otherCol: string, other: string, obj: string, ids: SQL, scope: SQL | undefined): SQL {
  return sql`${sql.raw(name)} as (select ${sql.raw(`"${link}"."product_id"`)} as pid, json_agg(${sql.raw(obj)} order by ${sql.raw(`"${other}"."id"`)}) as j
    from ${sql.raw(`"${link}"`)} join ${sql.raw(`"${other}"`)} on ${sql.raw(`"${other}"."id" = "${link}"."${otherCol}"`)}
    where ${sql.raw(`"${link}"."product_id"`)} = any(${ids})${scope ? sql` and ${scope}` : sql``} group by 1)`;
}

const priceJson = sql.raw(`json_build_object('id', pp.id, 'date', pp.date, 'time', left(pp.time::text, 5), 'timeTo', left(pp.time_to::text, 5),
  'day', pp.day, 'week', pp.week, 'month', pp.month, 'quarter', pp.quarter, 'rate', pp.rate, 'minQuantity', pp.min_quantity,
  'maxQuantity', pp.max_quantity, 'basePrice', pp.base_price, 'baseQuantity', pp.base_quantity,
  'productVariant', case when pp.product_variant_id is null then null else '/api/product_variants/' || pp.product_variant_id end)`);

/**
 * Presents products (by id, in the order given) as a JSON array text, everything the clients read
 * embedded: '@id', '@type', department, categories, brands, suppliers, taxes {id,name,rate},
 * terminals, variants with their price rules and their stock per store of the caller's stores
 * (`stock: [{store:{id,name,location}, quantity: string}]`, issue 25: read only, `quantity` stays the total
 * over all stores; a write sets per-store figures as `stores`), prices (always an array) and the per-store stock rows
 * of the caller's stores ([{id, store:{id,name,location}, quantity: string, location, reOrderLevel:
 * string}]); missing ids are left out. One statement: PostgreSQL builds the JSON (a page of 100
 * products was 11 queries and ~10 ms of Node CPU mapping rows); the list route sends it as it comes.
 */
export async function presentProductsJson(ids: number[], ctx: ResourceCtx): Promise<string> {
  if (!ids.length) return '[]';
  const storeIds = ctx.auth.storeIds;
  // Cost prices only for 'cost.view' (issue 21.1): null otherwise, the key stays for the old client.
  const costs = can(ctx.auth, 'cost.view');
  const cost = sql.raw(costs ? '"product"."cost"' : 'null');
  const purchasePrice = sql.raw(costs ? 'v.purchase_price' : 'null');
  // `opaque` (db/raw.ts): the arrays hidden from custom plans too, so the prepared statement keeps
  // its generic plan instead of being planned again for every page (db/prepared-plans.test.ts).
  const idList = sql`(select ${pgArray(ids.map((n) => Math.trunc(n)))}::int[])::int[]`;
  const storeList = sql`(select ${pgArray(storeIds.map((n) => Math.trunc(n)))}::int[])::int[]`;
  // Set-based: each relation is read once for the whole page (one index scan + one aggregate per
  // CTE) and joined by product id, instead of a correlated sub-select per product and relation.
  const query = sql`with ids as (select u.id, u.ord from unnest(${idList}) with ordinality as u(id, ord)),
    ${linkedCte('cats', 'product_category', 'category_id', 'category', `json_build_object('@id', '/api/categories/' || "category"."id", '@type', 'Category', 'id', "category"."id", 'name', "category"."name", 'type', "category"."type", 'isActive', "category"."is_active")`, idList, scopes.category.scope(ctx))},
    ${linkedCte('brs', 'product_brand', 'brand_id', 'brand', `json_build_object('@id', '/api/brands/' || "brand"."id", '@type', 'Brand', 'id', "brand"."id", 'name', "brand"."name", 'isActive', "brand"."is_active")`, idList, scopes.brand.scope(ctx))},
    ${linkedCte('sups', 'product_supplier', 'supplier_id', 'supplier', `json_build_object('@id', '/api/suppliers/' || "supplier"."id", '@type', 'Supplier', 'id', "supplier"."id", 'name', "supplier"."name", 'phone', "supplier"."phone", 'email', "supplier"."email", 'isActive', "supplier"."is_active")`, idList, scopes.supplier.scope(ctx))},
    ${linkedCte('txs', 'product_tax', 'tax_id', 'tax', `json_build_object('@id', '/api/taxes/' || "tax"."id", '@type', 'Tax', 'id', "tax"."id", 'name', "tax"."name", 'rate', "tax"."rate", 'isActive', "tax"."is_active")`, idList, scopes.tax.scope(ctx))},
    ${linkedCte('terms', 'product_terminal', 'terminal_id', 'terminal', `json_build_object('@id', '/api/terminals/' || "terminal"."id", '@type', 'Terminal', 'id', "terminal"."id", 'code', "terminal"."code", 'description', "terminal"."description", 'isActive', "terminal"."is_active")`, idList, scopes.terminal.scope(ctx))},
    vprs as (select pp.product_id as pid, pp.product_variant_id as vid, json_agg(${priceJson} order by pp.id) as j
      from product_price pp where pp.product_id = any(${idList}) and pp.product_variant_id is not null group by 1, 2),
    vsts as (select vs.variant_id as vid, json_agg(json_build_object(
        'store', json_build_object('@id', '/api/stores/' || st.id, '@type', 'Store', 'id', st.id, 'name', st.name, 'location', st.location),
        'quantity', trim_scale(vs.quantity)::text) order by vs.store_id) as j
      from product_variant v join product_variant_store vs on vs.variant_id = v.id join store st on st.id = vs.store_id
      where v.product_id = any(${idList}) and vs.store_id = any(${storeList}) group by 1),
    vars as (select v.product_id as pid, json_agg(json_build_object('@id', '/api/product_variants/' || v.id, '@type', 'ProductVariant',
        'id', v.id, 'name', v.name, 'attributeName', v.attribute_name, 'attributeValue', v.attribute_value, 'barcode', v.barcode, 'sku', v.sku,
        'price', v.price, 'purchasePrice', ${purchasePrice}, 'quantity', coalesce(v.quantity, 0), 'stock', coalesce(vsts.j, '[]'::json), 'prices', coalesce(vprs.j, '[]'::json),
        'product', '/api/products/' || v.product_id,
        'createdAt', ${iso('v.created_at')}, 'updatedAt', ${iso('v.updated_at')}, 'uuid', v.uuid) order by v.id) as j
      from product_variant v left join vprs on vprs.pid = v.product_id and vprs.vid = v.id left join vsts on vsts.vid = v.id
      where v.product_id = any(${idList}) group by 1),
    prs as (select pp.product_id as pid, json_agg(${priceJson} order by pp.id) as j from product_price pp where pp.product_id = any(${idList}) group by 1),
    sts as (select ps.product_id as pid, json_agg(json_build_object('id', ps.id,
        'store', json_build_object('@id', '/api/stores/' || st.id, '@type', 'Store', 'id', st.id, 'name', st.name, 'location', st.location),
        'quantity', coalesce(trim_scale(ps.quantity)::text, '0'), 'location', ps.location, 'reOrderLevel', trim_scale(ps.re_order_level)::text,
        'reOrderQuantity', trim_scale(ps.re_order_quantity)::text)
        order by ps.store_id, ps.id) as j
      from product_store ps join store st on st.id = ps.store_id
      where ps.product_id = any(${idList}) and ps.store_id = any(${storeList}) group by 1)
    select coalesce(json_agg(json_build_object(
      '@id', '/api/products/' || "product"."id", '@type', 'Product', 'id', "product"."id", 'name', "product"."name", 'sku', "product"."sku", 'barcode', "product"."barcode",
      'barcodeType', "product"."barcode_type", 'baseQuantity', "product"."base_quantity", 'isAvailable', "product"."is_available", 'basePrice', "product"."base_price",
      'cost', ${cost}, 'quantity', "product"."quantity", 'purchaseUnit', "product"."purchase_unit", 'saleUnit', "product"."sale_unit",
      'manageInventory', "product"."manage_inventory", 'isActive', "product"."is_active",
      'department', case when "department"."id" is null then null else json_build_object('@id', '/api/departments/' || "department"."id", '@type', 'Department',
        'id', "department"."id", 'name', "department"."name", 'description', "department"."description") end,
      'categories', coalesce(cats.j, '[]'::json), 'brands', coalesce(brs.j, '[]'::json), 'suppliers', coalesce(sups.j, '[]'::json),
      'taxes', coalesce(txs.j, '[]'::json), 'terminals', coalesce(terms.j, '[]'::json), 'variants', coalesce(vars.j, '[]'::json),
      'prices', coalesce(prs.j, '[]'::json), 'stores', coalesce(sts.j, '[]'::json),
      'createdAt', ${iso('"product"."created_at"')}, 'updatedAt', ${iso('"product"."updated_at"')}, 'uuid', "product"."uuid"
    ) order by ids.ord), '[]'::json)::text as page
    from ids join "product" on "product"."id" = ids.id
    left join "department" on "department"."id" = "product"."department_id"
    left join cats on cats.pid = ids.id left join brs on brs.pid = ids.id left join sups on sups.pid = ids.id
    left join txs on txs.pid = ids.id left join terms on terms.pid = ids.id left join vars on vars.pid = ids.id
    left join prs on prs.pid = ids.id left join sts on sts.pid = ids.id`;
  // A named prepared statement (planning this statement costs about what running it costs); its
  // text only varies with the number of the caller's stores, so a connection keeps a few.
  const { sql: text, params } = (ctx.db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect.sqlToQuery(query);
  const name = `products_json_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  const [row] = await preparedQuery<{ page: string }>(ctx.db, name, text, params);
  return row.page;
}

/** Presents product rows already read, as objects (same shape as presentProductsJson). */
export async function presentProducts(rows: ProductRow[], ctx: ResourceCtx) {
  return JSON.parse(await presentProductsJson(rows.map((r) => r.id), ctx)) as Record<string, unknown>[];
}
