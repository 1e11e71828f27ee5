import { and, eq, inArray, sql } from 'drizzle-orm';
import { parseMoney } from '@pos/domain/money';
import { supplierOutstanding } from '@pos/domain/ledger';
import type { Db } from '../../db/client.ts';
import { paymentType, purchase, supplier, supplierPayment } from '../../db/schema/index.ts';
import { type AuthInfo } from '../../plugins/auth.ts';
import type { SupplierPaymentBody } from './purchasing.schemas.ts';
import { exactAmounts, storeDigits } from '../../lib/store-money.ts';
import { type Conn, assertSupplier, notFoundRef, write } from './purchasing.common.ts';

// Supplier payments and ledger

/**
 * Records a payment to a supplier. Guarantees: the supplier is visible to the caller; a named
 * purchase exists in one of the caller's stores and belongs to that supplier; amount > 0 and in
 * the currency of the purchase's store (else the caller's first store): more decimals than it has
 * is a 422 naming `amount` (issue 19.7).
 */
export async function createSupplierPayment(db: Conn, input: SupplierPaymentBody, actor: AuthInfo): Promise<number> {
  return write(db, async (tx) => {
    await assertSupplier(tx, input.supplier, actor);
    let storeId = actor.storeIds[0] ?? 0;
    if (input.purchase) {
      const [p] = await tx.select({ id: purchase.id, supplierId: purchase.supplierId, storeId: purchase.storeId }).from(purchase).where(eq(purchase.id, input.purchase));
      if (!p || p.supplierId !== input.supplier || !actor.storeIds.includes(p.storeId)) throw notFoundRef('purchase', 'Purchase', input.purchase);
      storeId = p.storeId;
    }
    const { amount } = exactAmounts({ amount: input.amount }, await storeDigits(tx, storeId));
    const [row] = await tx.insert(supplierPayment).values({
      amount: amount!, description: input.description, purchaseId: input.purchase ?? null, supplierId: input.supplier,
    }).returning({ id: supplierPayment.id });
    return row.id;
  });
}

export interface SupplierFigures {
  /** Σ totals of credit-type purchases, cents. */
  purchaseTotal: number;
  /** Σ payments, cents. */
  paid: number;
  openingBalance: number;
  /** credit purchases - payments + opening balance, cents. */
  outstanding: number;
}

/**
 * Ledger figures of suppliers (reference-client 4.10): outstanding = credit-type purchase totals
 * - payments + opening balance. `storeIds` limits the purchases counted (the caller's stores);
 * payments have no store and all count.
 */
export async function supplierFigures(db: Conn, supplierIds: number[], storeIds?: number[]): Promise<Map<number, SupplierFigures>> {
  const out = new Map<number, SupplierFigures>();
  const ids = [...new Set(supplierIds)];
  if (!ids.length) return out;
  const d = db as Db;
  const sups = await d.select({ id: supplier.id, openingBalance: supplier.openingBalance }).from(supplier).where(inArray(supplier.id, ids));
  const credit = await d.select({ supplierId: purchase.supplierId, total: purchase.total }).from(purchase)
    .innerJoin(paymentType, eq(paymentType.id, purchase.paymentTypeId))
    .where(and(inArray(purchase.supplierId, ids), eq(paymentType.type, 'credit'), storeIds ? (storeIds.length ? inArray(purchase.storeId, storeIds) : sql`false`) : undefined));
  const pays = await d.select({ supplierId: supplierPayment.supplierId, amount: supplierPayment.amount }).from(supplierPayment).where(inArray(supplierPayment.supplierId, ids));
  for (const s of sups) {
    const creditPurchaseTotals = credit.filter((c) => c.supplierId === s.id).map((c) => parseMoney(c.total));
    const payments = pays.filter((p) => p.supplierId === s.id).map((p) => parseMoney(p.amount));
    const openingBalance = parseMoney(s.openingBalance);
    out.set(s.id, {
      purchaseTotal: creditPurchaseTotals.reduce((a, b) => a + b, 0),
      paid: payments.reduce((a, b) => a + b, 0),
      openingBalance,
      outstanding: supplierOutstanding({ creditPurchaseTotals, payments, openingBalance }),
    });
  }
  return out;
}
