/**
 * X and Z reports (issue 26): the day closing of a terminal (modules/cash/closing.service.ts) as
 * another kind of receipt layout (receipt-doc.ts blocks), printed through the same ESC/POS path
 * and queue as receipts. X: the open day so far, nothing closed; Z: the closed day, its frozen
 * figures. Totals per payment type, the cash drawer's expected and counted amount, over or short,
 * all in the store's currency with its minor units.
 */
import { formatDateTime, formatMoney } from '@pos/domain/format';
import { currencyDigits } from '@pos/domain/currency';
import { parseMinor, sumCents } from '@pos/domain/money';
import type { presentClosing } from '../cash/closing.service.ts';
import type { Block, ReceiptDoc, ReceiptHeader } from './receipt-doc.ts';
import { isArabicLocale, wordsFor } from './receipt-words.ts';

export type ClosingDto = Awaited<ReturnType<typeof presentClosing>>;

/**
 * The report of a day: X while the day is open, Z once it is closed. `typeNames`: the payment
 * types' names per kind ('credit card' -> 'Credit Card'); `now`: when an X report is printed.
 */
export function closingReportDoc(c: ClosingDto, header: ReceiptHeader, typeNames: Record<string, string>, now = new Date()): ReceiptDoc {
  const currency = c.store?.currency ?? 'USD';
  const locale = c.store?.locale ?? 'en-US';
  const digits = currencyDigits(currency);
  const minor = (v: number | string | null | undefined) => parseMinor(v ?? 0, digits);
  // Latin digits on paper (as receipts); the store's conventions otherwise.
  const money = (m: number) => formatMoney(m, { currency, locale: locale.split('-')[0] === 'ar' ? 'en-US' : locale });
  const when = (d: { datetime: string } | null) => (d ? formatDateTime(d.datetime, c.store?.timeZone ?? undefined, 'en') : '');
  const who = (u: { displayName?: string | null; username: string } | null) => u?.displayName || u?.username || '';
  const z = c.closedAt != null;
  const w = wordsFor(locale);

  const blocks: Block[] = [{ t: 'title', text: header.shopName }];
  if (c.store?.name) blocks.push({ t: 'text', text: c.store.name, center: true });
  blocks.push({ t: 'text', text: z ? w.zReport : w.xReport, center: true, bold: true });
  if (c.terminal) blocks.push({ t: 'row', left: w.terminal, right: c.terminal.code ?? String(c.terminal.id) });
  blocks.push({ t: 'row', left: w.opened, right: when(c.dateFrom) });
  if (c.openedBy) blocks.push({ t: 'row', left: w.openedBy, right: who(c.openedBy) });
  if (z) {
    blocks.push({ t: 'row', left: w.closed, right: when(c.closedAt) });
    if (c.closedBy) blocks.push({ t: 'row', left: w.closedBy, right: who(c.closedBy) });
  } else blocks.push({ t: 'row', left: w.printed, right: when({ datetime: now.toISOString() }) });
  blocks.push({ t: 'rule' });

  blocks.push({ t: 'text', text: w.salesByType, bold: true });
  const sales = Object.entries(c.sales).map(([kind, v]) => ({ name: typeNames[kind] ?? kind, amount: minor(v) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const s of sales) blocks.push({ t: 'row', left: `  ${s.name}`, right: money(s.amount) });
  blocks.push({ t: 'row', left: w.totalSales, right: money(sumCents(sales.map((s) => s.amount))), bold: true });
  blocks.push({ t: 'rule' });

  const expected = minor(c.expectedCash);
  blocks.push({ t: 'row', left: w.openingFloat, right: money(minor(c.openingBalance)) });
  blocks.push({ t: 'row', left: w.cashSales, right: money(minor(c.cashSales)) });
  blocks.push({ t: 'row', left: w.cashAdded, right: money(minor(c.cashAdded)) });
  blocks.push({ t: 'row', left: w.cashWithdrawn, right: money(-minor(c.cashWithdrawn)) });
  blocks.push({ t: 'row', left: w.expenses, right: money(-minor(c.expenses)) });
  blocks.push({ t: 'row', left: w.expectedCash, right: money(expected), bold: true });
  const counted = c.countedCash == null ? null : minor(c.countedCash);
  if (counted == null) blocks.push({ t: 'row', left: w.countedCash, right: w.notCounted });
  else {
    const diff = counted - expected;
    blocks.push({ t: 'row', left: w.countedCash, right: money(counted) });
    blocks.push({ t: 'row', left: diff > 0 ? w.over : diff < 0 ? w.short : w.even, right: money(diff), bold: true });
  }
  blocks.push({ t: 'rule' });
  return { blocks, cash: false, rtl: isArabicLocale(locale) };
}
