/**
 * Top sellers and slow movers (issue 25.6) over the range and stores of a report.
 * top: the products sold most (quantity net of returns, then net amount), highest first.
 * slow: the products with stock (> 0 in the chosen stores) that sold least, zero sales first, then
 * the most stock, so what sits on the shelf without selling leads the list.
 */
import { sql } from 'drizzle-orm';
import { parseMinor } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { pgArray, rowsOf } from '../../db/raw.ts';
import type { ReportScope } from './reports.params.ts';
import { rangeCtes } from './sales-report.ts';

export interface ProductRow {
  key: string;
  label: string;
  sku: string | null;
  orders: number;
  quantity: number;
  net: number;
  gross: number;
  stock: number | null;
  cost?: number;
  margin?: number;
}

type Raw = { id: number; name: string; sku: string | null; orders: number; quantity: string; net: string; gross: string; cost: string; stock: string | null };

export async function productsReport(db: Db, scope: ReportScope, sort: 'top' | 'slow', limit: number, withCost: boolean) {
  const stores = pgArray(scope.storeIds);
  const sold = sql`sold as (
      select l.product_id, count(distinct l.id) filter (where not l.is_return) as orders, sum(l.quantity) as quantity,
        sum(l.taxable) as net, sum(l.taxable + l.taxes_total) as gross, sum(l.cost) as cost
      from l group by l.product_id
    )`;
  const statement = sort === 'top'
    ? sql`with ${rangeCtes(scope)}, ${sold}
      select p.id, p.name, p.sku, sold.orders, sold.quantity::text, sold.net::text, sold.gross::text, sold.cost::text,
        (select sum(ps.quantity) from product_store ps where ps.product_id = p.id and ps.store_id = any(${stores}::int[]))::text as stock
      from sold join product p on p.id = sold.product_id
      order by sold.quantity desc, sold.net desc, p.id limit ${limit}`
    : sql`with ${rangeCtes(scope)}, ${sold},
      stocked as (
        select ps.product_id, sum(ps.quantity) as stock from product_store ps
        where ps.store_id = any(${stores}::int[]) and ps.quantity > 0 group by ps.product_id
      )
      select p.id, p.name, p.sku, coalesce(sold.orders, 0) as orders, coalesce(sold.quantity, 0)::text as quantity,
        coalesce(sold.net, 0)::text as net, coalesce(sold.gross, 0)::text as gross, coalesce(sold.cost, 0)::text as cost, stocked.stock::text as stock
      from stocked join product p on p.id = stocked.product_id left join sold on sold.product_id = stocked.product_id
      order by coalesce(sold.quantity, 0), stocked.stock desc, p.id limit ${limit}`;
  const m = (v: string | null) => (v == null ? 0 : parseMinor(v, scope.digits));
  const rows = rowsOf<Raw>(await db.execute(statement)).map((r): ProductRow => {
    const row: ProductRow = {
      key: String(r.id), label: r.name, sku: r.sku, orders: Number(r.orders), quantity: Number(r.quantity),
      net: m(r.net), gross: m(r.gross), stock: r.stock == null ? null : Number(r.stock),
    };
    if (withCost) { row.cost = m(r.cost); row.margin = row.net - row.cost; }
    return row;
  });
  return { currency: scope.currency, digits: scope.digits, timeZone: scope.timeZone, from: scope.from, to: scope.to, sort, rows };
}
