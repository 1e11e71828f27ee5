/**
 * Customer and supplier balances with ageing (issue 25.6), from the ledgers as the customer and
 * supplier pages compute them (customers' credit through the sums the database keeps of it):
 *  - customer: debits = the opening balance (dated the customer's creation) and the credit-type
 *    payments of their settled orders (dated the order; a return's negative credit payment is a
 *    credit), credits = customer payments; figures shop-wide (docs/api.md "Customers");
 *  - supplier: debits = the opening balance and the credit purchases in the chosen stores, credits
 *    = supplier payments.
 * Ageing is first in, first out: what was paid settles the oldest debits first, so what is left
 * is the newest debits, each aged by its date against today in the stores' time zone: current (today),
 * 1–30, 31–60, 61–90 and over 90 days. A balance in the customer's favour is all current.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { parseMinor } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { pgArray, rowsOf } from '../../db/raw.ts';
import { customer, paymentType, supplier, supplierStore } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { linkedToStores } from '../../resources/filters.ts';
import { customerScope } from '../customer-account/customer.scope.ts';
import type { storesOf } from './reports.params.ts';
import { SETTLED_ARRAY } from './report-ctes.ts';

export const AGE_BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
type Bucket = (typeof AGE_BUCKETS)[number];

export type BalanceRow = { key: string; label: string; phone: string | null; balance: number } & Record<Bucket, number>;
type Raw = { id: number; name: string; phone: string | null; credit: string } & Record<Bucket, string | null>;
type Stores = Awaited<ReturnType<typeof storesOf>>;

/**
 * Per owner: its debts per age bucket (`current` … `over90`), all its debts (`debit`), its negative
 * items as a positive amount (`back`) and what it paid (`paid`), from `debts`; `owners` is the
 * owner table's visible rows as (id, name, phone). Only owners with a balance are rows.
 */
function ageing(debts: SQL, owners: SQL): SQL {
  return sql`with debts as (${debts}), ow as (${owners})
    select ow.id, ow.name, ow.phone, d.current::text, d.days1to30::text, d.days31to60::text, d.days61to90::text, d.over90::text,
      (d.back + d.paid)::text as credit
    from ow join debts d on d.owner = ow.id
    where d.debit - d.back - d.paid <> 0`;
}

/**
 * `debts` from the items themselves: `items(owner, day, amt)` and `credits(owner, amount)`. First
 * in, first out means what is still owed is the newest debts, so the buckets are filled from the
 * newest (in `present`): one aggregate, no running sum.
 */
function itemDebts(items: SQL, credits: SQL, today: SQL): SQL {
  const age = sql`${today} - i.day`;
  return sql`select coalesce(d.owner, pd.owner) as owner, d.current, d.days1to30, d.days31to60, d.days61to90, d.over90,
      coalesce(d.debit, 0) as debit, coalesce(d.back, 0) as back, coalesce(pd.paid, 0) as paid
    from (
      select i.owner, sum(i.amt) filter (where i.amt > 0 and ${age} <= 0) as current,
        sum(i.amt) filter (where i.amt > 0 and ${age} between 1 and 30) as days1to30,
        sum(i.amt) filter (where i.amt > 0 and ${age} between 31 and 60) as days31to60,
        sum(i.amt) filter (where i.amt > 0 and ${age} between 61 and 90) as days61to90,
        sum(i.amt) filter (where i.amt > 0 and ${age} > 90) as over90,
        sum(i.amt) filter (where i.amt > 0) as debit, sum(-i.amt) filter (where i.amt < 0) as back
      from (${items}) i group by i.owner
    ) d full join (select owner, sum(amount) as paid from (${credits}) x (owner, amount) group by owner) pd on pd.owner = d.owner`;
}

function present(raw: Raw[], stores: Stores) {
  const m = (v: string | null) => (v == null ? 0 : parseMinor(v, stores.digits));
  const rows: BalanceRow[] = raw.map((r) => {
    const debts = AGE_BUCKETS.map((b) => m(r[b]));
    const balance = debts.reduce((a, b) => a + b, 0) - m(r.credit);
    const row = { key: String(r.id), label: r.name, phone: r.phone, balance } as BalanceRow;
    // Paid ahead: a credit, all current. Else what is owed is the newest debts: filled newest first.
    let owed = balance;
    AGE_BUCKETS.forEach((b, i) => {
      const part = balance < 0 ? (i === 0 ? balance : 0) : Math.min(debts[i], owed);
      row[b] = part;
      if (balance >= 0) owed -= part;
    });
    return row;
  }).sort((a, b) => b.balance - a.balance || Number(a.key) - Number(b.key));
  const totals = { balance: 0 } as Record<Bucket | 'balance', number>;
  for (const b of AGE_BUCKETS) totals[b] = 0;
  for (const r of rows) for (const k of ['balance', ...AGE_BUCKETS] as const) totals[k] += r[k];
  return { currency: stores.currency, digits: stores.digits, timeZone: stores.timeZone, buckets: AGE_BUCKETS, rows, totals };
}

const todayIn = (stores: Stores) => sql`(now() at time zone ${stores.timeZone ?? 'UTC'})::date`;

/**
 * Customers' debts from their credit kept by the database (customer_credit, customer_credit_day:
 * migration 0021) plus the opening balances: the totals per customer, the last 90 days per day for
 * the buckets, and over 90 days the rest. Over 10,000,000 orders the items themselves were half a
 * million credit payments joined to their orders on every request (515 ms); this reads a row per
 * customer and per customer-day of the last 90 days.
 */
export async function customerBalances(db: Db, auth: AuthInfo, stores: Stores) {
  const zone = stores.timeZone ?? 'UTC';
  const today = todayIn(stores);
  const age = sql`${today} - r.day`;
  const debts = sql`
    with op as (select c.id as owner, (c.created_at at time zone ${zone})::date as day, c.opening_balance as amt from customer c where c.opening_balance <> 0),
    recent as (
      select r.owner, sum(r.amt) filter (where ${age} <= 0) as current, sum(r.amt) filter (where ${age} between 1 and 30) as days1to30,
        sum(r.amt) filter (where ${age} between 31 and 60) as days31to60, sum(r.amt) filter (where ${age} between 61 and 90) as days61to90
      from (
        select cd.customer_id as owner, cd.day, cd.debit as amt from customer_credit_day cd where cd.day >= ${today} - 90 and cd.debit <> 0
        union all select op.owner, op.day, op.amt from op where op.amt > 0 and op.day >= ${today} - 90
      ) r group by r.owner
    ),
    t as (
      select x.owner, sum(x.debit) as debit, sum(x.back) as back, sum(x.paid) as paid from (
        select cc.customer_id as owner, cc.debit, cc.back, cc.paid from customer_credit cc
        union all select op.owner, greatest(op.amt, 0), greatest(-op.amt, 0), 0 from op
      ) x group by x.owner
    )
    select t.owner, r.current, r.days1to30, r.days31to60, r.days61to90,
      t.debit - coalesce(r.current, 0) - coalesce(r.days1to30, 0) - coalesce(r.days31to60, 0) - coalesce(r.days61to90, 0) as over90,
      t.debit, t.back, t.paid
    from t left join recent r on r.owner = t.owner`;
  const owners = sql`select ${customer.id} as id, ${customer.name} as name, ${customer.phone} as phone from ${customer} where ${customerScope(auth)}`;
  return present(rowsOf<Raw>(await db.execute(ageing(debts, owners))), stores);
}

/** The same from the items themselves (every credit payment joined to its order): the reference the tests hold the kept credit to. */
export async function customerBalancesFromItems(db: Db, auth: AuthInfo, stores: Stores) {
  const zone = stores.timeZone ?? 'UTC';
  // The credit types' ids as a parameter: the planner then knows how few payments are on credit.
  const credit = (await db.select({ id: paymentType.id }).from(paymentType).where(eq(paymentType.type, 'credit'))).map((r) => r.id);
  const items = sql`select o.customer_id as owner, (o.created_at at time zone st.time_zone)::date as day, p.total as amt
      from order_payment p join "order" o on o.id = p.order_id join store st on st.id = o.store_id
      where p.type_id = any(${pgArray(credit.length ? credit : [-1])}::int[]) and o.customer_id is not null and o.status = any(${SETTLED_ARRAY}::text[])
    union all
    select c.id, (c.created_at at time zone ${zone})::date, c.opening_balance from customer c where c.opening_balance <> 0`;
  const owners = sql`select ${customer.id} as id, ${customer.name} as name, ${customer.phone} as phone from ${customer} where ${customerScope(auth)}`;
  return present(rowsOf<Raw>(await db.execute(ageing(itemDebts(items, sql`select customer_id, amount from customer_payment`, todayIn(stores)), owners))), stores);
}

export async function supplierBalances(db: Db, auth: AuthInfo, stores: Stores) {
  const zone = stores.timeZone ?? 'UTC';
  const items = sql`select pu.supplier_id as owner, (pu.created_at at time zone st.time_zone)::date as day, pu.total as amt
      from purchase pu join payment pt on pt.id = pu.payment_type_id join store st on st.id = pu.store_id
      where pt.type = 'credit' and pu.supplier_id is not null and pu.store_id = any(${pgArray(stores.storeIds)}::int[])
    union all
    select s.id, (s.created_at at time zone ${zone})::date, s.opening_balance from supplier s where s.opening_balance <> 0`;
  const credits = sql`select supplier_id, amount from supplier_payment`;
  const owners = sql`select ${supplier.id} as id, ${supplier.name} as name, ${supplier.phone} as phone from ${supplier}
    where ${linkedToStores(supplierStore, supplier.id, auth.storeIds)}`;
  return present(rowsOf<Raw>(await db.execute(ageing(itemDebts(items, credits, todayIn(stores)), owners))), stores);
}
