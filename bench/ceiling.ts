/**
 * The plain-SQL ceiling of the API bench (api-bench.ts): the same sale as POST
 * /api/admin/order/create, written by hand with the plain pg driver, in ONE transaction:
 *   1. the client id looked up (a retried sale answers the first one);
 *   2. one read of what a sale needs: the user (active, their stores), the store and its terminal,
 *      the payment type (active, allowed in the store), and per line the product (price, cost,
 *      stock-managed, active), its taxes (rate, active), its price rules (product_price: the date,
 *      time, day, week, month and quarter each rule applies to), its active barcodes with their
 *      prices (a weighed / price-embedded code may carry its own price), its stock row in the store
 *      and the asked-for variant's price (sale-read.ts PRODUCTS_EXPR reads the same). The walk-in
 *      sales of the bench have no customer: neither side reads one;
 *   3. the server's figures from what was read (the client's prices are not trusted): the price a
 *      rule gives now, in the store's time zone (@pos/domain effectivePrice / variantPrice), then the
 *      same integer maths (@pos/domain computeOrderTotals). The bench's sales send no price of
 *      their own, so the barcodes' prices are read but never chosen (as in our sale);
 *   4. the same rows and constraints as our sale: the order with its client id, user and totals, 5
 *      lines with cost and tax totals, their tax rows with amounts, the payment, the per-store
 *      stock (upsert, rows in product order) and variant stock, the ledger rows, the per-store
 *      number (counter row), then COMMIT.
 * Round trips: begin, look-up, read, 6-8 writes, commit (our sale: lock + look-up, read, write, unlock).
 */
import pg from 'pg';
import { computeOrderTotals } from '@pos/domain/cart';
import { parseMoney, parseRate, toDecimal } from '@pos/domain/money';
import { effectivePrice, variantPrice, type PriceRuleInput } from '@pos/domain/price-rules';
import { saleBody, type CachedProduct, type Till } from './sales.ts';

const READ = `select u.id as user_id, u.is_active, $3::int = any(array(select us.store_id from user_store us where us.user_id = u.id)) as in_store,
    s.id as store_id, s.time_zone, t.id as terminal_id,
    (select y.id from payment y where y.id = $4 and y.is_active and (exists (select 1 from payment_store l where l.payment_id = y.id and l.store_id = s.id)
      or not exists (select 1 from payment_store l where l.payment_id = y.id))) as payment_id,
    coalesce((select json_agg(json_build_object('id', p.id, 'price', p.base_price::text, 'cost', p.cost::text, 'manage', p.manage_inventory, 'active', p.is_active,
        'stock', (select ps.quantity::text from product_store ps where ps.product_id = p.id and ps.store_id = s.id),
        'taxes', coalesce((select json_agg(json_build_object('id', x.id, 'rate', x.rate::text) order by x.id) from product_tax pt join tax x on x.id = pt.tax_id
          where pt.product_id = p.id and x.is_active), '[]'),
        'rules', coalesce((select json_agg(json_build_object('variantId', r.product_variant_id, 'date', r.date, 'time', r.time::text, 'timeTo', r.time_to::text,
          'day', r.day, 'week', r.week, 'month', r.month, 'quarter', r.quarter, 'price', r.base_price::text) order by r.id) from product_price r where r.product_id = p.id), '[]'),
        'codes', coalesce((select json_agg(json_build_object('variantId', b.variant_id, 'price', b.price::text)) from barcode b where b.item_id = p.id and b.is_active), '[]'),
        'variants', coalesce((select json_agg(json_build_object('id', v.id, 'price', v.price::text)) from product_variant v where v.product_id = p.id and v.id = any($2::int[])), '[]')))
      from product p where p.id = any($1::int[])), '[]') as products
  from user_account u left join store s on s.id = $3 left join terminal t on t.id = $5 and t.store_id = s.id where u.id = $6`;

interface ReadRule { variantId: number | null; date: string | null; time: string | null; timeTo: string | null; day: string | null; week: number | null; month: number | null; quarter: number | null; price: string | null }
interface ReadProduct {
  id: number; price: string; cost: string; manage: boolean; active: boolean; stock: string | null; taxes: { id: number; rate: string }[];
  rules: ReadRule[]; codes: { variantId: number | null; price: string | null }[]; variants: { id: number; price: string | null }[];
}
const ruleOf = (r: ReadRule): PriceRuleInput => ({ ...r, basePriceCents: r.price == null ? null : parseMoney(r.price) });

/** One sale of `till` by hand; throws on a refusal (as our sale's 422). */
export async function plainSale(pool: pg.Pool, till: Till & { userId: number }, cat: CachedProduct[], cash: Record<string, any>, rnd: () => number): Promise<void> {
  const body = saleBody(cat, till, cash, rnd);
  const asked = (body.items as any[]).map((l) => ({ productId: l.item.id as number, variantId: (l.variant?.id ?? null) as number | null, qtyMilli: Math.round(Number(l.quantity) * 1000) }));
  const c = await pool.connect();
  try {
    await c.query('begin');
    const { rows: prior } = await c.query('select id from "order" where client_id = $1', [body.uuid]);
    if (prior.length) { await c.query('commit'); return; }
    const { rows: [r] } = await c.query(READ, [asked.map((l) => l.productId), asked.filter((l) => l.variantId != null).map((l) => l.variantId), till.storeId, cash.id, till.terminalId, till.userId]);
    if (!r?.is_active || !r.in_store || r.store_id == null || r.terminal_id == null || r.payment_id == null) throw new Error('refused: user, store, terminal or payment type');
    const byId = new Map((r.products as ReadProduct[]).map((p) => [p.id, p]));
    const now = new Date();
    const lines = asked.map((l) => {
      const p = byId.get(l.productId);
      if (!p?.active) throw new Error(`refused: product ${l.productId}`);
      const variant = l.variantId == null ? null : p.variants.find((v) => v.id === l.variantId);
      if (l.variantId != null && !variant) throw new Error(`refused: variant ${l.variantId}`);
      // As our sale: a variant's own price, else the first rule of the variant or the product that applies now.
      const productRules = p.rules.filter((x) => x.variantId == null).map(ruleOf);
      const base = parseMoney(p.price);
      const priceCents = variant
        ? variantPrice(variant.price == null ? null : parseMoney(variant.price), base, [...p.rules.filter((x) => x.variantId === variant.id).map(ruleOf), ...productRules], now, r.time_zone ?? undefined)
        : effectivePrice(base, productRules, now, r.time_zone ?? undefined);
      return { ...l, p, priceCents, costCents: parseMoney(p.cost), taxes: p.taxes };
    }).sort((a, b) => a.productId - b.productId);
    const totals = computeOrderTotals({
      lines: lines.map((l) => ({ priceCents: l.priceCents, qtyMilli: l.qtyMilli, discountCents: 0, taxIncluded: true, taxRates: l.taxes.map((x) => parseRate(x.rate)) })),
      orderTaxRate: null, discount: { kind: 'none' }, adjustmentCents: 0,
    });
    const received = parseMoney(String(body.payments[0].received));
    if (received < totals.totalCents) throw new Error('refused: payments do not cover the total');
    const qty = (milli: number) => (milli / 1000).toFixed(3);

    const { rows: [{ id }] } = await c.query(`insert into "order" (user_id, store_id, terminal_id, status, is_suspended, client_id, customer_name, adjustment, sub_total, item_taxes, total, stock_applied)
      values ($1, $2, $3, 'Completed', false, $4, '', 0, $5, $6, $7, true) returning id`,
    [till.userId, till.storeId, till.terminalId, body.uuid, toDecimal(totals.subTotalCents), toDecimal(totals.itemTaxesCents), toDecimal(totals.totalCents)]);
    const values = lines.map((_, i) => `($1, $${2 + i * 6}, $${3 + i * 6}, $${4 + i * 6}, $${5 + i * 6}, $${6 + i * 6}, 0, $${7 + i * 6})`).join(',');
    const { rows: lineIds } = await c.query(`insert into order_product ("orderId", product_id, variant_id, quantity, price, cost, discount, taxes_total) values ${values} returning id`,
      [id, ...lines.flatMap((l, i) => [l.productId, l.variantId, qty(l.qtyMilli), toDecimal(l.priceCents), toDecimal(l.costCents), toDecimal(totals.lines[i].taxesTotalCents)])]);
    const taxRows = lines.flatMap((l, i) => l.taxes.map((x, k) => [lineIds[i].id, x.id, x.rate, toDecimal(totals.lines[i].taxCents[k])]));
    if (taxRows.length) {
      await c.query(`insert into order_product_tax (order_product_id, tax_id, rate, amount) values ${taxRows.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`).join(',')}`, taxRows.flat());
    }
    await c.query('insert into order_payment (order_id, type_id, total, received, due) values ($1, $2, $3, $4, 0)', [id, cash.id, toDecimal(totals.totalCents), toDecimal(received)]);
    const managed = lines.filter((l) => l.p.manage);
    if (managed.length) {
      const variantLines = managed.filter((l) => l.variantId != null).sort((a, b) => a.variantId! - b.variantId!);
      if (variantLines.length) {
        await c.query('update product_variant pv set quantity = pv.quantity - v.q from (select unnest($1::int[]) as id, unnest($2::numeric[]) as q) v where pv.id = v.id',
          [variantLines.map((l) => l.variantId), variantLines.map((l) => qty(l.qtyMilli))]);
      }
      await c.query(`insert into product_store (product_id, store_id, quantity) select p, $3, -q from unnest($1::int[], $2::numeric[]) as u(p, q) order by p
        on conflict (product_id, store_id) do update set quantity = product_store.quantity + excluded.quantity`, [managed.map((l) => l.productId), managed.map((l) => qty(l.qtyMilli)), till.storeId]);
      const moves = [...managed.map((l) => [l.productId, null, till.storeId, `-${qty(l.qtyMilli)}`]), ...variantLines.map((l) => [l.productId, l.variantId, null, `-${qty(l.qtyMilli)}`])];
      await c.query(`insert into stock_movement (product_id, variant_id, store_id, quantity, reason, order_id, user_id)
        select p, v, s, q, 'sale', $5, $6 from unnest($1::int[], $2::int[], $3::int[], $4::numeric[]) as m(p, v, s, q)`,
      [moves.map((m) => m[0]), moves.map((m) => m[1]), moves.map((m) => m[2]), moves.map((m) => m[3]), id, till.userId]);
    }
    // The number last: the store's counter row stays locked only until the commit right after.
    await c.query(`with n as (insert into store_counter (store_id, last_order_id) values ($1, 1)
        on conflict (store_id) do update set last_order_id = store_counter.last_order_id + 1 returning last_order_id)
      update "order" set order_id = n.last_order_id from n where "order".id = $2`, [till.storeId, id]);
    await c.query('commit');
  } catch (e) {
    await c.query('rollback').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}
