/**
 * GET /api/stock/valuation?format=csv (issue 25.5): the same rows as the JSON answer, as the reports
 * write theirs (lib/csv.ts sendCsv): a header row, one row per group, a Total row per currency,
 * values in major units with the currency's decimals; 'cost.view' only, bad format a 422.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../lib/csv.ts';
import { stockFixture, stockRequests, type StockFixture } from './stock.fixtures.ts';

let f: StockFixture;
beforeAll(async () => { f = await stockFixture(); });
afterAll(async () => { await f?.t.close(); });

const { get } = stockRequests(() => f);
const money = (v: number) => v.toFixed(2);

describe('stock valuation as CSV', () => {
  it('by store and by category: the JSON rows, a Total per currency, amounts with the currency\'s decimals', async () => {
    const at = new Date().toISOString();
    for (const group of ['store', 'category'] as const) {
      const json = await get(`/api/stock/valuation?at=${encodeURIComponent(at)}&group=${group}`);
      expect(json.statusCode, json.body).toBe(200);
      const val = json.json();
      const res = await get(`/api/stock/valuation?at=${encodeURIComponent(at)}&group=${group}&format=csv`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="stock-valuation-by-${group}-${at.slice(0, 10)}.csv"`);
      const rows = parseCsv(res.body).rows;
      expect(rows[0]).toEqual([group === 'store' ? 'Store' : 'Category', 'ID', 'Currency', 'Products', 'Quantity', 'Value']);
      expect(rows.slice(1)).toEqual([
        ...val.rows.map((r: any) => [r[group]?.name ?? '', r[group] ? String(r[group].id) : '', r.currency, String(r.products), String(r.quantity), money(r.value)]),
        ...val.totals.map((t: any) => ['Total', '', t.currency, '', String(t.quantity), money(t.value)]),
      ]);
      expect(val.rows.length).toBeGreaterThan(0);
    }
    // The fixture's own stock in the main store: A 50 at 6.00 and B 20 at 2.50 among the rest.
    const main = parseCsv((await get(`/api/stock/valuation?store=${f.main}&format=csv`)).body).rows;
    expect(main).toHaveLength(3);
    expect(main[1].slice(0, 3)).toEqual(['Main Street', String(f.main), 'USD']);
    expect(main[1][5]).toMatch(/^\d+\.\d{2}$/);
    expect(main[2][5]).toBe(main[1][5]);
  });

  it('refuses another format (422 naming it); a cashier (no cost.view) gets a 403 for the CSV too', async () => {
    const bad = await get('/api/stock/valuation?format=xml');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations.map((v: any) => v.propertyPath)).toEqual(['format']);
    expect((await get('/api/stock/valuation?format=csv', f.cashier)).statusCode).toBe(403);
  });
});
