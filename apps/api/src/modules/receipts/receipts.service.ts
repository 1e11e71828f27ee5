import { and, eq, gt, or, sql } from 'drizzle-orm';
import { AppError, notFound, validationError } from '@pos/domain/errors';
import { formatDateTime, formatMoney } from '@pos/domain/format';
import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';
import { mulPriceQty, parseMinor, parseQuantity, quantityToString, sumCents } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { order, receiptEmail } from '../../db/schema/index.ts';
import { receiptDoc } from '../printing/receipt-doc.ts';
import { receiptSettings, type ReceiptSettings } from '../printing/receipt-header.ts';
import { receiptPdf } from '../printing/receipt-pdf.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { presentOrderById, type OrderDto } from '../sales/order.presenter.ts';

export const NOT_CONFIGURED = 'E-mail is not configured on this server';
export const NO_ADDRESS = 'The customer has no e-mail address';

const EMAIL_RE = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

export const ONE_ADDRESS = 'A receipt goes to one address: the customer\'s, or one typed at the till.';

/**
 * The typed address (propertyPath "to"): one valid address (issue 26: a receipt cannot be sent to
 * a list of strangers); "a, b" is refused.
 */
export function parseRecipients(to: string | null | undefined): string[] {
  if (!to || !to.trim()) return [];
  const list = to.split(/[,;]/).map((s) => s.trim()).filter(Boolean);
  if (list.length > 1) throw validationError([{ propertyPath: 'to', message: ONE_ADDRESS }], ONE_ADDRESS);
  for (const a of list) {
    if (!EMAIL_RE.test(a) || a.length > 254) throw validationError([{ propertyPath: 'to', message: 'This value is not a valid email address.' }]);
  }
  return list;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The receipt as plain text and HTML: the same figures the till's receipt preview prints (issue 19):
 * amounts in the order's store currency with exactly its minor-unit digits and the store's locale
 * (`@pos/domain/format` formatMoney), integer minor units throughout (no float sums), Cash tendered
 * and Change per cash payment, the cash rounding line and the tax breakdown per rate.
 */
export function renderReceipt(o: OrderDto, s: ReceiptSettings): { subject: string; text: string; html: string } {
  const currency = o.store?.currency ?? 'USD';
  const digits = currencyDigits(isCurrencyCode(currency) ? currency : 'USD');
  const fmt = { currency, locale: o.store?.locale ?? 'en-US' };
  const minor = (v: number | string | null | undefined) => parseMinor(v ?? 0, digits);
  const cur = (m: number) => formatMoney(m, fmt);
  const lines = o.items.map((i) => {
    const name = `${i.product?.name ?? ''}${i.variant?.attributeValue ? ` (${i.variant.attributeValue})` : ''}`;
    const qty = parseQuantity(i.quantity ?? 0);
    // Line total = price x qty - discount + taxesTotal (spec 3 "Order item"), price x qty rounded once.
    const total = sumCents([mulPriceQty(minor(i.price), qty), minor(i.taxesTotal), -minor(i.discount)]);
    return { name, qty: quantityToString(qty), price: cur(minor(i.price)), total: cur(total) };
  });
  const rows: Array<[string, string]> = [
    ['Items total', cur(minor(o.subTotal))],
  ];
  if (o.discount && minor(o.discount.amount)) rows.push(['Discount', cur(-minor(o.discount.amount))]);
  if (o.tax && minor(o.tax.amount)) rows.push(['Tax', cur(minor(o.tax.amount))]);
  if (minor(o.adjustment)) rows.push(['Adjustment', cur(minor(o.adjustment))]);
  if (minor(o.rounding)) rows.push(['Cash rounding', cur(minor(o.rounding))]);
  rows.push(['Net Total', cur(minor(o.grandTotal))]);
  for (const p of o.payments) {
    const name = p.type?.name ?? 'Payment';
    if (p.tendered !== undefined) rows.push([`${name}: Cash tendered`, cur(minor(p.tendered))]);
    else rows.push([name, cur(minor(p.received))]);
  }
  const change = sumCents(o.payments.map((p) => minor(p.change ?? p.due)));
  if (change) rows.push(['Change', cur(change)]);
  for (const b of o.taxBreakdown ?? []) {
    rows.push([`${b.name ?? 'Tax'} ${b.rate}%: net ${cur(minor(b.net))}, tax`, cur(minor(b.tax))]);
  }

  const title = `Order# ${o.orderId ?? o.id}`;
  const when = o.createdAt ? formatDateTime(o.createdAt) : '';
  const customer = o.customer?.name ?? '';
  const text = [
    s.shopName,
    title,
    when,
    customer ? `Customer: ${customer}` : '',
    '',
    ...lines.map((l) => `${l.name}\n  ${l.qty} x ${l.price} = ${l.total}`),
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    s.footer,
  ].filter((x, i, a) => !(x === '' && a[i - 1] === '')).join('\n');

  const html = `<!doctype html><html><body style="font-family:monospace;max-width:3.5in">
<h2 style="text-align:center">${esc(s.shopName)}</h2>
<p>${esc(title)}<br>${esc(when)}${customer ? `<br>Customer: ${esc(customer)}` : ''}</p>
<table style="width:100%;border-collapse:collapse">
<thead><tr><th align="left">Item</th><th align="right">Qty</th><th align="right">Price</th><th align="right">Total</th></tr></thead>
<tbody>${lines.map((l) => `<tr><td>${esc(l.name)}</td><td align="right">${esc(l.qty)}</td><td align="right">${esc(l.price)}</td><td align="right">${esc(l.total)}</td></tr>`).join('')}</tbody>
</table><hr>
<table style="width:100%">${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td align="right">${esc(v)}</td></tr>`).join('')}</table>
<p style="text-align:center">${esc(s.footer)}</p></body></html>`;
  return { subject: `${s.shopName}: receipt for ${title}`, text, html };
}

/**
 * E-mails an order's receipt to `to` (comma separated), or to the order's customer when omitted.
 * Guarantees: an order of a store the caller is not in is a 404 (no existence leak); with no SMTP
 * configured nothing is sent and a 422 says so; nothing is written to the database.
 */
/** Per cashier and per order, over the last hour (issue 26): a till cannot be used to send mail in bulk. */
export const EMAIL_LIMITS = { perUserPerHour: 30, perOrderPerHour: 3 } as const;

async function assertUnderEmailLimits(db: Db, userId: number, orderId: number): Promise<void> {
  const since = sql`now() - interval '1 hour'`;
  const [row] = await db.select({
    byUser: sql<number>`count(*) filter (where ${receiptEmail.userId} = ${userId})::int`,
    byOrder: sql<number>`count(*) filter (where ${receiptEmail.orderId} = ${orderId})::int`,
  }).from(receiptEmail).where(and(gt(receiptEmail.createdAt, since), or(eq(receiptEmail.userId, userId), eq(receiptEmail.orderId, orderId))));
  if (row.byUser >= EMAIL_LIMITS.perUserPerHour || row.byOrder >= EMAIL_LIMITS.perOrderPerHour) {
    const which = row.byOrder >= EMAIL_LIMITS.perOrderPerHour ? `this receipt was sent ${row.byOrder} times` : `${row.byUser} receipts were sent from this account`;
    throw new AppError(429, 'RATE_LIMITED', `Too many e-mails: ${which} in the last hour. Try again later.`);
  }
}

export async function emailReceipt(db: Db, mailer: Mailer, auth: AuthInfo, orderId: number, to?: string | null): Promise<{ message: string; to: string[] }> {
  const rows = await db.select({ id: order.id, storeId: order.storeId }).from(order).where(eq(order.id, orderId)).limit(1);
  const row = rows[0];
  if (!row || !auth.storeIds.includes(row.storeId)) throw notFound('Order not found');
  const recipients = parseRecipients(to);
  const dto = await presentOrderById(db, orderId);
  if (!recipients.length) {
    const email = (dto.customer as { email?: string | null } | null)?.email?.trim();
    if (!email) throw validationError([{ propertyPath: 'to', message: NO_ADDRESS }], NO_ADDRESS);
    recipients.push(email);
  }
  if (!mailer.configured) throw new AppError(422, 'VALIDATION_FAILED', NOT_CONFIGURED);
  await assertUnderEmailLimits(db, auth.userId, orderId);
  const settings = await receiptSettings(db);
  const receipt = renderReceipt(dto, settings);
  const pdf = await receiptPdf(receiptDoc(dto, settings, true));
  await mailer.send({
    to: recipients.join(', '), subject: receipt.subject, text: receipt.text, html: receipt.html,
    attachments: [{ filename: `receipt-${dto.orderId ?? dto.id}.pdf`, content: pdf, contentType: 'application/pdf' }],
  });
  await db.insert(receiptEmail).values({ orderId, userId: auth.userId, recipient: recipients[0] });
  return { message: `Receipt sent to ${recipients.join(', ')}`, to: recipients };
}
