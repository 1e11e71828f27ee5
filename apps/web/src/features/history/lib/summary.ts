/**
 * Sale history tiles and chart series (reference client 4.7), in MINOR units of the store's
 * currency (issue 19: `digits` = its minor-unit digits, USD 2, JPY 0, KWD 3; wire amounts are read
 * exactly to them, never through hundredths).
 */
import { mulPriceQty, sumCents, tryParseScaled } from '@pos/domain/money';
import { ORDER_STATUS, type HistoryOrder } from './types.ts';

const amount = (v: unknown, digits: number) => (typeof v === 'number' || typeof v === 'string' ? (tryParseScaled(v, digits) ?? 0) : 0);
const q = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? (tryParseScaled(v, 3) ?? 0) : 0);

/** Rate = sum of price x qty. */
export const orderRate = (o: HistoryOrder, digits = 2) => sumCents(o.items.map((i) => mulPriceQty(amount(i.price, digits), q(i.quantity))));
/** Cost = sum of cost x qty (the line's cost at sale time, else the product's). */
export const orderCost = (o: HistoryOrder, digits = 2) => sumCents(o.items.map((i) => mulPriceQty(amount(i.cost ?? i.product?.cost, digits), q(i.quantity))));
/** Total = sum of payments.total. */
export const orderTotal = (o: HistoryOrder, digits = 2) => sumCents(o.payments.map((p) => amount(p.total, digits)));
export const orderReceived = (o: HistoryOrder, digits = 2) => sumCents(o.payments.map((p) => amount(p.received, digits)));
/** One wire amount (an order's discount or tax, an expense) in minor units. */
export const wireAmount = amount;

export interface HistorySummary {
  bills: number;
  amount: number;
  cost: number;
  expenses: number;
  /** sales - cost - expenses; a loss only below zero (zero is neither: the tile says "Break-even"). */
  profit: { amountCents: number; isLoss: boolean };
}

/** Orders whose money is real: settled sales (a returned sale stays, its return is its own negative order). */
const SETTLED: ReadonlySet<string> = new Set([ORDER_STATUS.completed, ORDER_STATUS.dispatched, ORDER_STATUS.returned, ORDER_STATUS.partiallyReturned]);

/**
 * Tiles over the orders shown (issue 23.6: figures that mean what they say): bills = the orders
 * shown; amount = what the settled sales charged (payments' totals, not the cash handed over, whose
 * change went back); cost of those sales (cost × quantity: the reference forgot the quantity);
 * expenses; profit or loss. Held, pending and deleted orders sold nothing yet.
 */
export function historySummary(orders: readonly HistoryOrder[], expenses: readonly (number | string)[], digits = 2): HistorySummary {
  const sold = orders.filter((o) => SETTLED.has(o.status));
  const charged = sumCents(sold.map((o) => orderTotal(o, digits)));
  const cost = sumCents(sold.map((o) => orderCost(o, digits)));
  const exp = sumCents(expenses.map((e) => amount(e, digits)));
  const result = sumCents([charged, -cost, -exp]);
  return { bills: orders.length, amount: charged, cost, expenses: exp, profit: { amountCents: result, isLoss: result < 0 } };
}

/** Sum of payments.total grouped by a key, in first-seen order. */
export function totalsBy(orders: readonly HistoryOrder[], key: (o: HistoryOrder) => string, digits = 2): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const o of orders) {
    if (o.status === ORDER_STATUS.deleted) continue;
    const k = key(o);
    m.set(k, (m.get(k) ?? 0) + orderTotal(o, digits));
  }
  return [...m.entries()];
}
