import { parseWhen, storeTimeRange, type When } from '../../lib/when.ts';
import { and, asc, desc, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { notFound, validationError } from '@pos/domain/errors';
import { parseMinor } from '@pos/domain/money';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { allOn } from '../../db/concurrent.ts';
import { expense, store, userAccount } from '../../db/schema/index.ts';
import { isJunk } from '../../resources/engine.ts';
import { isoDate, num, presentStoreBrief } from '../../lib/present.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import { exactAmounts, storeDigits } from '../../lib/store-money.ts';
import { assertStoreAccess, type AuthInfo } from '../../plugins/auth.ts';

/**
 * Petty-cash expenses recorded at the till (reference-client 2.10). Any signed-in user of a store
 * may record one for that store (the cashier pays for milk from the drawer); they count against
 * the day's cash in hand (closing.service). Delete is soft and admin-only.
 */
type Conn = Db | Tx;

export interface ExpenseInput { description: string; amount: string; store: number }

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** "yyyy-MM-ddTHH:mm" (on the store's clock: lib/when) or ISO; junk ("undefined", "") is absent; garbage is 422. */
export function parseWhenParam(v: unknown, propertyPath: string, end = false): When | undefined {
  const raw = first(v);
  if (isJunk(propertyPath, raw)) return undefined;
  return parseWhen(raw, propertyPath, end) ?? undefined;
}

export async function presentExpenses(db: Conn, rows: (typeof expense.$inferSelect)[]) {
  const storeIds = [...new Set(rows.map((r) => r.storeId).filter((x): x is number => x != null))];
  const userIds = [...new Set(rows.map((r) => r.userId))];
  const [stores, users] = await allOn(db, [
    () => storeIds.length ? (db as Db).select().from(store).where(inArray(store.id, storeIds)) : Promise.resolve([]),
    () => userIds.length ? (db as Db).select({ id: userAccount.id, username: userAccount.username, displayName: userAccount.displayName }).from(userAccount).where(inArray(userAccount.id, userIds)) : Promise.resolve([]),
  ]);
  return rows.map((e) => {
    const s = stores.find((x) => x.id === e.storeId);
    const u = users.find((x) => x.id === e.userId);
    return {
      id: e.id, amount: num(e.amount), description: e.description, createdAt: isoDate(e.createdAt),
      store: s ? presentStoreBrief(s) : null,
      user: u ? { id: u.id, username: u.username, displayName: u.displayName } : null,
      uuid: e.uuid,
    };
  });
}

const SORTS: Record<string, PgColumn> = { id: expense.id, createdAt: expense.createdAt, amount: expense.amount, description: expense.description };

/**
 * GET /api/admin/expense/list: `{list, total, count}` of the caller's stores (or the asked store,
 * which must be one of them), createdAt within [dateTimeFrom, dateTimeTo], soft-deleted excluded.
 * orderBy id|createdAt|amount|description, orderMode ASC|DESC (default createdAt DESC);
 * optional limit/offset (default: all, up to 10 000).
 */
export async function listExpenses(db: Db, query: Record<string, unknown>, actor: AuthInfo) {
  const q = query ?? {};
  const conds: SQL[] = [isNull(expense.deletedAt)];
  const storeParam = first(q.store ?? q['store.id']);
  let storeIds = actor.storeIds;
  if (!isJunk('store', storeParam)) {
    const id = Number(/(\d+)$/.exec(String(storeParam))?.[1]);
    if (!Number.isInteger(id) || !actor.storeIds.includes(id)) {
      throw validationError([{ propertyPath: 'store', message: `'Store' with ID '${String(storeParam)}' not found` }]);
    }
    storeIds = [id];
  }
  conds.push(storeIds.length ? inArray(expense.storeId, storeIds) : sql`false`);
  const range = await storeTimeRange(db, storeIds, expense.createdAt, expense.storeId,
    parseWhenParam(q.dateTimeFrom, 'dateTimeFrom') ?? null, parseWhenParam(q.dateTimeTo, 'dateTimeTo', true) ?? null);
  if (range) conds.push(range);
  const where = and(...conds);
  const key = String(first(q.orderBy) ?? '');
  const col = SORTS[key] ?? expense.createdAt;
  const dir = String(first(q.orderMode) ?? 'DESC').toUpperCase() === 'ASC' ? asc : desc;
  const limit = Math.min(Math.max(Number(first(q.limit)) || 10_000, 0), 10_000);
  const offset = Math.max(Number(first(q.offset)) || 0, 0);
  const [[{ count }], rows] = await allOn(db, [
    () => db.select({ count: sql<number>`count(*)::int` }).from(expense).where(where),
    () => db.select().from(expense).where(where).orderBy(dir(col), dir(expense.id)).limit(limit).offset(offset),
  ]);
  const list = await presentExpenses(db, rows);
  return { list, total: Number(count), count: list.length };
}

/**
 * Records an expense for one of the caller's stores; user = the caller; createdAt = the server's
 * time (the client's `dateTime` is "now" anyway, and a back-dated expense must not slip into a day
 * that is already closed). Amount > 0, description required.
 */
export async function createExpense(db: Db, input: ExpenseInput, actor: AuthInfo) {
  assertCallerStore(actor, input.store);
  // In the store's currency (issue 19): more decimals than it allows is a 422 naming 'amount'.
  const { amount } = exactAmounts({ amount: input.amount }, await storeDigits(db, input.store));
  const [row] = await db.insert(expense).values({ amount: amount!, description: input.description, storeId: input.store, userId: actor.userId }).returning();
  const [presented] = await presentExpenses(db, [row]);
  return presented;
}

async function loadVisible(db: Conn, id: number, actor: AuthInfo) {
  const [row] = await (db as Db).select().from(expense).where(and(eq(expense.id, id), isNull(expense.deletedAt)));
  if (!row) throw notFound('Expense not found');
  assertStoreAccess(actor, row.storeId, 'Expense not found');
  return row;
}

export async function getExpense(db: Db, id: number, actor: AuthInfo) {
  const [presented] = await presentExpenses(db, [await loadVisible(db, id, actor)]);
  return presented;
}

/** Soft delete (the row stays for the audit trail; lists and closings skip it). */
export async function deleteExpense(db: Db, id: number, actor: AuthInfo) {
  await loadVisible(db, id, actor);
  await db.update(expense).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(expense.id, id));
}

/** Σ expenses (cents) of a store with createdAt in [from, to] (`to` an SQL time, e.g. now()). */
/** Σ expenses of a store in a period, in minor units of a currency with `digits` digits (default 2). */
export async function expensesCents(db: Conn, storeId: number, from: Date, to?: SQL | Date, digits = 2): Promise<number> {
  const [row] = await (db as Db).select({ s: sql<string>`coalesce(sum(${expense.amount}), 0)::text` }).from(expense)
    .where(and(eq(expense.storeId, storeId), isNull(expense.deletedAt), gte(expense.createdAt, from), to ? sql`${expense.createdAt} <= ${to}` : undefined));
  return parseMinor(row.s, digits);
}
