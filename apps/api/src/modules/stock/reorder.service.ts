import { sql } from 'drizzle-orm';
import { type Violation } from '@pos/domain/errors';
import { minorToDecimal, mulPriceQty, parseMinor, parseQuantity, quantityToString } from '@pos/domain/money';
import type { Db, Tx } from '../../db/client.ts';
import { pgArray, rowsOf } from '../../db/raw.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import { storeDigits } from '../../lib/store-money.ts';
import { can, type AuthInfo } from '../../plugins/auth.ts';
import { createPurchaseOrder } from '../purchasing/purchase-orders.service.ts';
import type { ReorderLevelsBody, ReorderPoBody } from './stock-ledger.schemas.ts';
import { nextNumber, qtyOut, throwIf, write } from './stock-ops.common.ts';

/**
 * Re-ordering (issue 25.4): a product is "to order" in a store when it tracks stock, is active,
 * has a re-order level there and its stock is at or below it. The suggested quantity is the
 * store's re-order quantity, else what brings the stock up to the level (at least one unit, so a
 * product exactly at its level is still ordered). Its supplier is the first (lowest id) of its
 * suppliers the caller sees; the price is the product's cost (the last purchase price when
 * purchases update prices). Draft purchase orders: one Open purchase order per supplier, all in
 * one transaction, through the purchase-orders service (its checks, its lines).
 */

export const REORDER_MESSAGES = {
  notStocked: 'This product is not stocked in this store.',
  notToOrder: 'This product is not on the store\'s list to order.',
  noSupplier: 'This product has no supplier: add one to the product first.',
  nothing: 'Nothing is at or below its re-order level in this store.',
};

/** Minor units -> wire number in the store's digits. */
const money = minorToDecimal;

interface ToOrderRow {
  product_id: number; name: string; sku: string | null; barcode: string | null; quantity: string; level: string; reorder_quantity: string | null;
  cost: string; supplier_id: number | null; supplier_name: string | null;
}

const visibleSupplier = (stores: number[]) => sql`(not exists (select 1 from supplier_store ss where ss.supplier_id = s.id) or exists (select 1 from supplier_store ss where ss.supplier_id = s.id and ss.store_id = any(${pgArray(stores)}::int[])))`;

async function toOrderRows(db: Db | Tx, storeId: number, actor: AuthInfo, limit?: number): Promise<ToOrderRow[]> {
  return rowsOf<ToOrderRow>(await db.execute(sql`
    select p.id as product_id, p.name, p.sku, p.barcode, ps.quantity::text as quantity, ps.re_order_level::text as level,
      ps.re_order_quantity::text as reorder_quantity, p.cost::text as cost, sup.id as supplier_id, sup.name as supplier_name
    from product_store ps join product p on p.id = ps.product_id
    left join lateral (select s.id, s.name from product_supplier l join supplier s on s.id = l.supplier_id
      where l.product_id = p.id and s.is_active and ${visibleSupplier(actor.storeIds)} order by s.id limit 1) sup on true
    where ps.store_id = ${storeId} and ps.re_order_level is not null and ps.quantity <= ps.re_order_level
      and p.manage_inventory and p.is_active
    order by (ps.quantity - ps.re_order_level), p.name, p.id ${limit ? sql`limit ${limit}` : sql``}`));
}

/** Suggested quantity in milli-units: the re-order quantity, else up to the level (at least one unit). */
function suggested(r: Pick<ToOrderRow, 'quantity' | 'level' | 'reorder_quantity'>): number {
  const q = parseQuantity;
  if (r.reorder_quantity != null && q(r.reorder_quantity) > 0) return q(r.reorder_quantity);
  return Math.max(q(r.level) - q(r.quantity), 1000);
}

/** The "to order" list of one store, grouped by supplier (products without one last, supplier null). */
export async function toOrderList(db: Db, storeId: number, actor: AuthInfo) {
  assertCallerStore(actor, storeId, 'store');
  const digits = await storeDigits(db, storeId);
  const costs = can(actor, 'cost.view');
  const rows = await toOrderRows(db, storeId, actor);
  const groups = new Map<number | null, { supplier: { id: number; name: string } | null; lines: unknown[]; value: number }>();
  for (const r of rows) {
    const key = r.supplier_id == null ? null : Number(r.supplier_id);
    const g = groups.get(key) ?? { supplier: key == null ? null : { id: key, name: r.supplier_name! }, lines: [], value: 0 };
    const qty = suggested(r); const cost = parseMinor(r.cost, digits); const value = mulPriceQty(cost, qty);
    g.value += value;
    g.lines.push({
      product: { id: Number(r.product_id), name: r.name, sku: r.sku, barcode: r.barcode }, stock: qtyOut(parseQuantity(r.quantity)),
      level: qtyOut(parseQuantity(r.level)), reorderQuantity: r.reorder_quantity == null ? null : qtyOut(parseQuantity(r.reorder_quantity)),
      suggested: qtyOut(qty), cost: costs ? money(parseMinor(r.cost, digits), digits) : null, value: costs ? money(value, digits) : null,
    });
    groups.set(key, g);
  }
  const list = [...groups.values()].sort((a, b) => (a.supplier == null ? 1 : b.supplier == null ? -1 : a.supplier.name.localeCompare(b.supplier.name) || a.supplier.id - b.supplier.id))
    .map((g) => ({ supplier: g.supplier, lines: g.lines, value: costs ? money(g.value, digits) : null }));
  return { store: storeId, suppliers: list, count: rows.length };
}


/** The low-stock tile: how many products are at or below their level in the store, and the first `limit` of them (lowest against their level first). */
export async function lowStock(db: Db, storeId: number, limit: number, actor: AuthInfo) {
  assertCallerStore(actor, storeId, 'store');
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from product_store ps join product p on p.id = ps.product_id
    where ps.store_id = ${storeId} and ps.re_order_level is not null and ps.quantity <= ps.re_order_level and p.manage_inventory and p.is_active`));
  const rows = await toOrderRows(db, storeId, actor, limit);
  return {
    store: storeId, count: Number(n),
    products: rows.map((r) => ({ id: Number(r.product_id), name: r.name, stock: Number(r.quantity), level: Number(r.level), supplier: r.supplier_id == null ? null : { id: Number(r.supplier_id), name: r.supplier_name } })),
  };
}

/** Sets re-order levels (null: off) and quantities (null: up to the level; absent: unchanged) of products stocked in the store. */
export async function setReorderLevels(db: Db, input: ReorderLevelsBody, actor: AuthInfo): Promise<void> {
  assertCallerStore(actor, input.store, 'store');
  await write(db, async (tx) => {
    const ids = [...new Set(input.lines.map((l) => l.product))];
    const have = new Set(rowsOf<{ product_id: number }>(await tx.execute(sql`select product_id from product_store
      where store_id = ${input.store} and product_id = any(${pgArray(ids)}::int[]) order by product_id for update`)).map((r) => Number(r.product_id)));
    const v: Violation[] = [];
    input.lines.forEach((l, i) => { if (!have.has(l.product)) v.push({ propertyPath: `lines[${i}].product`, message: REORDER_MESSAGES.notStocked }); });
    throwIf(v);
    for (const l of input.lines) {
      const level = l.level == null ? null : quantityToString(l.level);
      if (l.quantity === undefined) {
        await tx.execute(sql`update product_store set re_order_level = ${level} where store_id = ${input.store} and product_id = ${l.product}`);
      } else {
        await tx.execute(sql`update product_store set re_order_level = ${level}, re_order_quantity = ${l.quantity == null ? null : quantityToString(l.quantity)}
          where store_id = ${input.store} and product_id = ${l.product}`);
      }
    }
  });
}

/**
 * Draft purchase orders from the store's "to order" list: every line of it, or the products given
 * (each must be on the list; a quantity replaces the suggestion). One Open purchase order per
 * supplier, numbered `RO-<store>-<n>` (gap-free per store), in ONE transaction: a product without a
 * supplier or a refused order leaves nothing written. Answers the orders' ids.
 */
export async function reorderPurchaseOrders(db: Db, input: ReorderPoBody, actor: AuthInfo): Promise<number[]> {
  assertCallerStore(actor, input.store, 'store');
  return write(db, async (tx) => {
    const rows = await toOrderRows(tx, input.store, actor);
    const byProduct = new Map(rows.map((r) => [Number(r.product_id), r]));
    const v: Violation[] = [];
    const wanted = input.lines
      ? input.lines.map((l, i) => {
        const r = byProduct.get(l.product);
        if (!r) v.push({ propertyPath: `lines[${i}].product`, message: REORDER_MESSAGES.notToOrder });
        else if (r.supplier_id == null) v.push({ propertyPath: `lines[${i}].product`, message: REORDER_MESSAGES.noSupplier });
        return { r: r!, qty: l.quantity ?? (r ? suggested(r) : 0) };
      })
      : rows.filter((r) => r.supplier_id != null).map((r) => ({ r, qty: suggested(r) }));
    throwIf(v);
    if (!wanted.length) throwIf([{ propertyPath: 'store', message: REORDER_MESSAGES.nothing }]);
    const bySupplier = new Map<number, typeof wanted>();
    for (const w of wanted) bySupplier.set(Number(w.r.supplier_id), [...bySupplier.get(Number(w.r.supplier_id)) ?? [], w]);
    const ids: number[] = [];
    for (const [supplierId, lines] of [...bySupplier].sort(([a], [b]) => a - b)) {
      const n = await nextNumber(tx, input.store, 'reorder');
      ids.push(await createPurchaseOrder(tx, {
        store: input.store, supplier: supplierId, poNumber: `RO-${input.store}-${n}`, createdAt: new Date(),
        items: lines.map((l) => ({ item: Number(l.r.product_id), quantity: quantityToString(l.qty), price: l.r.cost, unit: null, comments: null, variants: [] })),
      }, actor));
    }
    return ids;
  });
}
