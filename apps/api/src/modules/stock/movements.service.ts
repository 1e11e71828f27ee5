import { sql } from 'drizzle-orm';
import { notFound } from '@pos/domain/errors';
import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';
import { minorToDecimal, minorToString, parseMinor, parseQuantity, quantityToString } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { pgArray, rowsOf } from '../../db/raw.ts';
import { csvNumber, type CsvValue } from '../../lib/csv.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import { countCap } from '../../resources/engine.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import type { MovementsQuery } from './stock-ledger.schemas.ts';
import { iso, qtyOut } from './stock-ops.common.ts';

/**
 * One product's stock movement history (issue 25.6): every ledger row of the product in the
 * caller's stores (or one), newest first, with the running balance of its store after each row
 * (its store's stock less every later row: the ledger sums to the stock), the reason, the
 * document, who and when. The document of a row: a sale or return (`order`), a purchase
 * (`purchase`), or a stock document (`transfer`, `count`, `adjustment`: stock_movement.document_kind
 * and document_id, migration 0014), each as `document: {kind, id, number}`; product edits and
 * imports have none. As CSV (`format=csv`): every row of the range (up to 100,000), quantities
 * and the unit cost in major units of the store's currency, the cost only for `cost.view`.
 */

interface MoveRow {
  id: number; created_at: string; store_id: number; store_name: string; currency: string; quantity: string; balance: string; reason: string; unit_cost: string | null;
  order_id: number | null; order_number: number | null; purchase_id: number | null; purchase_number: string | null;
  document_kind: string | null; document_id: number | null; document_number: number | null;
  user_id: number | null; username: string | null; display_name: string | null;
}

export const DOCUMENT_KINDS = ['order', 'purchase', 'transfer', 'count', 'adjustment'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export interface MovementDocument { kind: DocumentKind; id: number; number: number | string | null }

/** The most rows a CSV holds (as the audit log's). */
export const MOVEMENTS_CSV_MAX = 100_000;

function documentOf(r: MoveRow): MovementDocument | null {
  if (r.order_id != null) return { kind: 'order', id: Number(r.order_id), number: r.order_number == null ? null : Number(r.order_number) };
  if (r.purchase_id != null) return { kind: 'purchase', id: Number(r.purchase_id), number: r.purchase_number };
  if (r.document_kind != null && r.document_id != null && (DOCUMENT_KINDS as readonly string[]).includes(r.document_kind)) {
    return { kind: r.document_kind as DocumentKind, id: Number(r.document_id), number: r.document_number == null ? null : Number(r.document_number) };
  }
  return null;
}

async function product(db: Db, id: number, actor: AuthInfo) {
  const [p] = rowsOf<{ id: number; name: string; sku: string | null; barcode: string | null }>(await db.execute(sql`select id, name, sku, barcode from product where id = ${id}
    and (store_ids = '{}' or store_ids && ${pgArray(actor.storeIds)}::int[])`));
  if (!p) throw notFound('Product not found');
  return p;
}

const SELECT_PAGE = (balance: ReturnType<typeof sql>) => sql`
    select f.id, f.created_at, f.store_id, st.name as store_name, st.currency, f.quantity::text as quantity, (${balance})::text as balance, f.reason,
      f.unit_cost::text as unit_cost, f.order_id, o.order_id as order_number, f.purchase_id, pu.purchase_number,
      f.document_kind, f.document_id, coalesce(tr.number, sc.number, sa.number) as document_number,
      f.user_id, u.username, u.display_name
    from page f join store st on st.id = f.store_id
    left join "order" o on o.id = f.order_id left join purchase pu on pu.id = f.purchase_id left join user_account u on u.id = f.user_id
    left join stock_transfer tr on f.document_kind = 'transfer' and tr.id = f.document_id
    left join stock_count sc on f.document_kind = 'count' and sc.id = f.document_id
    left join stock_adjustment sa on f.document_kind = 'adjustment' and sa.id = f.document_id`;

/** The product's own rows (not its variants') in `stores`, of alias m. */
const scopeOf = (q: MovementsQuery, stores: number[]) =>
  sql`m.product_id = ${q.product} and m.variant_id is null and m.store_id = any(${pgArray(stores)}::int[])`;

/** The `from` / `to` window, of alias m. */
const windowOf = (q: MovementsQuery) => sql`${q.from ? sql`and m.created_at >= ${q.from.toISOString()}::timestamptz` : sql``}
    ${q.to ? sql`and m.created_at <= ${q.to.toISOString()}::timestamptz` : sql``}`;

const rangeOf = (q: MovementsQuery, stores: number[]) => sql`${scopeOf(q, stores)} ${windowOf(q)}`;

/**
 * One page, newest first, by the (product_id, created_at, id) index. A row's balance is its store's
 * stock now less every later row of that store (the ledger sums to the stock: lib/stock.ts), so a
 * page reads its own rows and the rows newer than it, never the product's whole history.
 */
async function pageOf(db: Db, q: MovementsQuery, stores: number[], limit: number, offset: number) {
  return rowsOf<MoveRow>(await db.execute(sql`
    with page as (select m.* from stock_movement m where ${rangeOf(q, stores)}
      order by m.created_at desc, m.id desc limit ${limit} offset ${offset}),
    top as (select created_at, id from page order by created_at desc, id desc limit 1),
    newer as (select m.store_id, sum(m.quantity) as q from stock_movement m, top
      where ${scopeOf(q, stores)} and (m.created_at, m.id) > (top.created_at, top.id) group by m.store_id)
    ${SELECT_PAGE(sql`coalesce(ps.quantity, 0) - coalesce(nw.q, 0)
      - coalesce(sum(f.quantity) over (partition by f.store_id order by f.created_at desc, f.id desc rows between unbounded preceding and 1 preceding), 0)`)}
    left join product_store ps on ps.product_id = f.product_id and ps.store_id = f.store_id
    left join newer nw on nw.store_id = f.store_id
    order by f.created_at desc, f.id desc`));
}

/** Every row of the range (the CSV), with the running sum of the store's ledger as its balance. */
async function allOf(db: Db, q: MovementsQuery, stores: number[], limit: number) {
  return rowsOf<MoveRow>(await db.execute(sql`
    with m as (
      select m.*, sum(m.quantity) over (partition by m.store_id order by m.created_at, m.id) as balance
      from stock_movement m where ${scopeOf(q, stores)}),
    page as (select * from m where true ${windowOf(q)} order by m.created_at desc, m.id desc limit ${limit})
    ${SELECT_PAGE(sql`f.balance`)}
    order by f.created_at desc, f.id desc`));
}

const digitsOf = (currency: string) => currencyDigits(isCurrencyCode(currency) ? currency : 'USD');

export async function movements(db: Db, q: MovementsQuery, actor: AuthInfo) {
  if (q.store != null) assertCallerStore(actor, q.store, 'store');
  const stores = q.store != null ? [q.store] : actor.storeIds;
  const p = await product(db, q.product, actor);
  const offset = (q.page - 1) * q.itemsPerPage;
  const rows = await pageOf(db, q, stores, q.itemsPerPage, offset);
  // Counted as far as the pager looks, like every list (resources/engine.ts countCap): cap + 1 is "more than".
  const cap = countCap(offset, q.itemsPerPage);
  const total = Number(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (select 1 from stock_movement m
    where ${rangeOf(q, stores)} ${cap === undefined ? sql`` : sql`limit ${cap + 1}`}) c`))[0].n);
  return {
    product: p, total, page: q.page, itemsPerPage: q.itemsPerPage,
    list: rows.map((r) => {
      const digits = digitsOf(r.currency);
      return {
        id: Number(r.id), at: iso(r.created_at), store: { id: Number(r.store_id), name: r.store_name }, reason: r.reason,
        quantity: qtyOut(parseQuantity(r.quantity)), balance: qtyOut(parseQuantity(r.balance)),
        cost: r.unit_cost == null ? null : minorToDecimal(parseMinor(r.unit_cost, digits), digits),
        order: r.order_id == null ? null : { id: Number(r.order_id), number: r.order_number == null ? null : Number(r.order_number) },
        purchase: r.purchase_id == null ? null : { id: Number(r.purchase_id), purchaseNumber: r.purchase_number },
        document: documentOf(r),
        user: r.user_id == null ? null : { id: Number(r.user_id), username: r.username, displayName: r.display_name },
      };
    }),
  };
}

/** The same history as CSV rows (for lib/csv `sendCsv`); `withCost` adds the unit cost and currency columns. */
export async function movementsCsv(db: Db, q: MovementsQuery, actor: AuthInfo, withCost: boolean): Promise<{ name: string; header: string[]; rows: CsvValue[][] }> {
  if (q.store != null) assertCallerStore(actor, q.store, 'store');
  const stores = q.store != null ? [q.store] : actor.storeIds;
  const p = await product(db, q.product, actor);
  const rows = await allOf(db, q, stores, MOVEMENTS_CSV_MAX);
  const header = ['Time', 'Store', 'Reason', 'Document', 'Document number', 'Document ID', 'User', 'Quantity', 'Balance', ...(withCost ? ['Unit cost', 'Currency'] : [])];
  const qty = (s: string) => csvNumber(quantityToString(parseQuantity(s)));
  const lines = rows.map((r): CsvValue[] => {
    const d = documentOf(r);
    const digits = digitsOf(r.currency);
    return [
      iso(r.created_at), r.store_name, r.reason, d?.kind ?? '', d?.number ?? '', d?.id ?? '', r.display_name || r.username || '', qty(r.quantity), qty(r.balance),
      ...(withCost ? [r.unit_cost == null ? '' : csvNumber(minorToString(parseMinor(r.unit_cost, digits), digits)), r.currency] : []),
    ];
  });
  return { name: `stock-movements-${p.sku ? p.sku.replace(/[^\w.-]+/g, '_') : p.id}`, header, rows: lines };
}
