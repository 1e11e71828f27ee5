/**
 * Printing on the shop's network printers (issue 26): a receipt (sale or refund, or a copy) or a
 * drawer opening is rendered to ESC/POS once, queued (print-queue.ts) and given its first delivery
 * attempt at once, so the till learns in the same answer whether the printer took it.
 */
import { eq } from 'drizzle-orm';
import { notFound, validationError } from '@pos/domain/errors';
import type { Db } from '../../db/client.ts';
import { device, order, paymentType, printJob, store } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { audit } from '../../lib/audit.ts';
import { presentOrderById } from '../sales/order.presenter.ts';
import { getClosing } from '../cash/closing.service.ts';
import { getTransfer } from '../stock/transfers.service.ts';
import { closingReportDoc } from './closing-report.ts';
import { packingListDoc } from './packing-list.ts';
import { receiptSettings } from './receipt-header.ts';
import { drawerBytes, receiptBytes } from './escpos.ts';
import { deliver, jobStatus, type JobStatus } from './print-queue.ts';
import { receiptDoc } from './receipt-doc.ts';

async function activeDevice(db: Db, id: number) {
  const [d] = await db.select().from(device).where(eq(device.id, id)).limit(1);
  if (!d || !d.isActive) throw validationError([{ propertyPath: 'device', message: 'This printer does not exist or is not active.' }]);
  return d;
}

/** How long the till's request waits for a print agent to take a new job before answering 'queued'. */
const AGENT_WAIT_MS = 3000;

async function queue(db: Db, row: typeof printJob.$inferInsert, viaAgent: boolean, drawer?: { auth: AuthInfo; storeId: number; reason: string }): Promise<JobStatus> {
  // The job and, when it opens the cash drawer, its audit entry: one transaction (issue 26.2).
  const job = await db.transaction(async (tx) => {
    const [j] = await tx.insert(printJob).values(row).returning({ id: printJob.id });
    if (drawer) {
      await audit(tx, {
        action: 'drawer.opened', actor: drawer.auth, storeId: drawer.storeId, entity: row.orderId != null ? 'order' : 'device',
        entityId: row.orderId ?? row.deviceId, details: { reason: drawer.reason, device: row.deviceId, printJob: j.id },
      });
    }
    return j;
  });
  if (!viaAgent) {
    await deliver(db, job.id);
    return (await jobStatus(db, job.id))!;
  }
  // The agent polls about every second: wait a little for its answer, so the till learns it at once.
  const until = Date.now() + AGENT_WAIT_MS;
  let status = (await jobStatus(db, job.id))!;
  while ((status.status === 'queued' || status.status === 'sending') && status.attempts <= 1 && Date.now() < until && !status.lastError) {
    await new Promise((r) => setTimeout(r, 100));
    status = (await jobStatus(db, job.id))!;
  }
  return status;
}

/** A receipt of an order of the caller's stores on a printer; cash sales and refunds kick the drawer (not copies). */
export async function printReceipt(db: Db, auth: AuthInfo, orderId: number, input: { device: number; copy?: boolean }): Promise<JobStatus> {
  const [o] = await db.select({ id: order.id, storeId: order.storeId, isSuspended: order.isSuspended, returnedFromId: order.returnedFromId }).from(order).where(eq(order.id, orderId)).limit(1);
  if (!o || !auth.storeIds.includes(o.storeId)) throw notFound('Order not found');
  if (o.isSuspended) throw validationError([{ propertyPath: 'order', message: 'A held order has no receipt yet.' }]);
  const printer = await activeDevice(db, input.device);
  const doc = receiptDoc(await presentOrderById(db, orderId), await receiptSettings(db), !!input.copy);
  const one = receiptBytes(doc, printer.paperWidth, false);
  // The drawer opens once, with the first copy.
  const first = doc.cash ? receiptBytes(doc, printer.paperWidth, true) : one;
  const copies = input.copy ? 1 : Math.max(1, printer.prints);
  const payload = Buffer.concat([first, ...Array.from({ length: copies - 1 }, () => one)]);
  return queue(db, { deviceId: printer.id, kind: input.copy ? 'copy' : 'receipt', orderId, userId: auth.userId, payload, opensDrawer: doc.cash }, printer.deliveredBy === 'agent',
    doc.cash ? { auth, storeId: o.storeId, reason: o.returnedFromId != null ? 'cash refund' : 'cash sale' } : undefined);
}

/**
 * The X report (the day still open) or the Z report (the day closed) of a day closing of the
 * caller's stores on a printer: the same layout -> ESC/POS path and queue as receipts; no drawer.
 */
export async function printClosingReport(db: Db, auth: AuthInfo, closingId: number, input: { device: number }): Promise<JobStatus> {
  const c = await getClosing(db, closingId, auth); // 404 for a day of another store
  const printer = await activeDevice(db, input.device);
  const typeNames: Record<string, string> = {};
  for (const p of await db.select({ name: paymentType.name, type: paymentType.type }).from(paymentType).orderBy(paymentType.id)) {
    const kind = p.type ?? 'unknown';
    typeNames[kind] = typeNames[kind] ? `${typeNames[kind]} / ${p.name}` : p.name;
  }
  const doc = closingReportDoc(c, await receiptSettings(db), typeNames);
  const payload = Buffer.from(receiptBytes(doc, printer.paperWidth, false));
  return queue(db, { deviceId: printer.id, kind: c.closedAt ? 'z-report' : 'x-report', userId: auth.userId, payload, opensDrawer: false }, printer.deliveredBy === 'agent');
}

/**
 * A stock transfer's packing list (either store's user; another store's transfer or a missing one:
 * 404) on a printer, in the sending store's language: the same layout -> ESC/POS path and queue.
 */
export async function printPackingList(db: Db, auth: AuthInfo, transferId: number, input: { device: number }): Promise<JobStatus> {
  const tr = await getTransfer(db, transferId, auth);
  const printer = await activeDevice(db, input.device);
  const [from] = await db.select({ locale: store.locale, timeZone: store.timeZone }).from(store).where(eq(store.id, tr.fromStore.id)).limit(1);
  const doc = packingListDoc(tr, await receiptSettings(db), from ?? { locale: null, timeZone: null });
  const payload = Buffer.from(receiptBytes(doc, printer.paperWidth, false));
  return queue(db, { deviceId: printer.id, kind: 'packing-list', userId: auth.userId, payload, opensDrawer: false }, printer.deliveredBy === 'agent');
}

/** "No sale" at a till of `store`: opens the drawer; the audit log and the job row record who and when. */
export async function openDrawer(db: Db, auth: AuthInfo, input: { device: number; store: number }): Promise<JobStatus> {
  if (!auth.storeIds.includes(input.store)) throw validationError([{ propertyPath: 'store', message: 'This store does not exist or is not yours.' }]);
  const printer = await activeDevice(db, input.device);
  return queue(db, { deviceId: printer.id, kind: 'drawer', userId: auth.userId, payload: Buffer.from(drawerBytes(printer.paperWidth)), opensDrawer: true }, printer.deliveredBy === 'agent',
    { auth, storeId: input.store, reason: 'no sale' });
}

/** A job the caller queued (an administrator: any job); else 404. */
export async function visibleJob(db: Db, auth: AuthInfo, id: number): Promise<JobStatus> {
  const [j] = await db.select({ userId: printJob.userId }).from(printJob).where(eq(printJob.id, id)).limit(1);
  if (!j || (!auth.isAdmin && j.userId !== auth.userId)) throw notFound('Print job not found');
  return (await jobStatus(db, id))!;
}
