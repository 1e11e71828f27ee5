/**
 * Issue 26: a receipt with Arabic (shop name, product name, footer) prints joined and right to left.
 * The fake printer's bytes are decoded here (GS v 0 raster bands joined into the paper's picture)
 * and the product's line is found in the picture by comparing it with two drawings of the name in
 * the receipt font: shaped (letters joined) and the same letters kept apart (a zero-width
 * non-joiner between each). The printed line must match the first, not the second; '?' or
 * unjoined letters fail. The e-mailed PDF must carry the name as text in the embedded font.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { inflateSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import { decode, pictures } from '../../../test/fake-printer.ts';
import { setting } from '../../db/schema/index.ts';
import { t, admin, cashier, printer, printerId, main, t1, pay, milk, openPrintingShop } from './printing.fixtures.ts';
import { drawLines } from './receipt-raster.ts';

let sugar: number;
const NAME = 'سكر أبيض ناعم';
const settingIds: Record<string, number> = {};

openPrintingShop();
beforeAll(async () => {
  const db = t.app.db;
  const res = await t.app.inject({ method: 'POST', url: '/api/products', headers: admin, payload: {
    name: NAME, barcode: 'SUGAR-AR', basePrice: '3.25', cost: '1.00', saleUnit: 'pcs', purchaseUnit: 'pcs',
    department: '/api/departments/1', taxes: [], terminals: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'], brands: ['/api/brands/1'],
    stores: [{ store: `/api/stores/${main}`, quantity: '0', location: null, reOrderLevel: null, product: null }], prices: [],
  } });
  expect(res.statusCode, res.body).toBe(201);
  sugar = res.json().id;
  for (const [name, value] of [['shop_name', 'بقالة الأمل'], ['receipt_footer', 'شكرا لزيارتكم']]) {
    const [had] = await db.select().from(setting).where(and(eq(setting.type, 'sale_receipt'), eq(setting.name, name)));
    const s = had
      ? await t.app.inject({ method: 'PUT', url: `/api/settings/${had.id}`, headers: admin, payload: { value } })
      : await t.app.inject({ method: 'POST', url: '/api/settings', headers: admin, payload: { name, type: 'sale_receipt', value } });
    expect(s.statusCode, s.body).toBeLessThan(300);
    settingIds[name] = s.json().id;
  }
});

const sell = async (item: number) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: cashier, payload: { items: [{ item, quantity: 2 }], payments: [{ received: '30.00', type: pay.cash }], store: main, terminal: t1 } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order as { id: number; orderId: number };
};

async function printOn(paperWidth: 58 | 80, orderId: number): Promise<Buffer> {
  await t.app.inject({ method: 'PUT', url: `/api/devices/${printerId}`, headers: admin, payload: { paperWidth } });
  const before = printer.jobs.length;
  const res = await t.app.inject({ method: 'POST', url: `/api/print/order/${orderId}`, headers: cashier, payload: { device: printerId, copy: true } });
  expect(res.json()).toMatchObject({ status: 'printed' });
  return printer.job(before);
}

/** The ActualText strings of the PDF's content streams (a PDF string: UTF-16BE after a byte order mark, else Latin-1). */
function actualTexts(pdf: Buffer): string[] {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    let body: string;
    try { body = inflateSync(pdf.subarray(start, raw.indexOf('endstream', start))).toString('latin1'); } catch { continue; }
    for (const a of body.matchAll(/\/ActualText\s*\(((?:\\[\s\S]|[^\\)])*)\)/g)) {
      const bytes = a[1].replace(/\\([0-7]{1,3}|[\s\S])/g, (_, e: string) =>
        /^[0-7]+$/.test(e) ? String.fromCharCode(parseInt(e, 8)) : ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e);
      out.push(bytes.startsWith('\u00FE\u00FF') ? Buffer.from(bytes.slice(2), 'latin1').swap16().toString('utf16le') : bytes);
    }
  }
  return out;
}

type Picture = ReturnType<typeof pictures>[number];

/** The best place of a drawing of `text` (right-aligned, the receipt font) in the picture: the fewest differing dots, and where. */
function bestMatch(pic: Picture, text: string, { bold = false, x0 = 0 } = {}): { diff: number; ink: number; y: number } {
  const ref = drawLines([{ t: 'text', parts: [{ text, align: 'right', rtl: true }], bold, big: false }], pic.width);
  const black = (x: number, y: number) => ref.data[(y * ref.width + x) * 4] < 128;
  let ink = 0;
  for (let y = 0; y < ref.height; y++) for (let x = x0; x < ref.width; x++) if (black(x, y)) ink++;
  let best = { diff: Infinity, ink, y: -1 };
  for (let top = 0; top + ref.height <= pic.height; top++) {
    let diff = 0;
    for (let y = 0; y < ref.height && diff < best.diff; y++) for (let x = x0; x < ref.width; x++) if (black(x, y) !== pic.dot(x, top + y)) diff++;
    if (diff < best.diff) best = { diff, ink, y: top };
  }
  return best;
}

describe('receipts with Arabic on an ESC/POS printer', () => {
  it('print as a raster the paper wide, with the Arabic product name joined and set from the right', async () => {
    const o = await sell(sugar);
    for (const [paper, dots] of [[80, 576], [58, 384]] as const) {
      const bytes = await printOn(paper, o.id);
      const d = decode(bytes);
      // No text through a code page (where Arabic becomes '?'): the receipt is pictures, a barcode and a cut.
      expect(d.text).not.toMatch(/[?A-Za-z]/);
      expect(d.cuts).toBe(1);
      const pics = pictures(bytes);
      expect(pics.length).toBeGreaterThanOrEqual(1);
      for (const p of pics) expect(p.width).toBe(dots);
      const body = pics[0];
      const shaped = bestMatch(body, NAME);
      const apart = bestMatch(body, [...NAME].join('\u200C'));
      expect(shaped.ink).toBeGreaterThan(300);
      // The printed line is the shaped drawing (a few dots of rounding at most), and clearly not the unjoined one.
      expect(shaped.diff).toBeLessThan(shaped.ink * 0.05);
      expect(apart.diff).toBeGreaterThan(shaped.ink * 0.25);
      // Right to left: the name's ink lies in the right half and reaches the right edge.
      let minX: number = dots;
      let maxX = 0;
      for (let y = shaped.y; y < shaped.y + 38; y++) for (let x = 0; x < dots; x++) if (body.dot(x, y)) { minX = Math.min(minX, x); maxX = Math.max(maxX, x); }
      expect(minX).toBeGreaterThan(dots / 2);
      expect(maxX).toBeGreaterThan(dots - 12);
      // Every band of the picture has ink somewhere (no blank image sent as the receipt).
      expect(decode(bytes).images.every((im) => im.black > 0)).toBe(true);
    }
    await t.app.inject({ method: 'PUT', url: `/api/devices/${printerId}`, headers: admin, payload: { paperWidth: 80 } });
  });

  it('the e-mailed PDF carries the Arabic name as text in the embedded Arabic font', async () => {
    const o = await sell(sugar);
    const before = t.mail.sent.length;
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/order/${o.id}/email`, headers: cashier, payload: { to: 'customer@example.com' } });
    expect(res.statusCode, res.body).toBe(200);
    const pdf = t.mail.sent[before].attachments![0].content as Buffer;
    expect(pdf.toString('latin1')).toMatch(/\/FontName \/[A-Z]{6}\+NotoNaskhArabic/);
    // The words as a PDF reader extracts them: each shaped word's ActualText.
    const actual = actualTexts(pdf);
    for (const word of [...NAME.split(' '), 'بقالة', 'الأمل', 'شكرا', 'لزيارتكم']) expect(actual).toContain(word);
    // The Latin text is there too (MuPDF's text extraction).
    expect(mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(0).toStructuredText('preserve-whitespace').asText()).toContain('TOTAL');
  });

  it('a receipt in Latin letters only stays text (fast and small): no picture', async () => {
    for (const [name, value] of [['shop_name', 'Corner Shop'], ['receipt_footer', 'Thank you']]) {
      const res = await t.app.inject({ method: 'PUT', url: `/api/settings/${settingIds[name]}`, headers: admin, payload: { value } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const bytes = await printOn(80, (await sell(milk)).id);
    expect(pictures(bytes)).toHaveLength(0);
    expect(decode(bytes).text).toMatch(/Fresh Milk 1L/);
    expect(decode(bytes).text).toMatch(/Corner Shop/);
  });

  it("a store whose locale is Arabic prints its receipt's words in Arabic, right to left: the total's label on the right, the amount on the left", async () => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: admin, payload: { locale: 'ar-SA' } });
    expect(res.statusCode, res.body).toBe(200);
    // Shop name, footer and product are Latin here (the test before): the Arabic words alone make it a picture.
    const bytes = await printOn(80, (await sell(milk)).id);
    expect(decode(bytes).text).not.toMatch(/[?A-Za-z]/);
    const body = pictures(bytes)[0];
    const total = bestMatch(body, 'الإجمالي', { bold: true, x0: 288 });
    const apart = bestMatch(body, [...'الإجمالي'].join('\u200C'), { bold: true, x0: 288 });
    expect(total.ink).toBeGreaterThan(150);
    expect(total.diff).toBeLessThan(total.ink * 0.05);
    expect(apart.diff).toBeGreaterThan(total.ink * 0.25);
    // The amount (2 x 10.75 = $21.50) on the same line, at the left edge.
    let minX = 576;
    for (let y = total.y; y < total.y + 38; y++) for (let x = 0; x < 288; x++) if (body.dot(x, y)) minX = Math.min(minX, x);
    expect(minX).toBeLessThan(12);
    await t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: admin, payload: { locale: 'en-US' } });
  });
});
