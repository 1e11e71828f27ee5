import { and, eq, gt, or, sql } from 'drizzle-orm';
import { AppError, notFound, validationError } from '@pos/domain/errors';
import type { Db } from '../../db/client.ts';
import { order, receiptEmail } from '../../db/schema/index.ts';
import { docText, receiptDoc, type ReceiptDoc } from '../printing/receipt-doc.ts';
import { receiptSettings } from '../printing/receipt-header.ts';
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

/** The e-mail's plain text: as wide as an 80 mm receipt. */
const TEXT_COLUMNS = 48;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The e-mail's text and HTML, written from the one receipt layout (printing/receipt-doc.ts) that
 * the printer and the PDF attachment use: the same lines, figures and wording everywhere.
 */
export function renderReceipt(o: OrderDto, doc: ReceiptDoc, shopName: string): { subject: string; text: string; html: string } {
  const text = docText(doc, TEXT_COLUMNS);
  const html: string[] = [];
  let rows: string[] = [];
  const flush = () => { if (rows.length) html.push(`<table style="width:100%">${rows.join('')}</table>`); rows = []; };
  for (const b of doc.blocks) {
    if (b.t === 'row') { rows.push(`<tr><td>${b.bold ? `<b>${esc(b.left)}</b>` : esc(b.left)}</td><td align="right">${b.bold ? `<b>${esc(b.right)}</b>` : esc(b.right)}</td></tr>`); continue; }
    flush();
    if (b.t === 'title') html.push(`<h2 style="text-align:center">${esc(b.text)}</h2>`);
    else if (b.t === 'text') html.push(`<p${b.center ? ' style="text-align:center"' : ''}>${b.bold ? `<b>${esc(b.text)}</b>` : esc(b.text)}</p>`);
    else if (b.t === 'rule') html.push('<hr>');
    else if (b.t === 'barcode') html.push(`<p style="text-align:center">[${esc(b.value)}]</p>`);
  }
  flush();
  return {
    subject: `${shopName}: receipt for Order# ${o.orderId ?? o.id}`,
    text,
    html: `<!doctype html><html><body style="font-family:monospace;max-width:3.5in">\n${html.join('\n')}\n</body></html>`,
  };
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
  const doc = receiptDoc(dto, settings, true);
  const receipt = renderReceipt(dto, doc, settings.shopName);
  const pdf = await receiptPdf(doc);
  await mailer.send({
    to: recipients.join(', '), subject: receipt.subject, text: receipt.text, html: receipt.html,
    attachments: [{ filename: `receipt-${dto.orderId ?? dto.id}.pdf`, content: pdf, contentType: 'application/pdf' }],
  });
  await db.insert(receiptEmail).values({ orderId, userId: auth.userId, recipient: recipients[0] });
  return { message: `Receipt sent to ${recipients.join(', ')}`, to: recipients };
}
