/**
 * Issue 26 point 3: label sheets as PDF. Each PDF is rendered to a picture (MuPDF, as a printer
 * would rasterise it) and the barcodes are read back with a barcode reader (ZXing), so a label that
 * prints but does not scan fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as mupdf from 'mupdf';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { purchase, purchaseItem, userAccount } from '../../db/schema/index.ts';
import { LABEL_PRESETS, type LabelLayout } from './label-layout.ts';

// The reader's WebAssembly from node_modules (by default it would be fetched from a CDN).
prepareZXingModule({ overrides: { wasmBinary: fs.readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm')).buffer as ArrayBuffer } });

let t: TestApp;
let admin: Record<string, string>;
const ids: Record<string, number> = {};

const item = (name: string, barcode: string, basePrice: string, barcodeType?: string) => ({
  name, barcode, ...(barcodeType ? { barcodeType } : {}), basePrice, cost: '1.00', saleUnit: 'pcs', purchaseUnit: 'pcs',
  department: '/api/departments/1', taxes: [], terminals: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'], brands: ['/api/brands/1'],
  stores: [{ store: '/api/stores/1', quantity: '0', location: null, reOrderLevel: null, product: null }], prices: [],
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  for (const [key, body] of [['pen', item('Ballpoint pen', '4006381333931', '2.50', 'ean13')], ['soap', item('Lavender soap', 'SOAP-77', '4.25')]] as const) {
    const res = await t.app.inject({ method: 'POST', url: '/api/products', headers: admin, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    ids[key] = res.json().id;
  }
});
afterAll(async () => { await t?.close(); });

const labels = (payload: unknown, headers = admin) => t.app.inject({ method: 'POST', url: '/api/labels', headers, payload: payload as object });

/**
 * Every label of every page read by ZXing from the page rendered at 300 dpi: the page's pixels are
 * cut into the layout's cells (as a scanner sees one label), so each label must scan on its own.
 */
async function scanLabels(pdf: Buffer, layout: LabelLayout): Promise<Array<Array<string | null>>> {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const dpmm = 300 / 25.4;
  const pages = [];
  for (let i = 0; i < doc.countPages(); i++) {
    const pix = doc.loadPage(i).toPixmap(mupdf.Matrix.scale(300 / 72, 300 / 72), mupdf.ColorSpace.DeviceRGB, false);
    const [W, rgb] = [pix.getWidth(), pix.getPixels()];
    const cells: Array<string | null> = [];
    for (let r = 0; r < layout.rows; r++) {
      for (let c = 0; c < layout.columns; c++) {
        const x0 = Math.round((layout.marginLeft + c * (layout.labelWidth + layout.gapX)) * dpmm);
        const y0 = Math.round((layout.marginTop + r * (layout.labelHeight + layout.gapY)) * dpmm);
        const w = Math.round(layout.labelWidth * dpmm);
        const h = Math.round(layout.labelHeight * dpmm);
        const data = new Uint8ClampedArray(w * h * 4);
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const from = ((y0 + y) * W + x0 + x) * 3;
            data.set([rgb[from], rgb[from + 1], rgb[from + 2], 255], (y * w + x) * 4);
          }
        }
        const found = await readBarcodes({ data, width: w, height: h, colorSpace: 'srgb' } as unknown as Parameters<typeof readBarcodes>[0], { formats: ['EAN13', 'Code128'] });
        cells.push(found[0] ? `${found[0].format} ${found[0].text}` : null);
      }
    }
    pages.push(cells);
  }
  return pages;
}
const pageText = (pdf: Buffer, i = 0) => mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(i).toStructuredText('preserve-whitespace').asText();

describe('labels (PDF)', () => {
  it('a single 50 x 30 mm label: the name, the price and an EAN-13 that scans back to the code', async () => {
    const res = await labels({ store: 1, layout: 'single-50x30', items: [{ product: ids.pen }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload;
    expect(pageText(pdf)).toContain('Ballpoint pen');
    expect(pageText(pdf)).toContain('$2.50');
    expect(await scanLabels(pdf, LABEL_PRESETS['single-50x30'])).toEqual([['EAN13 4006381333931']]);
  });

  it('an A4 sheet of 3 x 8: copies fill the grid; a code that is not an EAN prints as Code 128; 25 labels take two pages', async () => {
    const res = await labels({ store: 1, layout: 'a4-3x8', items: [{ product: ids.pen, copies: 3 }, { product: ids.soap, copies: 22 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-label-count']).toBe('25');
    const pages = await scanLabels(res.rawPayload, LABEL_PRESETS['a4-3x8']);
    const pen = 'EAN13 4006381333931';
    const soap = 'Code128 SOAP-77';
    // Filled row by row: 3 pens, then 21 soaps; the 25th label alone on page 2.
    expect(pages[0]).toEqual([pen, pen, pen, ...Array(21).fill(soap)]);
    expect(pages[1]).toEqual([soap, ...Array(23).fill(null)]);
    expect(pageText(res.rawPayload)).toContain('$4.25');
  });

  it("a purchase's lines: one label per unit received (1.5 kg -> 2 labels)", async () => {
    const db = t.app.db;
    const [u] = await db.select().from(userAccount).where(eq(userAccount.username, 'admin'));
    const [p] = await db.insert(purchase).values({ storeId: 1, purchasedById: u.id, purchaseNumber: `L-${Date.now()}`, purchaseMode: 'items' }).returning();
    await db.insert(purchaseItem).values([
      { purchaseId: p.id, itemId: ids.pen, quantity: '2', purchasePrice: '1.00' },
      { purchaseId: p.id, itemId: ids.soap, quantity: '1.5', purchasePrice: '1.00' },
    ]);
    const res = await labels({ store: 1, layout: 'a4-3x8', purchase: p.id });
    expect(res.statusCode, res.body).toBe(200);
    expect((await scanLabels(res.rawPayload, LABEL_PRESETS['a4-3x8']))[0].slice(0, 5)).toEqual(['EAN13 4006381333931', 'EAN13 4006381333931', 'Code128 SOAP-77', 'Code128 SOAP-77', null]);
    // A purchase of another store is not found.
    expect((await labels({ store: 2, layout: 'a4-3x8', purchase: p.id })).statusCode).toBe(404);
  });

  it('price changes: one label for each item of the store whose price changed since the given time, with the new price', async () => {
    const since = new Date().toISOString();
    expect((await labels({ store: 1, layout: 'a4-3x8', priceChangedSince: since })).json().violations).toEqual([{ propertyPath: 'priceChangedSince', message: 'No item of this store changed its price since then.' }]);
    const put = await t.app.inject({ method: 'PUT', url: `/api/products/${ids.soap}`, headers: admin, payload: { basePrice: '4.75' } });
    expect(put.statusCode, put.body).toBe(200);
    // A change that is not a price (the name) does not count.
    await t.app.inject({ method: 'PUT', url: `/api/products/${ids.pen}`, headers: admin, payload: { name: 'Ballpoint pen, blue' } });
    const res = await labels({ store: 1, layout: 'single-50x30', priceChangedSince: since });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-label-count']).toBe('1');
    expect(pageText(res.rawPayload)).toContain('$4.75');
    expect(await scanLabels(res.rawPayload, LABEL_PRESETS['single-50x30'])).toEqual([['Code128 SOAP-77']]);
    expect((await labels({ store: 1, layout: 'a4-3x8', priceChangedSince: 'yesterday' })).json().violations[0].propertyPath).toBe('priceChangedSince');
  });

  it('bad input: a grid that does not fit its page, an unknown item, another store, nothing to print: 422 naming the field', async () => {
    const tooWide = await labels({ store: 1, items: [{ product: ids.pen }], layout: { pageWidth: 210, pageHeight: 297, columns: 3, rows: 8, labelWidth: 80, labelHeight: 37, marginTop: 0, marginLeft: 0, gapX: 0, gapY: 0 } });
    expect(tooWide.statusCode).toBe(422);
    expect(tooWide.json().violations).toEqual([{ propertyPath: 'layout', message: 'The labels do not fit the page: 240 mm wide on a 210 mm page.' }]);
    const unknown = await labels({ store: 1, layout: 'a4-3x8', items: [{ product: 999999 }] });
    expect(unknown.json().violations[0].propertyPath).toBe('items[0].product');
    expect((await labels({ store: 1, layout: 'a4-3x8', items: [] })).json().violations[0].propertyPath).toBe('items');
    expect((await labels({ store: 1, layout: 'a5', items: [{ product: ids.pen }] })).json().violations[0].propertyPath).toBe('layout');
    const cashier = await t.login('cashier');
    expect((await labels({ store: 1, layout: 'a4-3x8', items: [{ product: ids.pen }] }, cashier)).statusCode).toBe(403);
  });
});
