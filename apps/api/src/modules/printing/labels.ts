/**
 * Shelf and product labels as PDF sheets (issue 26): name, price in the store's currency and a
 * barcode (EAN-13 when the code is one, with a valid check digit, else Code 128) rendered by
 * bwip-js, laid out by label-layout.ts. Sources: products picked by hand, the lines of a purchase
 * (one label per unit received), or the items whose price changed since a time (new shelf-edge
 * labels after a price change), in a store of the caller.
 */
import type BwipJs from 'bwip-js/node';
import type PDFKitDocument from 'pdfkit';
import { lazyModule } from '../../lib/lazy-module.ts';
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { notFound, validationError } from '@pos/domain/errors';
import { gs1Problem } from '@pos/domain/barcode';
import { currencyDigits } from '@pos/domain/currency';
import { formatMoney } from '@pos/domain/format';
import { parseMinor, parseQuantity } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { product, productVariant, purchase, purchaseItem, store } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { layoutField, resolveLayout, type LabelLayout } from './label-layout.ts';
import { MM } from './receipt-pdf.ts';

/** Loaded on the first label sheet (lib/lazy-module.ts). */
const bwip = lazyModule<typeof BwipJs>('bwip-js/node');
const pdfkit = lazyModule<typeof PDFKitDocument>('pdfkit');

const id = z.number().int().positive().max(2147483647);
export const labelsBody = z.object({
  store: id,
  layout: layoutField,
  items: z.array(z.object({ product: id, variant: id.optional(), copies: z.number().int().min(1).max(500).optional() }).strict()).max(1000).optional(),
  purchase: id.optional(),
  /** One label for every item of the store whose price changed at or after this time (ISO 8601). */
  priceChangedSince: z.iso.datetime({ offset: true, error: 'This value is not a valid date and time (ISO 8601).' }).optional(),
}).strict().refine((b) => (b.items?.length ?? 0) > 0 || b.purchase != null || b.priceChangedSince != null, { path: ['items'], message: 'Give items, a purchase or a date of price changes.' });

export const MAX_LABELS = 5000;

interface Label { name: string; price: string; code: string | null }

async function collect(db: Db, input: z.infer<typeof labelsBody>, currency: string, locale: string): Promise<Label[]> {
  const digits = currencyDigits(currency);
  const wanted: Array<{ product: number; variant?: number; copies: number }> = [...(input.items ?? []).map((i) => ({ ...i, copies: i.copies ?? 1 }))];
  if (input.purchase != null) {
    const [p] = await db.select({ storeId: purchase.storeId }).from(purchase).where(eq(purchase.id, input.purchase));
    if (!p || p.storeId !== input.store) throw notFound('Purchase not found');
    for (const line of await db.select().from(purchaseItem).where(eq(purchaseItem.purchaseId, input.purchase))) {
      const units = Math.ceil(parseQuantity(line.quantity) / 1000);
      if (units > 0) wanted.push({ product: line.itemId, copies: units });
    }
  }
  if (input.priceChangedSince != null) {
    const changed = await db.select({ id: product.id }).from(product)
      .where(and(gte(product.priceChangedAt, new Date(input.priceChangedSince)), sql`${input.store} = any(${product.storeIds})`, eq(product.isActive, true)))
      .orderBy(asc(product.name));
    for (const c of changed) wanted.push({ product: c.id, copies: 1 });
  }
  const total = wanted.reduce((n, w) => n + w.copies, 0);
  if (total === 0) {
    throw validationError([input.priceChangedSince != null && !input.items?.length && input.purchase == null
      ? { propertyPath: 'priceChangedSince', message: 'No item of this store changed its price since then.' }
      : { propertyPath: 'items', message: 'Nothing to print.' }]);
  }
  if (total > MAX_LABELS) throw validationError([{ propertyPath: 'items', message: `At most ${MAX_LABELS} labels at once (${total} asked).` }]);
  const products = new Map((await db.select().from(product).where(inArray(product.id, [...new Set(wanted.map((w) => w.product)), 0]))).map((p) => [p.id, p]));
  const variantIds = wanted.flatMap((w) => (w.variant ? [w.variant] : []));
  const variants = new Map((variantIds.length ? await db.select().from(productVariant).where(inArray(productVariant.id, variantIds)) : []).map((v) => [v.id, v]));
  const labels: Label[] = [];
  wanted.forEach((w, i) => {
    const p = products.get(w.product);
    if (!p || !(p.storeIds ?? []).includes(input.store)) throw validationError([{ propertyPath: `items[${i}].product`, message: 'This item does not exist in this store.' }]);
    const v = w.variant != null ? variants.get(w.variant) : undefined;
    if (w.variant != null && (!v || v.productId !== p.id)) throw validationError([{ propertyPath: `items[${i}].variant`, message: 'This variant does not belong to the item.' }]);
    const price = formatMoney(parseMinor(v?.price ?? p.basePrice, digits), { currency, locale: locale.split('-')[0] === 'ar' ? 'en-US' : locale });
    const label = { name: v?.attributeValue ? `${p.name} (${v.attributeValue})` : p.name, price, code: v?.barcode ?? p.barcode };
    for (let c = 0; c < w.copies; c++) labels.push(label);
  });
  return labels;
}

async function barcodePng(code: string): Promise<Buffer> {
  const ean = /^\d{13}$/.test(code) && !gs1Problem(code, 'ean13');
  return bwip().toBuffer({ bcid: ean ? 'ean13' : 'code128', text: code, scale: 3, height: 9, includetext: true, textxalign: 'center' });
}

function render(labels: Label[], layout: LabelLayout, images: Map<string, Buffer>): Promise<Buffer> {
  const perPage = layout.columns * layout.rows;
  const PDFDocument = pdfkit();
  const pdf = new PDFDocument({ size: [layout.pageWidth * MM, layout.pageHeight * MM], margin: 0, autoFirstPage: false, info: { Title: 'Labels' } });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => { pdf.on('end', () => resolve(Buffer.concat(chunks))); pdf.on('error', reject); });
  labels.forEach((label, i) => {
    const slot = i % perPage;
    if (slot === 0) pdf.addPage();
    const x = (layout.marginLeft + (slot % layout.columns) * (layout.labelWidth + layout.gapX)) * MM;
    const y = (layout.marginTop + Math.floor(slot / layout.columns) * (layout.labelHeight + layout.gapY)) * MM;
    const w = layout.labelWidth * MM;
    const h = layout.labelHeight * MM;
    const pad = Math.min(2 * MM, w * 0.05);
    pdf.font('Helvetica-Bold').fontSize(Math.min(9, h * 0.16)).text(label.name, x + pad, y + pad, { width: w - 2 * pad, height: h * 0.2, ellipsis: true, lineBreak: false });
    pdf.font('Helvetica-Bold').fontSize(Math.min(14, h * 0.22)).text(label.price, x + pad, y + pad + h * 0.2, { width: w - 2 * pad, align: 'right', lineBreak: false });
    const png = label.code ? images.get(label.code) : undefined;
    if (png) pdf.image(png, x + pad, y + h * 0.45, { fit: [w - 2 * pad, h * 0.55 - pad], align: 'center', valign: 'center' });
  });
  pdf.end();
  return done;
}

/** The labels as one PDF, in a store of the caller. */
export async function labelsPdf(db: Db, auth: AuthInfo, input: z.infer<typeof labelsBody>): Promise<{ pdf: Buffer; count: number }> {
  if (!auth.storeIds.includes(input.store)) throw validationError([{ propertyPath: 'store', message: 'This store does not exist or is not yours.' }]);
  const layout = resolveLayout(input.layout);
  const [s] = await db.select({ currency: store.currency, locale: store.locale }).from(store).where(and(eq(store.id, input.store)));
  const labels = await collect(db, input, s.currency, s.locale);
  const images = new Map<string, Buffer>();
  for (const code of new Set(labels.flatMap((l) => (l.code ? [l.code] : [])))) images.set(code, await barcodePng(code));
  return { pdf: await render(labels, layout, images), count: labels.length };
}
