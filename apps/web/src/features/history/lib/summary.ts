/** Sale history tiles and chart series (reference client 4.7), in cents. */
import { mulPriceQty, sumCents, tryParseMoney, tryParseScaled } from '@pos/domain/money';
import { profitOrLoss } from '@pos/domain/closing';
import { ORDER_STATUS, type HistoryOrder } from './types.ts';

const c = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? (tryParseMoney(v) ?? 0) : 0);
const q = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? (tryParseScaled(v, 3) ?? 0) : 0);

/** Rate = sum of price x qty. */
export const orderRate = (o: HistoryOrder) => sumCents(o.items.map((i) => mulPriceQty(c(i.price), q(i.quantity))));
/** Cost = sum of cost x qty (the line's cost at sale time, else the product's). */
export const orderCost = (o: HistoryOrder) => sumCents(o.items.map((i) => mulPriceQty(c(i.cost ?? i.product?.cost), q(i.quantity))));
/** Total = sum of payments.total. */
export const orderTotal = (o: HistoryOrder) => sumCents(o.payments.map((p) => c(p.total)));
export const orderReceived = (o: HistoryOrder) => sumCents(o.payments.map((p) => c(p.received)));

export interface HistorySummary {
  bills: number;
  amount: number;
  cost: number;
  expenses: number;
  profit: { amountCents: number; isLoss: boolean };
}

/**
 * Tiles over the orders shown: bills, amount received and cost of the orders that are not deleted
 * (cost multiplied by quantity: the reference forgot the quantity), expenses, profit or loss.
 */
export function historySummary(orders: readonly HistoryOrder[], expenses: readonly (number | string)[]): HistorySummary {
  const live = orders.filter((o) => o.status !== ORDER_STATUS.deleted);
  const amount = sumCents(live.map(orderReceived));
  const cost = sumCents(live.map(orderCost));
  const exp = sumCents(expenses.map(c));
  return { bills: orders.length, amount, cost, expenses: exp, profit: profitOrLoss({ sales: amount, cost, expenses: exp }) };
}

/** Sum of payments.total grouped by a key, in first-seen order. */
export function totalsBy(orders: readonly HistoryOrder[], key: (o: HistoryOrder) => string): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const o of orders) {
    if (o.status === ORDER_STATUS.deleted) continue;
    const k = key(o);
    m.set(k, (m.get(k) ?? 0) + orderTotal(o));
  }
  return [...m.entries()];
}
