/**
 * The line groups' CSV written by PostgreSQL (sales-csv.ts) is the file sendSalesCsv writes from the
 * report's rows: every cell rule of formatCell, tricky product names through the route, and the
 * rounding of amounts to a currency's digits. (test/report-rollups.test.ts compares it with the
 * live report's CSV for every group over rolled days.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { order, product } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/raw.ts';
import { formatCell, parseCsv } from '../../lib/csv.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { neutralised, quoted, salesCsv } from './sales-csv.ts';
import { reportScope } from './reports.params.ts';
import { salesReport } from './sales-report.ts';
import { reportShop } from './reports.fixtures.ts';

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(async () => { await t?.close(); });

const CELLS = [
  '', 'Milk', '=1+2', '+44 20', '-5', '@SUM(A1)', '\tTab', '\rCR', "'=x", "''+y", "'plain", 'a,b', 'say "hi"', 'two\nlines', 'cr\rin',
  ' lead', 'trail ', '\u00a0nbsp', 'nbsp\u00a0', '\u2003em', 'x\u3000', '\ufeffbom', 'mid dle', 'حليب', 'حَلِيب طازج', 'Café crème', '=حليب', '٣ علب',
  '\u200bzero-width', 'tail\u2028', 'Straße, groß',
];

describe('the CSV written by PostgreSQL', () => {
  it('formats every cell as formatCell does (formula neutralised, then quoted)', async () => {
    const values = sql.join(CELLS.map((c, i) => sql`(${i}::int, ${c}::text)`), sql`, `);
    const rows = rowsOf<{ i: number; cell: string }>(await t.app.db.execute(sql`select v.i, ${quoted(sql`n.s`)} as cell from (values ${values}) v(i, s)
      cross join lateral (select ${neutralised(sql`v.s`)} as s) n order by v.i`));
    expect(rows.map((r) => r.cell)).toEqual(CELLS.map((c) => formatCell(c)));
  });

  it('is the file the rows give, with names a spreadsheet would misread, in a currency without decimals and one with three', async () => {
    const db = t.app.db;
    const shop = await reportShop(db);
    const [A, B, C] = shop.plain;
    await db.update(product).set({ name: '=HYPERLINK("x"), "cheap"', basePrice: '5.00' }).where(eq(product.id, A));
    await db.update(product).set({ name: ' Milk, 1L ', basePrice: '1.25' }).where(eq(product.id, B));
    await db.update(product).set({ name: 'حليب', basePrice: '0.35' }).where(eq(product.id, C));
    for (const [item, quantity] of [[A, 1], [B, 3], [C, 1.5], [A, 2]] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: admin, payload: {
        items: [{ item, quantity }], payments: [{ received: 100, type: shop.cash }], store: shop.main, terminal: shop.t1,
      } });
      expect(res.statusCode, res.body).toBe(201);
      await db.update(order).set({ createdAt: new Date('2026-02-10T12:00:00Z') }).where(eq(order.id, res.json().order.id));
    }
    const url = `/api/reports/sales?group=product&from=2026-02-10&to=2026-02-10&store=${shop.main}&format=csv`;
    const res = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const rows = parseCsv(res.body).rows;
    expect(rows.map((r) => r[1])).toEqual(['Label', '\'=HYPERLINK("x"), "cheap"', ' Milk, 1L ', 'حليب', 'Total']);
    expect(rows.slice(1).map((r) => [r[2], r[3], r[4]])).toEqual([['2', '3', '15.00'], ['1', '3', '3.75'], ['1', '1.5', '0.53'], ['4', '7.5', '19.28']]);
    // The same bytes as the rows of the report written by sendSalesCsv's rules (the JSON's amounts in minor units).
    const json = (await t.app.inject({ method: 'GET', url: url.replace('&format=csv', ''), headers: admin })).json();
    const line = (r: any, label: string) => [formatCell(r.key), formatCell(label), r.orders, r.quantity, ...['net', 'tax', 'gross', 'discount', 'refunds', 'cost', 'margin']
      .map((k) => (r[k] / 100).toFixed(2))].join(',');
    expect(res.body.split('\r\n').slice(1, -1)).toEqual([...json.rows.map((r: any) => line(r, r.label)), line(json.totals, 'Total')]);

    // Amounts are rounded to the currency's digits, half away from zero, as parseMinor does.
    for (const digits of [0, 3]) {
      const auth = { storeIds: [shop.main] } as unknown as AuthInfo; // reportScope reads the caller's stores
      const scope = { ...await reportScope(db, auth, { from: '2026-02-10', to: '2026-02-10', store: String(shop.main), format: 'csv' }), digits };
      const report = await salesReport(db, scope, 'product', true);
      const text = await salesCsv(db, scope, 'product', true);
      const fixed = (v: number) => (digits ? (v / 10 ** digits).toFixed(digits) : String(v));
      expect(text.split('\r\n').slice(0, -1).map((l) => parseCsv(l).rows[0].slice(4))).toEqual(
        [...report.rows, report.totals].map((r) => [r.net, r.tax, r.gross, r.discount, r.refunds, r.cost!, r.margin!].map(fixed)));
    }
  });
});
