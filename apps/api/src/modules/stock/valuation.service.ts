import { sql } from 'drizzle-orm';
import { notFound } from '@pos/domain/errors';
import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';
import { minorToDecimal, mulPriceQty, parseMinor, parseQuantity } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { pgArray, rowsOf } from '../../db/raw.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import type { MovementsQuery, ValuationQuery } from './stock-ledger.schemas.ts';
import { iso, qtyOut } from './stock-ops.common.ts';

/**
 * Readings of the stock ledger (issue 25.5, 25.6; ARCHITECTURE.md "Stock valuation").
 *
 * Valuation at `at`: per (product, store), the quantity is the sum of the ledger's store rows
 * (variant rows are the same stock counted again: variant stock is global and a variant move also
 * moves the product's store row) created at or before `at`; the cost is the `unit_cost` of the
 * last of those rows (the store's average in effect then). value = quantity x cost, rounded once
 * per (product, store) to a minor unit of the store's currency, half away from zero; groups add
 * those. Products that track stock only; negative stock counts negative. A product is in ONE
 * category / supplier group (its first by id; none: the `null` group), so nothing counts twice.
 * Stores of different currencies are never added together: each row and total names its currency.
 */

interface ValRow { product_id: number; store_id: number; qty: string; cost: string; currency: string; gid: number | null; gname: string | null }

export async function valuation(db: Db, q: ValuationQuery, actor: AuthInfo) {
  if (q.store != null) assertCallerStore(actor, q.store, 'store');
  const stores = q.store != null ? [q.store] : actor.storeIds;
  const at = q.at ?? new Date();
  const group = q.group === 'store' ? sql`st.id as gid, st.name as gname`
    : q.group === 'category' ? sql`(select c.id from product_category l join category c on c.id = l.category_id where l.product_id = p.id order by c.id limit 1) as gid,
        (select c.name from product_category l join category c on c.id = l.category_id where l.product_id = p.id order by c.id limit 1) as gname`
      : sql`(select s.id from product_supplier l join supplier s on s.id = l.supplier_id where l.product_id = p.id order by s.id limit 1) as gid,
        (select s.name from product_supplier l join supplier s on s.id = l.supplier_id where l.product_id = p.id order by s.id limit 1) as gname`;
  const rows = rowsOf<ValRow>(await db.execute(sql`
    with q as (
      select m.product_id, m.store_id, sum(m.quantity) as qty,
        (array_agg(m.unit_cost order by m.created_at desc, m.id desc) filter (where m.unit_cost is not null))[1] as cost
      from stock_movement m
      where m.variant_id is null and m.store_id = any(${pgArray(stores)}::int[]) and m.created_at <= ${at.toISOString()}::timestamptz
      group by m.product_id, m.store_id)
    select q.product_id, q.store_id, q.qty::text as qty, coalesce(q.cost, p.cost)::text as cost, st.currency, ${group}
    from q join product p on p.id = q.product_id join store st on st.id = q.store_id
    where q.qty <> 0 and p.manage_inventory`));
  const groups = new Map<string, { key: { id: number; name: string | null } | null; currency: string; digits: number; products: number; qtyMilli: number; minor: number }>();
  const totals = new Map<string, { currency: string; digits: number; minor: number; qtyMilli: number }>();
  for (const r of rows) {
    const digits = currencyDigits(isCurrencyCode(r.currency) ? r.currency : 'USD');
    const qty = parseQuantity(r.qty);
    const value = mulPriceQty(parseMinor(r.cost, digits), qty);
    const k = `${r.gid ?? ''}|${r.currency}`;
    const g = groups.get(k) ?? { key: r.gid == null ? null : { id: Number(r.gid), name: r.gname }, currency: r.currency, digits, products: 0, qtyMilli: 0, minor: 0 };
    g.products++; g.qtyMilli += qty; g.minor += value;
    groups.set(k, g);
    const t = totals.get(r.currency) ?? { currency: r.currency, digits, minor: 0, qtyMilli: 0 };
    t.minor += value; t.qtyMilli += qty;
    totals.set(r.currency, t);
  }
  const out = [...groups.values()].sort((a, b) => (a.key == null ? 1 : b.key == null ? -1 : (a.key.name ?? '').localeCompare(b.key.name ?? '') || a.key.id - b.key.id) || a.currency.localeCompare(b.currency));
  return {
    at: at.toISOString(), group: q.group, store: q.store ?? null,
    rows: out.map((g) => ({ [q.group]: g.key, currency: g.currency, products: g.products, quantity: qtyOut(g.qtyMilli), value: minorToDecimal(g.minor, g.digits) })),
    totals: [...totals.values()].map((t) => ({ currency: t.currency, quantity: qtyOut(t.qtyMilli), value: minorToDecimal(t.minor, t.digits) })),
  };
}

interface MoveRow {
  id: number; created_at: string; store_id: number; store_name: string; currency: string; quantity: string; balance: string; reason: string; unit_cost: string | null;
  order_id: number | null; order_number: number | null; purchase_id: number | null; purchase_number: string | null;
  user_id: number | null; username: string | null; display_name: string | null; total: number;
}

/**
 * One product's movements in the caller's stores (or one), newest first, with the running balance
 * of its store after each row (the sum of every earlier row of that store, also those before
 * `from`), the reason, the document (a sale or return: the order; a purchase), who and when.
 */
export async function movements(db: Db, q: MovementsQuery, actor: AuthInfo) {
  if (q.store != null) assertCallerStore(actor, q.store, 'store');
  const stores = q.store != null ? [q.store] : actor.storeIds;
  const [p] = rowsOf<{ id: number; name: string; sku: string | null; barcode: string | null }>(await db.execute(sql`select id, name, sku, barcode from product where id = ${q.product}
    and (store_ids = '{}' or store_ids && ${pgArray(actor.storeIds)}::int[])`));
  if (!p) throw notFound('Product not found');
  const offset = (q.page - 1) * q.itemsPerPage;
  const rows = rowsOf<MoveRow>(await db.execute(sql`
    with m as (
      select m.*, sum(m.quantity) over (partition by m.store_id order by m.created_at, m.id) as balance
      from stock_movement m where m.product_id = ${q.product} and m.variant_id is null and m.store_id = any(${pgArray(stores)}::int[])),
    f as (select * from m where true ${q.from ? sql`and m.created_at >= ${q.from.toISOString()}::timestamptz` : sql``}
      ${q.to ? sql`and m.created_at <= ${q.to.toISOString()}::timestamptz` : sql``})
    select f.id, f.created_at, f.store_id, st.name as store_name, st.currency, f.quantity::text as quantity, f.balance::text as balance, f.reason,
      f.unit_cost::text as unit_cost, f.order_id, o.order_id as order_number, f.purchase_id, pu.purchase_number,
      f.user_id, u.username, u.display_name, count(*) over ()::int as total
    from f join store st on st.id = f.store_id
    left join "order" o on o.id = f.order_id left join purchase pu on pu.id = f.purchase_id left join user_account u on u.id = f.user_id
    order by f.created_at desc, f.id desc limit ${q.itemsPerPage} offset ${offset}`));
  const total = rows.length ? Number(rows[0].total) : Number(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from stock_movement m
    where m.product_id = ${q.product} and m.variant_id is null and m.store_id = any(${pgArray(stores)}::int[])
    ${q.from ? sql`and m.created_at >= ${q.from.toISOString()}::timestamptz` : sql``} ${q.to ? sql`and m.created_at <= ${q.to.toISOString()}::timestamptz` : sql``}`))[0].n);
  return {
    product: p, total, page: q.page, itemsPerPage: q.itemsPerPage,
    list: rows.map((r) => {
      const digits = currencyDigits(isCurrencyCode(r.currency) ? r.currency : 'USD');
      return {
        id: Number(r.id), at: iso(r.created_at), store: { id: Number(r.store_id), name: r.store_name }, reason: r.reason,
        quantity: qtyOut(parseQuantity(r.quantity)), balance: qtyOut(parseQuantity(r.balance)),
        cost: r.unit_cost == null ? null : minorToDecimal(parseMinor(r.unit_cost, digits), digits),
        order: r.order_id == null ? null : { id: Number(r.order_id), number: r.order_number == null ? null : Number(r.order_number) },
        purchase: r.purchase_id == null ? null : { id: Number(r.purchase_id), purchaseNumber: r.purchase_number },
        user: r.user_id == null ? null : { id: Number(r.user_id), username: r.username, displayName: r.display_name },
      };
    }),
  };
}
