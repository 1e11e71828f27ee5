/** Day closing figures (spec 9, reference client 4.10), all in cents. */
import { cashInHand, denominationsTotal, profitOrLoss } from '@pos/domain/closing';
import { mulPriceQty, sumCents, tryParseMoney, tryParseScaled } from '@pos/domain/money';
import type { OrderRow } from '../api/closing.ts';

/** Notes and coins counted in the drawer (spec 9 quick cash denominations). */
export const DENOMINATIONS = ['5000', '1000', '500', '100', '50', '20', '10', '5', '2', '1'] as const;

const c = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? (tryParseMoney(v) ?? 0) : 0);

export interface ClosingInputs {
  openingBalance: string;
  cashAdded: string;
  cashWithdrawn: string;
  /** Expense amounts since the day opened. */
  expenses: ReadonlyArray<number | string>;
  /** Sales per payment kind ("cash", "credit card", ...). */
  payments: Readonly<Record<string, number | string>>;
  orders: readonly OrderRow[];
  counts: Readonly<Record<string, string>>;
}

export interface ClosingFigures {
  expenses: number;
  sales: Record<string, number>;
  totalSales: number;
  cost: number;
  cashInHand: number;
  profit: { amountCents: number; isLoss: boolean };
  counted: number;
}

/** Cost of the goods sold: unit cost x quantity over the orders that were not deleted (refunds count negative). */
export function costOfOrders(orders: readonly OrderRow[]): number {
  const amounts: number[] = [];
  for (const o of orders) {
    if (o.status === 'Deleted') continue;
    for (const line of o.items ?? []) {
      const qty = typeof line.quantity === 'number' || typeof line.quantity === 'string' ? (tryParseScaled(line.quantity, 3) ?? 0) : 0;
      // The line's cost at sale time when the server recorded it, else the product's current cost.
      amounts.push(mulPriceQty(c(line.cost ?? line.product?.cost), qty));
    }
  }
  return sumCents(amounts);
}

export function closingFigures(input: ClosingInputs): ClosingFigures {
  const expenses = sumCents(input.expenses.map(c));
  const sales: Record<string, number> = { cash: 0 };
  for (const [k, v] of Object.entries(input.payments)) sales[k] = c(v);
  const totalSales = sumCents(Object.values(sales));
  const cost = costOfOrders(input.orders);
  const counts: Record<string, number> = {};
  for (const d of DENOMINATIONS) {
    const n = Number(input.counts[d] ?? '');
    if (Number.isSafeInteger(n) && n > 0) counts[d] = n;
  }
  return {
    expenses,
    sales,
    totalSales,
    cost,
    cashInHand: cashInHand({
      openingBalance: c(input.openingBalance),
      cashAdded: c(input.cashAdded),
      cashWithdrawn: c(input.cashWithdrawn),
      expenses,
      cashSales: sales.cash ?? 0,
    }),
    profit: profitOrLoss({ sales: totalSales, cost, expenses }),
    counted: denominationsTotal(counts),
  };
}
