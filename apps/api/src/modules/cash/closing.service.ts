import { and, desc, eq, gte, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { forbidden, notFound, validationError } from '@pos/domain/errors';
import { minorToDecimal, minorToString, parseMinor } from '@pos/domain/money';
import { cashInHand, denominationsTotal, isOpeningStale } from '@pos/domain/closing';
import { SETTLED_STATUSES } from '@pos/domain/schemas/sale';
import type { Db, Tx } from '../../db/client.ts';
import { allOn } from '../../db/concurrent.ts';
import { closing, order, orderPayment, paymentType, store, terminal, userAccount } from '../../db/schema/index.ts';
import { dateObj, num, presentStoreBrief } from '../../lib/present.ts';
import { assertStoreAccess, can, type AuthInfo } from '../../plugins/auth.ts';
import { audit, changed } from '../../lib/audit.ts';
import { expensesCents } from './expenses.service.ts';
import { exactAmounts, storeDigits } from '../../lib/store-money.ts';

/**
 * Day closing per store and terminal (reference-client 2.11, spec sections 4 and 9).
 *
 * A day is opened by the first GET /opened for a store + terminal (race-safe: the terminal row is
 * locked, so two tabs get the same day), started by saving an opening balance, and closed by
 * 'Close day' (closedAt and closedBy are the server's time and the caller, never the client's).
 * The next /opened call then opens a new day. The server computes the figures: expenses of the
 * store since the day opened, sales per payment-type kind of the terminal's settled orders since
 * the day opened, and expected cash = opening + added - withdrawn - expenses + cash sales.
 * On close these figures are stored (expenses, data = sales per kind) and a closed day is frozen.
 */
type Conn = Db | Tx;

export const ALREADY_CLOSED = 'This day is already closed.';

export interface ClosingFigures {
  /** Minor-unit digits of the store's currency (issue 19: USD 2, JPY 0, KWD 3); every figure is in those minor units. */
  digits: number;
  /** Σ expenses of the store in the day. */
  expenses: number;
  /** Σ payment totals per payment-type kind (cash, credit card, credit...); `cash` always present. */
  sales: Record<string, number>;
  cashSales: number;
  expectedCash: number;
}

type ClosingRow = typeof closing.$inferSelect;

/** Live figures of a day: from dateFrom up to `until` (SQL time; none = up to now, still open). */
export async function closingFigures(db: Conn, row: ClosingRow, until?: SQL): Promise<ClosingFigures> {
  const d = db as Db;
  const digits = await storeDigits(d, row.storeId);
  const conds = [
    eq(order.storeId, row.storeId),
    row.terminalId != null ? eq(order.terminalId, row.terminalId) : isNull(order.terminalId),
    // Settled orders, a (partly) returned sale still counted: its return is its own order.
    inArray(order.status, SETTLED_STATUSES),
    gte(order.createdAt, row.dateFrom),
    until ? sql`${order.createdAt} <= ${until}` : undefined,
  ];
  const [sums, expenses] = await allOn(db, [
    () => d.select({ type: paymentType.type, total: sql<string>`coalesce(sum(${orderPayment.total}), 0)::text` })
      .from(orderPayment)
      .innerJoin(order, eq(order.id, orderPayment.orderId))
      .leftJoin(paymentType, eq(paymentType.id, orderPayment.typeId))
      .where(and(...conds))
      .groupBy(paymentType.type),
    () => expensesCents(d, row.storeId, row.dateFrom, until, digits),
  ]);
  const sales: Record<string, number> = { cash: 0 };
  for (const s of sums) {
    const k = s.type ?? 'unknown';
    sales[k] = (sales[k] ?? 0) + parseMinor(s.total, digits);
  }
  const expectedCash = cashInHand({
    openingBalance: parseMinor(row.openingBalance, digits), cashAdded: parseMinor(row.cashAdded, digits), cashWithdrawn: parseMinor(row.cashWithdrawn, digits),
    expenses, cashSales: sales.cash,
  });
  return { digits, expenses, sales, cashSales: sales.cash, expectedCash };
}

/** Figures stored at close (a closed day is frozen). */
function storedFigures(row: ClosingRow, digits: number): ClosingFigures {
  const stored = (row.data && typeof row.data === 'object' && !Array.isArray(row.data) ? row.data : {}) as Record<string, unknown>;
  const sales: Record<string, number> = { cash: 0 };
  for (const [k, v] of Object.entries(stored)) sales[k] = parseMinor(typeof v === 'number' || typeof v === 'string' ? v : 0, digits);
  const expenses = parseMinor(row.expenses, digits);
  const expectedCash = cashInHand({
    openingBalance: parseMinor(row.openingBalance, digits), cashAdded: parseMinor(row.cashAdded, digits), cashWithdrawn: parseMinor(row.cashWithdrawn, digits),
    expenses, cashSales: sales.cash,
  });
  return { digits, expenses, sales, cashSales: sales.cash, expectedCash };
}

const salesOut = (sales: Record<string, number>, digits: number) => Object.fromEntries(Object.entries(sales).map(([k, v]) => [k, minorToDecimal(v, digits)]));

/**
 * The cash counted in the drawer, in minor units: Σ note value × count of the saved count (keys in
 * currency units, "0.005" … "20", exact in the store's digits), else the closing balance entered;
 * null: not counted. The X/Z report and the closing's over/short use this one figure.
 */
export function countedCash(row: Pick<ClosingRow, 'denominations' | 'closingBalance'>, digits: number): number | null {
  const saved = row.denominations && typeof row.denominations === 'object' && !Array.isArray(row.denominations) ? row.denominations as Record<string, unknown> : {};
  const counts = Object.fromEntries(Object.entries(saved).filter((e): e is [string, number] => Number.isSafeInteger(e[1]) && (e[1] as number) > 0));
  if (Object.keys(counts).length) {
    try {
      return denominationsTotal(counts, digits);
    } catch {
      // a key that is not an amount of this currency: fall back to the balance entered
    }
  }
  return row.closingBalance == null ? null : parseMinor(row.closingBalance, digits);
}

/** ClosingDto (reference-server 2.3): dates as {datetime}, amounts as numbers, plus the server's figures. */
export async function presentClosing(db: Conn, row: ClosingRow, now = new Date()) {
  const d = db as Db;
  const figures = row.closedAt ? storedFigures(row, await storeDigits(d, row.storeId)) : await closingFigures(d, row);
  const dec = (minor: number) => minorToDecimal(minor, figures.digits);
  const userIds = [row.openedById, row.closedById].filter((x): x is number => x != null);
  const [users, [s], [t]] = await allOn(db, [
    () => userIds.length ? d.select({ id: userAccount.id, username: userAccount.username, displayName: userAccount.displayName, roles: userAccount.roles, email: userAccount.email })
      .from(userAccount).where(inArray(userAccount.id, userIds)) : Promise.resolve([]),
    () => d.select().from(store).where(eq(store.id, row.storeId)),
    () => row.terminalId != null ? d.select().from(terminal).where(eq(terminal.id, row.terminalId)) : Promise.resolve([]),
  ]);
  const user = (id: number | null) => {
    const u = users.find((x) => x.id === id);
    return u ? { '@id': `/api/users/${u.id}`, id: u.id, username: u.username, displayName: u.displayName, roles: u.roles, email: u.email } : null;
  };
  const counted = countedCash(row, figures.digits);
  return {
    '@id': `/api/admin/closing/${row.id}`,
    id: row.id, uuid: row.uuid,
    createdAt: dateObj(row.createdAt), updatedAt: dateObj(row.updatedAt),
    dateFrom: dateObj(row.dateFrom), dateTo: dateObj(row.dateTo), closedAt: dateObj(row.closedAt),
    openingBalance: num(row.openingBalance), closingBalance: num(row.closingBalance),
    cashAdded: num(row.cashAdded), cashWithdrawn: num(row.cashWithdrawn),
    expenses: dec(figures.expenses),
    data: row.closedAt ? row.data : salesOut(figures.sales, figures.digits),
    denominations: row.denominations,
    openedBy: user(row.openedById), closedBy: user(row.closedById),
    store: s ? { ...presentStoreBrief(s), terminals: [] } : null,
    terminal: t ? { '@id': `/api/terminals/${t.id}`, id: t.id, code: t.code, description: t.description, isActive: t.isActive, uuid: t.uuid } : null,
    // server-computed
    sales: salesOut(figures.sales, figures.digits),
    cashSales: dec(figures.cashSales),
    expectedCash: dec(figures.expectedCash),
    // The drawer as counted (notes and coins) and its difference from the expected cash: over > 0, short < 0.
    countedCash: counted === null ? null : dec(counted),
    overShort: counted === null ? null : dec(counted - figures.expectedCash),
    isStale: !row.closedAt && isOpeningStale(row.dateFrom, now),
  };
}

/**
 * GET /api/admin/closing/opened: the open day of a store + terminal, created when there is none
 * (openingBalance null = not started). Guarantees: the store is the caller's and the terminal
 * belongs to it (422 otherwise); at most one open day per terminal even under concurrent calls
 * (the terminal row is locked while looking and creating).
 */
export async function openedClosing(db: Db, input: { storeId: number; terminalId: number }, actor: AuthInfo) {
  if (!actor.storeIds.includes(input.storeId)) throw validationError([{ propertyPath: 'store', message: `'Store' with ID '${input.storeId}' not found` }]);
  const row = await db.transaction(async (tx) => {
    const [t] = await tx.select({ id: terminal.id }).from(terminal)
      .where(and(eq(terminal.id, input.terminalId), eq(terminal.storeId, input.storeId))).for('update');
    if (!t) throw validationError([{ propertyPath: 'terminal', message: `'Terminal' with ID '${input.terminalId}' not found` }]);
    const [open] = await tx.select().from(closing)
      .where(and(eq(closing.storeId, input.storeId), eq(closing.terminalId, input.terminalId), isNull(closing.closedAt)))
      .orderBy(desc(closing.id)).limit(1);
    if (open) return open;
    const [created] = await tx.insert(closing).values({ storeId: input.storeId, terminalId: input.terminalId, openedById: actor.userId }).returning();
    return created;
  });
  return presentClosing(db, row);
}

async function loadVisible(db: Conn, id: number, actor: AuthInfo, lock = false) {
  const q = (db as Db).select().from(closing).where(eq(closing.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('Closing not found');
  assertStoreAccess(actor, row.storeId, 'Closing not found');
  return row;
}

export async function getClosing(db: Db, id: number, actor: AuthInfo) {
  return presentClosing(db, await loadVisible(db, id, actor));
}

export interface ClosingUpdate {
  openingBalance?: string | null;
  cashAdded?: string | null;
  cashWithdrawn?: string | null;
  closingBalance?: string | null;
  denominations?: unknown;
  /** true: save only ('Start day', 'Update'); absent/false: 'Close day'. */
  updateOnly?: boolean;
}

/**
 * POST /api/admin/closing/{id}: 'Start day' / 'Update' (updateOnly) save the balances; 'Close day'
 * also sets closedAt = dateTo = the database's now and closedBy = the caller, and stores the
 * server's expenses and sales per kind (data); closingBalance defaults to the expected cash.
 * Absent or null fields keep their value. A closed day cannot be changed (422).
 */
export async function updateClosing(db: Db, id: number, input: ClosingUpdate, actor: AuthInfo) {
  const row = await db.transaction(async (tx) => {
    const current = await loadVisible(tx, id, actor, true);
    if (current.closedAt) throw validationError([{ propertyPath: 'closedAt', message: ALREADY_CLOSED }], ALREADY_CLOSED);
    const set: Partial<typeof closing.$inferInsert> = { updatedAt: new Date() };
    // The store's currency (issue 19): more decimals than it allows is a 422 naming the field.
    const amounts = exactAmounts({
      openingBalance: input.openingBalance, cashAdded: input.cashAdded, cashWithdrawn: input.cashWithdrawn, closingBalance: input.closingBalance,
    }, await storeDigits(tx, current.storeId));
    if (amounts.openingBalance != null) set.openingBalance = amounts.openingBalance;
    if (amounts.cashAdded != null) set.cashAdded = amounts.cashAdded;
    if (amounts.cashWithdrawn != null) set.cashWithdrawn = amounts.cashWithdrawn;
    if (amounts.closingBalance != null) set.closingBalance = amounts.closingBalance;
    if (input.denominations !== undefined && input.denominations !== null) set.denominations = input.denominations;
    // Without 'closing.edit', the opening float, once set, is not changed (403 naming it): the
    // expected cash is counted from it. Cash in/out and the counted cash are the till's own figures.
    if (!can(actor, 'closing.edit')) {
      for (const k of ['openingBalance'] as const) {
        const was = current[k];
        if (set[k] != null && was != null && Number(was) !== Number(set[k])) {
          throw forbidden(`${k}: changing a figure already set needs the 'closing.edit' permission.`);
        }
      }
    }
    const next: ClosingRow = { ...current, ...set } as ClosingRow;
    if (!input.updateOnly) {
      next.openingBalance ??= '0';
      next.cashAdded ??= '0';
      next.cashWithdrawn ??= '0';
      const f = await closingFigures(tx, next, sql`now()`);
      Object.assign(set, {
        openingBalance: next.openingBalance, cashAdded: next.cashAdded, cashWithdrawn: next.cashWithdrawn,
        expenses: minorToString(f.expenses, f.digits), data: salesOut(f.sales, f.digits),
        closingBalance: next.closingBalance ?? minorToString(f.expectedCash, f.digits),
        closedAt: sql`now()`, dateTo: sql`now()`, closedById: actor.userId,
      });
    }
    const [updated] = await tx.update(closing).set(set).where(eq(closing.id, id)).returning();
    const d = changed(current as never, updated as never);
    await audit(tx, { action: input.updateOnly ? 'closing.edited' : 'closing.closed', actor, storeId: updated.storeId, entity: 'closing', entityId: id, before: d.before, after: d.after });
    return updated;
  });
  return presentClosing(db, row);
}

/**
 * GET /api/admin/closing/list?store&terminal?: the closed days of one of the caller's stores (one
 * terminal, or all), newest first, a page at a time, each with its stored figures: the past
 * closings a till reprints its Z report from.
 */
export async function listClosings(db: Db, input: { storeId: number; terminalId?: number; page: number; itemsPerPage: number }, actor: AuthInfo) {
  if (!actor.storeIds.includes(input.storeId)) throw validationError([{ propertyPath: 'store', message: `'Store' with ID '${input.storeId}' not found` }]);
  const where = and(
    eq(closing.storeId, input.storeId),
    input.terminalId !== undefined ? eq(closing.terminalId, input.terminalId) : undefined,
    isNotNull(closing.closedAt),
  );
  const [rows, [{ total }]] = await allOn(db, [
    () => db.select().from(closing).where(where).orderBy(desc(closing.closedAt), desc(closing.id))
      .limit(input.itemsPerPage).offset((input.page - 1) * input.itemsPerPage),
    () => db.select({ total: sql<number>`count(*)::int` }).from(closing).where(where),
  ]);
  const list = [];
  for (const row of rows) list.push(await presentClosing(db, row));
  return { list, total, count: list.length };
}
