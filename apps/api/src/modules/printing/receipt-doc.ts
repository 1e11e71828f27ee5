/**
 * A receipt as a printer-independent layout (issue 26): a list of blocks that the ESC/POS renderer
 * (escpos.ts) turns into bytes for 58 or 80 mm paper, and that docText() writes as plain text (what
 * a test reads back). Figures come from the stored order as the server presents it
 * (order.presenter.ts): amounts in the store's currency with its minor units, tendered and change
 * per cash payment, the tax breakdown per rate.
 * A ReceiptDoc is not tied to orders: the X/Z reports (closing-report.ts) are other functions
 * producing the same blocks, and so would a transfer's packing list be; every kind then prints
 * (escpos.ts, Arabic as a raster) and becomes a PDF (receipt-pdf.ts) through the same code.
 */
import { mulPriceQty, parseMinor, parseQuantity, quantityToString } from '@pos/domain/money';
import { currencyDigits } from '@pos/domain/currency';
import { formatDateTime, formatMoney } from '@pos/domain/format';
import type { OrderDto } from '../sales/order.presenter.ts';
import { isArabicLocale, wordsFor } from './receipt-words.ts';

export type Block =
  | { t: 'title'; text: string }
  | { t: 'text'; text: string; center?: boolean; bold?: boolean }
  | { t: 'row'; left: string; right: string; bold?: boolean }
  | { t: 'rule' }
  | { t: 'barcode'; value: string }
  | { t: 'logo'; png: Buffer };

export interface ReceiptDoc {
  blocks: Block[];
  /** Cash changed hands (a cash tender on a sale or a refund, not a copy): the drawer is kicked open. */
  cash: boolean;
  /** Set right to left (a store whose locale is Arabic): a row's label on the right, its amount on the left. */
  rtl?: boolean;
}

export interface ReceiptHeader { shopName: string; footer: string; logo?: Buffer }

/** The order's receipt. `copy`: a reprint, titled so and never opening the drawer. */
export function receiptDoc(o: OrderDto, header: ReceiptHeader, copy = false): ReceiptDoc {
  const currency = o.store?.currency ?? 'USD';
  const locale = o.store?.locale ?? 'en-US';
  const digits = currencyDigits(currency);
  const minor = (v: number | string | null | undefined) => parseMinor(v ?? 0, digits);
  // Printers print Latin digits (code pages); the store's conventions otherwise (de-DE: 10,75 €).
  const money = (m: number) => formatMoney(m, { currency, locale: locale.split('-')[0] === 'ar' ? 'en-US' : locale });
  const w = wordsFor(locale);
  const isRefund = o.returnedFrom != null;
  const number = String(o.orderId ?? o.id);

  const blocks: Block[] = header.logo ? [{ t: 'logo', png: header.logo }] : [];
  blocks.push({ t: 'title', text: header.shopName });
  if (o.store?.name) blocks.push({ t: 'text', text: o.store.name, center: true });
  blocks.push({ t: 'text', text: `${isRefund ? w.refund : w.receipt}${copy ? w.copy : ''}`, center: true, bold: true });
  blocks.push({ t: 'row', left: `${w.orderNo} ${number}`, right: o.createdAt ? formatDateTime(o.createdAt, o.store?.timeZone ?? undefined, 'en') : '' });
  if (o.returnedFrom) blocks.push({ t: 'text', text: `${w.refundOf} ${o.returnedFrom.orderId ?? o.returnedFrom.id}` });
  const cashier = o.user?.displayName || o.user?.username;
  if (cashier) blocks.push({ t: 'text', text: `${w.cashier} ${cashier}` });
  if (o.customer?.name) blocks.push({ t: 'text', text: `${w.customer} ${o.customer.name}` });
  blocks.push({ t: 'rule' });

  for (const i of o.items) {
    const qty = parseQuantity(i.quantity ?? 0);
    const price = minor(i.price);
    blocks.push({ t: 'text', text: `${i.product?.name ?? ''}${i.variant?.attributeValue ? ` (${i.variant.attributeValue})` : ''}` });
    blocks.push({ t: 'row', left: `  ${quantityToString(qty)} x ${money(price)}`, right: money(mulPriceQty(price, qty)) });
    if (minor(i.discount)) blocks.push({ t: 'row', left: `  ${w.discount}`, right: money(-minor(i.discount)) });
  }
  blocks.push({ t: 'rule' });
  if (o.discount && minor(o.discount.amount)) blocks.push({ t: 'row', left: w.orderDiscount, right: money(-minor(o.discount.amount)) });
  for (const b of o.taxBreakdown) {
    const label = `${b.name ?? w.tax}${b.rate != null ? ` ${b.rate}%` : ''} ${w.on} ${money(minor(b.net))}`;
    blocks.push({ t: 'row', left: o.taxMode === 'inclusive' ? `${label} ${w.incl}` : label, right: money(minor(b.tax)) });
  }
  if (minor(o.adjustment)) blocks.push({ t: 'row', left: w.adjustment, right: money(minor(o.adjustment)) });
  if (minor(o.rounding)) blocks.push({ t: 'row', left: w.rounding, right: money(minor(o.rounding)) });
  blocks.push({ t: 'row', left: w.total, right: money(minor(o.grandTotal)), bold: true });

  let cash = false;
  for (const p of o.payments) {
    const name = p.type?.name ?? w.payment;
    if (p.tendered != null && isRefund) {
      // Cash paid back: what left the drawer, as a negative amount like the refund's total; no change.
      cash = true;
      blocks.push({ t: 'row', left: `${name} ${w.refunded}`, right: money(minor(p.total ?? p.received)) });
    } else if (p.tendered != null) {
      cash = true;
      blocks.push({ t: 'row', left: `${name} ${w.tendered}`, right: money(minor(p.tendered)) });
      if (minor(p.change)) blocks.push({ t: 'row', left: w.change, right: money(minor(p.change)) });
    } else {
      blocks.push({ t: 'row', left: name, right: money(minor(p.total ?? p.received)) });
    }
  }
  blocks.push({ t: 'rule' });
  blocks.push({ t: 'barcode', value: number });
  blocks.push({ t: 'text', text: header.footer, center: true });
  return { blocks, cash: cash && !copy, rtl: isArabicLocale(locale) };
}

/** The layout as plain text, `columns` wide: what the printer prints. */
export function docText(doc: ReceiptDoc, columns: number): string {
  const out: string[] = [];
  for (const b of doc.blocks) {
    if (b.t === 'rule') out.push('-'.repeat(columns));
    else if (b.t === 'title') out.push(center(b.text, columns));
    else if (b.t === 'text') out.push(b.center ? center(b.text, columns) : b.text);
    else if (b.t === 'row') out.push(row(b.left, b.right, columns));
    else if (b.t === 'barcode') out.push(center(`[${b.value}]`, columns));
  }
  return out.join('\n');
}

const width = (s: string) => [...s].length;

function center(text: string, columns: number): string {
  return ' '.repeat(Math.max(0, Math.floor((columns - width(text)) / 2))) + text;
}

/** Left and right on one line when they fit, else the right part on its own line, right-aligned. */
export function row(left: string, right: string, columns: number): string {
  const l = width(left);
  const r = width(right);
  if (l + 1 + r <= columns) return left + ' '.repeat(columns - l - r) + right;
  return `${left}\n${' '.repeat(Math.max(0, columns - r))}${right}`;
}
