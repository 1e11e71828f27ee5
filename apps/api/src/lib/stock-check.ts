import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { rowsOf } from '../db/raw.ts';

/**
 * Stock ledger check used by tests and the doctor: every stock row whose figure and ledger
 * disagree (lib/stock.ts invariants). `kind` names the row: 'store' (product_store, the product's
 * own ledger rows), 'variant_store' (product_variant_store, the variant's rows in that store),
 * 'variant' (product_variant.quantity against the sum of its store rows), 'storeless' (a variant
 * ledger row with no store: none may exist after migration 0015).
 */
export async function ledgerMismatches(tx: Tx) {
  const rows = await tx.execute(sql`
    select 'store' as kind, ps.product_id, null::int as variant_id, ps.store_id, ps.quantity::text as quantity, coalesce(m.total, 0)::text as ledger
    from product_store ps
    left join (select product_id, store_id, sum(quantity) as total from stock_movement where variant_id is null group by product_id, store_id) m
      on m.product_id = ps.product_id and m.store_id = ps.store_id
    where ps.quantity <> coalesce(m.total, 0)
    union all
    select 'variant_store', v.product_id, vs.variant_id, vs.store_id, vs.quantity::text, coalesce(m.total, 0)::text
    from product_variant_store vs join product_variant v on v.id = vs.variant_id
    left join (select variant_id, store_id, sum(quantity) as total from stock_movement where variant_id is not null group by variant_id, store_id) m
      on m.variant_id = vs.variant_id and m.store_id = vs.store_id
    where vs.quantity <> coalesce(m.total, 0)
    union all
    select 'variant_store', m.product_id, m.variant_id, m.store_id, '0', sum(m.quantity)::text
    from stock_movement m
    where m.variant_id is not null and m.store_id is not null
      and not exists (select 1 from product_variant_store vs where vs.variant_id = m.variant_id and vs.store_id = m.store_id)
    group by m.product_id, m.variant_id, m.store_id having sum(m.quantity) <> 0
    union all
    select 'variant', v.product_id, v.id, null, v.quantity::text, coalesce(s.total, 0)::text
    from product_variant v
    left join (select variant_id, sum(quantity) as total from product_variant_store group by variant_id) s on s.variant_id = v.id
    where v.quantity <> coalesce(s.total, 0)
    union all
    select 'storeless', m.product_id, m.variant_id, null, null, count(*)::text
    from stock_movement m where m.variant_id is not null and m.store_id is null group by m.product_id, m.variant_id`);
  return rowsOf<{ kind: string; product_id: number; variant_id: number | null; store_id: number | null; quantity: string | null; ledger: string }>(rows);
}
