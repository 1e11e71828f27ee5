/**
 * A stock transfer's packing list (issues 25 and 26): the transfer as the server presents it
 * (modules/stock getTransfer) turned into the same printer-independent blocks as receipts and X/Z
 * reports (receipt-doc.ts), so it prints (escpos.ts, Arabic as a raster) and becomes a PDF through
 * the same code. The words follow the sending store's language (it is printed where the goods are
 * packed); quantities in Latin digits, as every paper.
 */
import { formatDateTime } from '@pos/domain/format';
import type { getTransfer } from '../stock/transfers.service.ts';
import type { Block, ReceiptDoc, ReceiptHeader } from './receipt-doc.ts';
import { isArabicLocale, wordsFor } from './receipt-words.ts';

export type TransferDto = Awaited<ReturnType<typeof getTransfer>>;

/** The sending store's settings that shape the paper. */
export interface PackingListStore { locale: string | null; timeZone: string | null }

const qty = (v: number | null | undefined) => (v == null ? '' : String(v));

/** The packing list of a transfer: stores, who and when, every line's product and quantities, the number as a barcode. */
export function packingListDoc(tr: TransferDto, header: ReceiptHeader, from: PackingListStore): ReceiptDoc {
  const locale = from.locale ?? 'en-US';
  const w = wordsFor(locale);
  const when = (iso: string | null) => (iso ? formatDateTime(iso, from.timeZone ?? undefined, 'en') : '');
  const who = (u: { displayName?: string | null; username: string } | null) => u?.displayName || u?.username || '';

  const blocks: Block[] = [{ t: 'title', text: header.shopName }];
  blocks.push({ t: 'text', text: w.packingList, center: true, bold: true });
  blocks.push({ t: 'row', left: `${w.transferNo} ${tr.number}`, right: when(tr.sentAt ?? tr.requestedAt) });
  blocks.push({ t: 'row', left: w.from, right: tr.fromStore.name });
  blocks.push({ t: 'row', left: w.to, right: tr.toStore.name });
  blocks.push({ t: 'row', left: w.status, right: w.statuses[tr.status] ?? tr.status });
  if (tr.requestedBy) blocks.push({ t: 'row', left: w.requestedBy, right: who(tr.requestedBy) });
  if (tr.sentBy) blocks.push({ t: 'row', left: w.sentBy, right: who(tr.sentBy) });
  if (tr.receivedBy) blocks.push({ t: 'row', left: w.receivedBy, right: who(tr.receivedBy) });
  if (tr.note) blocks.push({ t: 'text', text: tr.note });
  blocks.push({ t: 'rule' });

  for (const l of tr.lines) {
    const p = l.product as { name: string; sku: string | null };
    const variant = l.variant as { attributeValue?: string | null; name?: string | null } | null;
    const label = variant?.attributeValue || variant?.name;
    blocks.push({ t: 'text', text: `${p.name}${label ? ` (${label})` : ''}`, bold: true });
    const shelf = [p.sku, l.location ? `${w.location} ${l.location}` : null].filter(Boolean).join(' · ');
    blocks.push({ t: 'row', left: `  ${shelf || w.requested}`, right: shelf ? `${w.requested} ${qty(l.requested)}` : qty(l.requested) });
    if (l.sent != null) blocks.push({ t: 'row', left: `  ${w.sent}`, right: qty(l.sent) });
    if (l.received != null) blocks.push({ t: 'row', left: `  ${w.received}`, right: qty(l.received) });
    if (l.lost) blocks.push({ t: 'row', left: `  ${w.lost}`, right: qty(l.lost) });
  }
  blocks.push({ t: 'rule' });
  const totals = tr.totals as Record<string, number | null>;
  const moved = tr.status === 'requested' || tr.status === 'cancelled' ? totals.requested : tr.status === 'sent' ? totals.sent : totals.received;
  blocks.push({ t: 'row', left: w.lines, right: String(tr.lines.length) });
  blocks.push({ t: 'row', left: w.totalQty, right: qty(moved), bold: true });
  if (tr.lossReason) blocks.push({ t: 'text', text: `${w.lossReason} ${tr.lossReason}` });
  blocks.push({ t: 'rule' });
  blocks.push({ t: 'barcode', value: `T${tr.number}` });
  return { blocks, cash: false, rtl: isArabicLocale(locale) };
}
