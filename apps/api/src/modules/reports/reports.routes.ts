import type { FastifyInstance, FastifyReply } from 'fastify';
import { validationError } from '@pos/domain/errors';
import { minorToString } from '@pos/domain/money';
import { caller, can } from '../../plugins/auth.ts';
import { csvNumber, formatCell, sendCsv, sendCsvText, type CsvValue } from '../../lib/csv.ts';
import { AGE_BUCKETS, customerBalances, supplierBalances } from './balances-report.ts';
import { productsReport } from './products-report.ts';
import { flatQuery, limitOf, oneOf, reportScope, SALES_GROUPS, storesOf } from './reports.params.ts';
import { salesReport } from './sales-report.ts';
import { csvInSql, salesCsv } from './sales-csv.ts';

/**
 * Reports (issue 25.6), 'reports.view'; cost and margin only with 'cost.view'. Read-only, one
 * statement each, in the caller's stores; `format=csv` answers the same rows as a CSV file with
 * a header row, amounts in major units with the currency's decimals (docs/api.md "Reports").
 */
type Cell = CsvValue;
const money = (digits: number) => (v: number | undefined): Cell => (v === undefined ? '' : csvNumber(minorToString(v, digits)));
const quantity = (v: number | null): Cell => (v === null ? '' : csvNumber(String(v)));

/**
 * A sales report as a CSV file from its rows: the rows, then the total; the amounts are the
 * server's own plain decimals, the key and label go through formatCell. The route uses it for the
 * groups with few rows (day, hour, payment, tax); the line groups' CSV, 32,000 rows a day by product
 * at 10,000,000 orders, is written by PostgreSQL to the same bytes (sales-csv.ts).
 */
export function sendSalesCsv(reply: FastifyReply, report: Awaited<ReturnType<typeof salesReport>>, withCost: boolean) {
  const d = report.digits;
  const line = (r: typeof report.totals) => `${formatCell(r.key)},${formatCell(r.label)},${r.orders},${csvNumber(String(r.quantity)).numeric},${minorToString(r.net, d)},${
    minorToString(r.tax, d)},${minorToString(r.gross, d)},${minorToString(r.discount, d)},${minorToString(r.refunds, d)}${
    withCost ? `,${minorToString(r.cost!, d)},${minorToString(r.margin!, d)}` : ''}\r\n`;
  const lines = report.rows.map(line);
  lines.push(line({ ...report.totals, label: 'Total' }));
  return sendCsvText(reply, `sales-by-${report.group}-${report.from}-${report.to}`, salesCsvHeader(withCost), lines.join(''));
}

const salesCsvHeader = (withCost: boolean) => ['Key', 'Label', 'Orders', 'Quantity', 'Net', 'Tax', 'Gross', 'Discount', 'Refunds', ...(withCost ? ['Cost', 'Margin'] : [])];

export default async function reportsRoutes(app: FastifyInstance) {
  const tags = ['Reports'];
  const auth = 'reports.view' as const;
  // A year by product over a million orders sums millions of rolled rows: six times a read's limit.
  const statementLimitFactor = 6;

  app.get('/api/reports/sales', {
    config: { auth, statementLimitFactor },
    schema: { tags, summary: 'Sales by day|hour|product|variant|category|brand|cashier|store|payment|tax over local dates from..to (≤ 366 days) in the caller\'s stores (one currency): {currency, digits, timeZone, rows (the largest `limit`, default 500), groups, totals} in minor units; format=csv (every row)' },
  }, async (request, reply) => {
    const q = flatQuery(request.query);
    const group = oneOf(SALES_GROUPS, q.group, 'group', 'day');
    const who = caller(request);
    const scope = await reportScope(app.db, who, q);
    const withCost = can(who, 'cost.view');
    // A CSV by product, variant, category...: its rows written by PostgreSQL as one text (sales-csv.ts).
    if (scope.csv && csvInSql(group)) {
      const rows = await salesCsv(app.db, scope, group, withCost);
      return sendCsvText(reply, `sales-by-${group}-${scope.from}-${scope.to}`, salesCsvHeader(withCost), rows);
    }
    // A page shows the largest groups (default 500); a CSV has them all.
    const limit = scope.csv ? null : limitOf(q.limit, 500, 10_000);
    const report = await salesReport(app.db, scope, group, withCost, limit);
    return scope.csv ? sendSalesCsv(reply, report, withCost) : report;
  });

  app.get('/api/reports/products', {
    config: { auth, statementLimitFactor },
    schema: { tags, summary: 'Top sellers (sort=top) or slow movers with stock (sort=slow) over local dates from..to in the caller\'s stores, limit ≤ 500 (default 20); format=csv' },
  }, async (request, reply) => {
    const q = flatQuery(request.query);
    const sort = oneOf(['top', 'slow'] as const, q.sort, 'sort', 'top');
    const limit = limitOf(q.limit, 20, 500);
    const who = caller(request);
    const scope = await reportScope(app.db, who, q);
    const withCost = can(who, 'cost.view');
    const report = await productsReport(app.db, scope, sort, limit, withCost);
    if (!scope.csv) return report;
    const m = money(scope.digits);
    return sendCsv(reply, `${sort === 'top' ? 'top-sellers' : 'slow-movers'}-${scope.from}-${scope.to}`,
      ['Product ID', 'Product', 'SKU', 'Orders', 'Quantity', 'Net', 'Gross', 'Stock', ...(withCost ? ['Cost', 'Margin'] : [])],
      report.rows.map((r) => [r.key, r.label, r.sku, r.orders, quantity(r.quantity), m(r.net), m(r.gross), quantity(r.stock), ...(withCost ? [m(r.cost), m(r.margin)] : [])]));
  });

  for (const [kind, load] of [['customers', customerBalances], ['suppliers', supplierBalances]] as const) {
    app.get(`/api/reports/${kind}`, {
      config: { auth },
      schema: { tags, summary: `${kind === 'customers' ? 'Customer' : 'Supplier'} balances aged first in, first out (current, 1–30, 31–60, 61–90, over 90 days) in the caller's stores (one currency); format=csv` },
    }, async (request, reply) => {
      const q = flatQuery(request.query);
      const format = oneOf(['json', 'csv'] as const, q.format, 'format', 'json');
      const who = caller(request);
      const stores = await storesOf(app.db, who, q.store === undefined ? undefined : storeParam(q.store));
      const report = await load(app.db, who, stores);
      if (format === 'json') return report;
      const m = money(stores.digits);
      return sendCsv(reply, `${kind === 'customers' ? 'customer' : 'supplier'}-balances`,
        ['ID', 'Name', 'Phone', 'Balance', 'Current', '1-30 days', '31-60 days', '61-90 days', 'Over 90 days'],
        report.rows.map((r) => [r.key, r.label, r.phone, m(r.balance), ...AGE_BUCKETS.map((b) => m(r[b]))]));
    });
  }
}

function storeParam(raw: string): number {
  const id = Number(raw.replace(/^\/api\/stores\//, ''));
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw validationError([{ propertyPath: 'store', message: 'This value is not a valid store.' }]);
  return id;
}
