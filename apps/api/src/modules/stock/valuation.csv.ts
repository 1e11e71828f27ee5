import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';
import { minorToString, parseMinor } from '@pos/domain/money';
import { csvNumber, type CsvValue } from '../../lib/csv.ts';
import type { valuation } from './valuation.service.ts';

type Valuation = Awaited<ReturnType<typeof valuation>>;
const TITLES = { store: 'Store', category: 'Category', supplier: 'Supplier' } as const;

/**
 * GET /api/stock/valuation?format=csv (docs/api.md "Re-order, valuation and movement history"): the
 * rows of the JSON answer as the reports write theirs (lib/csv.ts `sendCsv`): a header row, one row
 * per group and currency (a product without a category / supplier: an empty name and id), then a
 * `Total` row per currency; values in major units with the currency's decimals, written as numbers.
 */
export function valuationCsv(report: Valuation): { name: string; header: string[]; rows: CsvValue[][] } {
  const money = (value: number, currency: string) => {
    const digits = currencyDigits(isCurrencyCode(currency) ? currency : 'USD');
    return csvNumber(minorToString(parseMinor(value, digits), digits));
  };
  const qty = (q: number | null) => (q === null ? '' : csvNumber(String(q)));
  const rows: CsvValue[][] = report.rows.map((r) => {
    const key = r[report.group] as { id: number; name: string | null } | null | undefined;
    return [key?.name ?? '', key?.id ?? '', r.currency, r.products, qty(r.quantity), money(r.value, r.currency)];
  });
  for (const t of report.totals) rows.push(['Total', '', t.currency, '', qty(t.quantity), money(t.value, t.currency)]);
  return {
    name: `stock-valuation-by-${report.group}-${report.at.slice(0, 10)}`,
    header: [TITLES[report.group], 'ID', 'Currency', 'Products', 'Quantity', 'Value'],
    rows,
  };
}
