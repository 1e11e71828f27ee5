import { sql } from 'drizzle-orm';
import { minorToString, parseMinor, parseQuantity } from '@pos/domain/money';
import { weightedAverage, type Receipt } from '@pos/domain/stock-cost';
import type { Tx } from '../db/client.ts';
import { rowsOf } from '../db/raw.ts';
import { storeDigits } from './store-money.ts';

/**
 * The weighted-average cost of products per store (issue 25.5; ARCHITECTURE.md "Stock
 * valuation"). Receipts (a purchase received, a transfer received) move the receiving store's
 * `product_store.avg_cost` BEFORE their ledger rows are written, so those rows (and every later
 * one until the next receipt) carry the new average as their `unit_cost` (trigger of migration
 * 0011). Everything that takes stock out, or puts it back (a return, a count, `found`), moves at
 * the average and leaves it as it is.
 */

/** A receipt's unit price as text (a purchase line's price, a transfer line's cost) -> minor units of the store. */
export const priceMinor = (price: string | null | undefined, digits: number) => parseMinor(price ?? '0', digits);

/**
 * Takes receipts into the stores' averages: per product, `receipts` at their unit costs (minor
 * units of the store's currency). The product_store rows are created when missing (quantity 0;
 * the ledger move that follows adds the stock) and locked in product order.
 */
export async function receiveAtCost(tx: Tx, storeId: number, byProduct: Map<number, Receipt[]>): Promise<void> {
  const ids = [...byProduct.keys()].filter((id) => byProduct.get(id)!.some((r) => r.qtyMilli > 0)).sort((a, b) => a - b);
  if (!ids.length) return;
  const digits = await storeDigits(tx, storeId);
  const idList = sql.join(ids.map((id) => sql`${id}`), sql`, `);
  await tx.execute(sql`insert into product_store (product_id, store_id, quantity)
    select id, ${storeId}, 0 from product where id in (${idList}) order by id on conflict (product_id, store_id) do nothing`);
  const rows = rowsOf<{ product_id: number; quantity: string; avg_cost: string | null; cost: string }>(await tx.execute(sql`
    select ps.product_id, ps.quantity::text as quantity, ps.avg_cost::text as avg_cost, p.cost::text as cost
    from product_store ps join product p on p.id = ps.product_id
    where ps.store_id = ${storeId} and ps.product_id in (${idList}) order by ps.product_id for update of ps`));
  for (const r of rows) {
    const id = Number(r.product_id);
    const avg = weightedAverage(parseQuantity(r.quantity), r.avg_cost == null ? null : parseMinor(r.avg_cost, digits), parseMinor(r.cost, digits), byProduct.get(id)!);
    if (avg == null) continue;
    await tx.execute(sql`update product_store set avg_cost = ${minorToString(avg, digits)} where product_id = ${id} and store_id = ${storeId}`);
  }
}

/** The unit cost in effect now per product in a store (its average, else the catalogue cost), as stored text. */
export async function costsInStore(tx: Tx, storeId: number, productIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(productIds)];
  if (!ids.length) return new Map();
  const rows = rowsOf<{ id: number; cost: string }>(await tx.execute(sql`select p.id, coalesce(ps.avg_cost, p.cost)::text as cost
    from product p left join product_store ps on ps.product_id = p.id and ps.store_id = ${storeId}
    where p.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`));
  return new Map(rows.map((r) => [Number(r.id), r.cost]));
}
