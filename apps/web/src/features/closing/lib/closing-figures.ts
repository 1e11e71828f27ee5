/**
 * Day closing figures (spec 9, reference client 4.10), in MINOR units of the store's currency
 * (issue 19: `digits` USD 2, JPY 0, KWD 3; every wire amount read exactly to them), and the
 * drawer's cash count in that currency's own notes and coins.
 */
import { cashDenominations } from '@pos/domain/cash-denominations';
import { cashInHand, denominationsTotal, profitOrLoss } from '@pos/domain/closing';
import { minorToDecimal, mulPriceQty, sumCents, tryParseScaled } from '@pos/domain/money';
import type { OrderRow } from '../api/closing.ts';

/** One line of the cash count: its key on the wire (currency units: "0.25", "5000") and its value in minor units. */
export interface Denomination {
  key: string;
  minor: number;
}

/**
 * The notes and coins counted in the drawer, largest first: the store's currency's series, plus any
 * other value already counted in this day (a count saved before the store's currency was set).
 */
export function denominationsOf(currency: string, digits: number, saved: Readonly<Record<string, unknown>> = {}): Denomination[] {
  const list = cashDenominations(currency).map((minor) => ({ key: String(minorToDecimal(minor, digits)), minor }));
  for (const [key, count] of Object.entries(saved)) {
    const minor = tryParseScaled(key, digits);
    if (minor === null || minor <= 0 || !count || list.some((d) => d.minor === minor)) continue;
    list.push({ key, minor });
  }
  return list.sort((a, b) => b.minor - a.minor);
}

export interface ClosingInputs {
  openingBalance: string;
  cashAdded: string;
  cashWithdrawn: string;
  /** Expense amounts since the day opened. */
  expenses: ReadonlyArray<number | string>;
  /** Sales per payment kind ("cash", "credit card", ...). */
  payments: Readonly<Record<string, number | string>>;
  orders: readonly OrderRow[];
  /** Counts per denomination key. */
  counts: Readonly<Record<string, string>>;
  /** Minor-unit digits of the store's currency (default 2). */
  digits?: number;
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

const amount = (v: unknown, digits: number) => (typeof v === 'number' || typeof v === 'string' ? (tryParseScaled(v, digits) ?? 0) : 0);

/** Cost of the goods sold: unit cost x quantity over the orders that were not deleted (refunds count negative). */
export function costOfOrders(orders: readonly OrderRow[], digits = 2): number {
  const amounts: number[] = [];
  for (const o of orders) {
    if (o.status === 'Deleted') continue;
    for (const line of o.items ?? []) {
      const qty = typeof line.quantity === 'number' || typeof line.quantity === 'string' ? (tryParseScaled(line.quantity, 3) ?? 0) : 0;
      // The line's cost at sale time when the server recorded it, else the product's current cost.
      amounts.push(mulPriceQty(amount(line.cost ?? line.product?.cost, digits), qty));
    }
  }
  return sumCents(amounts);
}

/** The counts typed per denomination key, as whole non-negative numbers (anything else is not counted). */
export function countsOf(counts: Readonly<Record<string, string>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(counts)) {
    const n = Number(v ?? '');
    if (tryParseScaled(k, 3) !== null && Number.isSafeInteger(n) && n > 0) out[k] = n;
  }
  return out;
}

export function closingFigures(input: ClosingInputs): ClosingFigures {
  const digits = input.digits ?? 2;
  const c = (v: unknown) => amount(v, digits);
  const expenses = sumCents(input.expenses.map(c));
  const sales: Record<string, number> = { cash: 0 };
  for (const [k, v] of Object.entries(input.payments)) sales[k] = c(v);
  const totalSales = sumCents(Object.values(sales));
  const cost = costOfOrders(input.orders, digits);
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
    counted: denominationsTotal(countsOf(input.counts), digits),
  };
}
