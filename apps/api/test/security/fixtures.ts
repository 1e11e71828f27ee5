/**
 * Valid request bodies for the routes whose body cannot be guessed from a record the API shows
 * (till operations). Everything else is built generically by cloning a record of the same
 * collection, as the reference client does when it sends an edited object back.
 */
import crypto from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { computeOrderTotals } from '@pos/domain/cart';
import { parseMoney, parseQuantity, parseRate, toDecimal } from '@pos/domain/money';
import type { Db } from '../../src/db/client.ts';
import { paymentType, product, productStore, productTax, productVariant, tax, terminal } from '../../src/db/schema/index.ts';

export interface FactProduct { id: number; price: string; taxRates: number[] }

export interface ShopFacts {
  /** Products without variants, stock-tracked, sold in the store (by store id). */
  stocked: Record<number, FactProduct[]>;
  /** Products without variants and without stock tracking. */
  untracked: Record<number, FactProduct[]>;
  terminals: Record<number, number[]>;
  cashPaymentId: number;
  cardPaymentId: number;
}

/** Reads what the till fixtures need from the demo shop. */
export async function shopFacts(db: Db): Promise<ShopFacts> {
  const rows = await db.select({ id: product.id, price: product.basePrice, manage: product.manageInventory, storeId: productStore.storeId })
    .from(product).innerJoin(productStore, eq(productStore.productId, product.id))
    .where(and(eq(product.isActive, true), sql`not exists (select 1 from ${productVariant} where ${productVariant.productId} = ${product.id})`))
    .orderBy(asc(product.id));
  const stocked: ShopFacts['stocked'] = {};
  const untracked: ShopFacts['untracked'] = {};
  const taxRows = await db.select({ productId: productTax.productId, rate: tax.rate }).from(productTax)
    .innerJoin(tax, eq(tax.id, productTax.otherId)).where(eq(tax.isActive, true)).orderBy(asc(tax.id));
  const rules = new Set((await db.execute(sql`select distinct product_id from product_price`) as any).rows?.map((r: any) => Number(r.product_id)) ?? []);
  for (const r of rows) {
    if (rules.has(r.id)) continue; // price rules: the till's price would depend on the date
    const bucket = r.manage ? stocked : untracked;
    (bucket[r.storeId] ??= []).push({ id: r.id, price: r.price, taxRates: taxRows.filter((x) => x.productId === r.id).map((x) => parseRate(x.rate)) });
  }
  const terms = await db.select().from(terminal).orderBy(asc(terminal.id));
  const terminals: ShopFacts['terminals'] = {};
  for (const t of terms) if (t.storeId != null) (terminals[t.storeId] ??= []).push(t.id);
  const pays = await db.select().from(paymentType).orderBy(asc(paymentType.id));
  const cash = pays.find((p) => p.type === 'cash') ?? pays[0];
  const card = pays.find((p) => p.type === 'credit card') ?? pays[0];
  return { stocked, untracked, terminals, cashPaymentId: cash?.id ?? 1, cardPaymentId: card?.id ?? 1 };
}

export interface SaleLine { id: number; price: string; quantity: number; taxRates?: number[] }

/** A completed sale as the till sends it (reference client 2.5a), totals from cart.ts, paid in cash to the cent. */
export function saleBody(facts: ShopFacts, storeId: number, lines: SaleLine[], extra: Record<string, unknown> = {}) {
  const totals = computeOrderTotals({
    lines: lines.map((l) => ({ priceCents: parseMoney(l.price), qtyMilli: parseQuantity(l.quantity), discountCents: 0, taxIncluded: true, taxRates: l.taxRates ?? [] })),
  });
  const total = toDecimal(totals.grandTotalCents);
  return {
    items: lines.map((l) => ({ item: { id: l.id, '@id': `/api/products/${l.id}` }, quantity: l.quantity, price: Number(l.price), discount: 0, taxes: [], taxIncluded: true, stock: 0 })),
    payments: [{ type: { id: facts.cashPaymentId, '@id': `/api/payments/${facts.cashPaymentId}` }, received: total, total, due: 0 }],
    discountAmount: 0,
    taxAmount: 0,
    adjustment: 0,
    total: toDecimal(totals.totalCents),
    store: storeId,
    terminal: facts.terminals[storeId]?.[0],
    status: 'Completed',
    uuid: crypto.randomUUID(),
    ...extra,
  };
}

/** A goods receipt as the back office sends it (reference client 2.8), stock updated. */
export function purchaseBody(facts: ShopFacts, storeId: number, lines: SaleLine[], extra: Record<string, unknown> = {}) {
  return {
    createdAt: '2025-03-01T10:00',
    purchaseNumber: `P-${crypto.randomBytes(5).toString('hex')}`,
    purchaseMode: 'Items list',
    supplier: '/api/suppliers/1',
    paymentType: `/api/payments/${facts.cashPaymentId}`,
    store: storeId,
    updateStocks: true,
    updatePrice: false,
    items: lines.map((l) => ({ item: `/api/products/${l.id}`, quantity: l.quantity, purchasePrice: '1.10', purchaseUnit: 'pcs', variants: [] })),
    ...extra,
  };
}

/** Hand-written valid bodies, by "METHOD url" (url as registered). */
export function knownBodies(facts: ShopFacts, storeId: number): Record<string, () => unknown> {
  const stocked = facts.stocked[storeId] ?? [];
  return {
    'post /api/auth/login_check': () => ({ username: 'nobody', password: 'wrong' }),
    'post /api/auth/forgot-password': () => ({ username: 'nobody' }),
    'post /api/auth/reset-password': () => ({ resetToken: 'nope', password: 'secret1' }),
    'post /api/token/refresh': () => ({ refresh_token: 'nope' }),
    'post /api/auth/refresh': () => ({ refresh_token: 'nope' }),
    'post /api/locale': () => ({ locale: 'en' }),
    'post /api/admin/profile/update': () => ({ displayName: 'Fuzz' }),
    'post /api/admin/order/create': () => saleBody(facts, storeId, stocked.slice(0, 2).map((p) => ({ ...p, quantity: 1 }))),
    'post /api/purchases': () => purchaseBody(facts, storeId, stocked.slice(0, 2).map((p) => ({ ...p, quantity: 3 }))),
    'post /api/purchase_orders': () => ({
      createdAt: '2025-03-01T10:00', poNumber: `PO-${crypto.randomBytes(4).toString('hex')}`, supplier: '/api/suppliers/1', store: storeId,
      items: stocked.slice(0, 2).map((p) => ({ item: `/api/products/${p.id}`, quantity: 2, price: 1.25, unit: 'pcs', comments: null, variants: [] })),
    }),
    'post /api/admin/expense/create': () => ({ description: 'Petty cash: milk', amount: '12.50', store: storeId, dateTime: new Date().toISOString() }),
    'post /api/supplier_payments': () => ({ amount: '10.50', description: 'fuzz payment', supplier: '/api/suppliers/1' }),
    'post /api/admin/stock/transfer/create': () => ({ fromStore: storeId, toStore: storeId === 1 ? 2 : 1, note: 'fuzz', lines: stocked.slice(0, 2).map((p) => ({ product: p.id, quantity: 1 })) }),
    'post /api/admin/stock/count/create': () => ({ store: storeId, scope: 'full', note: 'fuzz' }),
    'post /api/admin/stock/adjustment/create': () => ({ store: storeId, note: 'fuzz', lines: stocked.slice(0, 2).map((p) => ({ product: p.id, quantity: -1, reason: 'damage', note: 'fuzz' })) }),
  };
}
