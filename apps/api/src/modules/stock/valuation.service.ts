import { sql } from 'drizzle-orm';
import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';
import { minorToDecimal, mulPriceQty, parseMinor, parseQuantity } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { pgArray, rowsOf } from '../../db/raw.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import type { ValuationQuery } from './stock-ledger.schemas.ts';
import { qtyOut } from './stock-ops.common.ts';

/**
 * Readings of the stock ledger (issue 25.5, 25.6; ARCHITECTURE.md "Stock valuation").
 *
 * Valuation at `at`: per (product, store), the quantity is the sum of the ledger's store rows
 * (variant rows are the same stock counted again: a variant move also moves the product's store
 * row, lib/stock.ts) created at or before `at`; the cost is the `unit_cost` of the
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
