import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { migrationsFolder } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import { ledgerMismatches } from '../../lib/stock-check.ts';

/**
 * Migration 0015's hand-written backfill (per-store variant stock, issue 25), run on a database
 * holding what older releases wrote: variant ledger rows with store_id NULL and product_variant.
 * quantity as the only figure. Each variant's stock goes to its product's home store (its only
 * product_store row's store; with several, the lowest id; with none, the shop's lowest store id),
 * and afterwards the ledger sums to every (variant, store) row and the totals are their sums.
 */
let t: TestApp;
beforeAll(async () => { t = await createTestApp({ seed: false }); });
afterAll(async () => { await t?.close(); });

/** The statements of 0015's hand-written block, as the migrator runs them (split at its breakpoints). */
function backfillStatements(): string[] {
  const text = fs.readFileSync(path.join(migrationsFolder, '0015_variant_store.sql'), 'utf8');
  const start = text.indexOf('-- Hand-written block (issue 25, per-store variant stock)');
  expect(start).toBeGreaterThan(0);
  return text.slice(start).split('--> statement-breakpoint').map((s) => s.trim()).filter(Boolean);
}

const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await t.app.db.execute(query));

describe('migration 0015: variant stock backfill', () => {
  it('gives NULL-store variant rows their home store, corrects a drifted total, and fills product_variant_store', async () => {
    const [s1, s2, s3] = (await q<{ id: number }>(sql`insert into store (name) values ('One'), ('Two'), ('Three') returning id`)).map((r) => Number(r.id));
    const [p1, p2, p3] = (await q<{ id: number }>(sql`insert into product (name, manage_inventory) values ('Only in two', true), ('In three and two', true), ('Nowhere', true) returning id`)).map((r) => Number(r.id));
    // p1 has one store row (s2); p2 has two (s3, s2: the lowest is s2); p3 none (the shop's lowest, s1).
    await t.app.db.execute(sql`insert into product_store (product_id, store_id, quantity) values (${p1}, ${s2}, 0), (${p2}, ${s3}, 0), (${p2}, ${s2}, 0)`);
    const [v1, v2, v3, v4] = (await q<{ id: number }>(sql`insert into product_variant (product_id, attribute_value, quantity)
      values (${p1}, 'a', 5), (${p2}, 'b', 4), (${p3}, 'c', 7), (${p1}, 'd', 3) returning id`)).map((r) => Number(r.id));
    // Old ledger rows: storeless variant rows; v3's total drifted (7 against 6); v4 has one row whose store was already known.
    await t.app.db.execute(sql`insert into stock_movement (product_id, variant_id, store_id, quantity, reason) values
      (${p1}, ${v1}, null, 3, 'opening'), (${p1}, ${v1}, null, 2, 'sale'), (${p2}, ${v2}, null, 4, 'purchase'),
      (${p3}, ${v3}, null, 6, 'opening'), (${p1}, ${v4}, ${s3}, 2, 'opening'), (${p1}, ${v4}, null, 1, 'opening')`);

    await t.app.db.transaction(async (tx) => {
      for (const statement of backfillStatements()) await tx.execute(sql.raw(statement));
    });

    const rows = await q<{ variant_id: number; store_id: number; quantity: string }>(sql`select variant_id, store_id, trim_scale(quantity)::text as quantity
      from product_variant_store order by variant_id, store_id`);
    expect(rows.map((r) => [Number(r.variant_id), Number(r.store_id), r.quantity])).toEqual([
      [v1, s2, '5'], [v2, s2, '4'], [v3, s1, '7'], [v4, s2, '1'], [v4, s3, '2'],
    ]);
    const storeless = await q<{ n: number }>(sql`select count(*)::int as n from stock_movement where variant_id is not null and store_id is null`);
    expect(Number(storeless[0].n)).toBe(0);
    // The drift became one 'adjustment' row in v3's home store; nothing else was added.
    const added = await q<{ variant_id: number; store_id: number; quantity: string; reason: string }>(sql`select variant_id, store_id, trim_scale(quantity)::text as quantity, reason
      from stock_movement where variant_id = ${v3} order by id`);
    expect(added.map((r) => [Number(r.store_id), r.quantity, r.reason])).toEqual([[s1, '6', 'opening'], [s1, '1', 'adjustment']]);
    const totals = await q<{ id: number; quantity: string }>(sql`select id, trim_scale(quantity)::text as quantity from product_variant order by id`);
    expect(totals.map((r) => r.quantity)).toEqual(['5', '4', '7', '3']);
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
  });
});
