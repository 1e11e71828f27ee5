import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { errorText } from '@/lib/form-errors';
import { useCan } from '@/lib/permissions';
import { printPackingList, useTransfer, useTransferStep } from '../api/stock.ts';
import { errorKey, positiveQty, qtyText, when, zeroOkQty } from '../lib/forms.ts';
import type { Transfer, TransferLine } from '../lib/types.ts';
import { StatusBadge, useStockStores, variantLabel } from './stock-common.tsx';
import { StockTabs } from './stock-lists.tsx';

export interface TransferDetailProps {
  id: number;
  /** This till's network printer (preferences); none: the browser prints the packing list. */
  printer?: { id: number; name: string } | null;
  /** The browser's print of a node (features/receipt), passed in by the route. */
  browserPrint: (node: HTMLElement) => void;
}

/** /admin/stock/transfers/:id: the transfer, its steps (send, receive with shortfalls, cancel) and its packing list. */
export function TransferDetailPage({ id, printer, browserPrint }: TransferDetailProps) {
  const { t, i18n } = useTranslation('stock');
  const transfer = useTransfer(id);
  const step = useTransferStep(id);
  const canWrite = useCan('purchasing');
  const stores = useStockStores();
  const tableRef = useRef<HTMLTableElement>(null);
  const [printing, setPrinting] = useState(false);
  if (transfer.isPending) return <FullScreenSpinner />;
  if (transfer.isError) return <p role="alert">{errorText(transfer.error)}</p>;
  const tr = transfer.data;
  const tz = stores.find((s) => s.id === tr.fromStore.id)?.timeZone ?? undefined;
  const who = (u: Transfer['sentBy']) => u?.displayName || u?.username || '';
  const title = t('transfers.number', { number: tr.number });
  // Sending needs the sending store, receiving the receiving one (the server says so too).
  const mine = (storeId: number) => stores.some((s) => s.id === storeId);

  async function cancel() {
    if (!(await confirm(t('transfers.cancelQ', { number: tr.number }), { danger: true }))) return;
    try {
      await step.mutateAsync({ step: 'cancel' });
      toast.success(t('transfers.cancelledOk', { number: tr.number }));
    } catch (error) {
      toast.error(errorText(error));
    }
  }

  async function print() {
    if (!printer) {
      const table = tableRef.current;
      if (!table) return;
      const node = document.createElement('div');
      node.className = 'receipt';
      const h = document.createElement('h1');
      h.textContent = `${t('transfers.packingList')} · ${title}`;
      const p = document.createElement('p');
      p.textContent = `${tr.fromStore.name} → ${tr.toStore.name}`;
      node.append(h, p, table.cloneNode(true));
      browserPrint(node);
      return;
    }
    setPrinting(true);
    try {
      const job = await printPackingList(tr.id, printer.id);
      if (job.status === 'printed') toast.success(t('transfers.printSent', { printer: printer.name }));
      else toast.error(t('transfers.printProblem', { printer: printer.name, error: job.lastError ?? job.status }));
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setPrinting(false);
    }
  }

  const lines = tr.lines ?? [];
  return (
    <div className="stock-page">
      <h1>{title} <StatusBadge status={tr.status} label={t(`transfers.statuses.${tr.status}`)} /></h1>
      <StockTabs />
      <dl className="stock-meta">
        <div><dt>{t('transfers.from')}</dt><dd>{tr.fromStore.name}</dd></div>
        <div><dt>{t('transfers.to')}</dt><dd>{tr.toStore.name}</dd></div>
        <div><dt>{t('transfers.requestedBy')}</dt><dd>{who(tr.requestedBy)} {when(tr.requestedAt, tz, i18n.language)}</dd></div>
        {tr.sentAt && <div><dt>{t('transfers.sentBy')}</dt><dd>{who(tr.sentBy)} {when(tr.sentAt, tz, i18n.language)}</dd></div>}
        {tr.receivedAt && <div><dt>{t('transfers.receivedBy')}</dt><dd>{who(tr.receivedBy)} {when(tr.receivedAt, tz, i18n.language)}</dd></div>}
        {tr.note && <div><dt>{t('common.note')}</dt><dd>{tr.note}</dd></div>}
        {tr.lossReason && <div><dt>{t('transfers.lossReason')}</dt><dd>{tr.lossReason}</dd></div>}
      </dl>
      <div className="stock-actions">
        {canWrite && tr.status === 'requested' && <Button size="lg" variant="danger" onClick={() => void cancel()} disabled={step.isPending}>{t('transfers.cancel')}</Button>}
        <Button size="lg" variant="secondary" onClick={() => void print()} loading={printing}>{t('transfers.print')}</Button>
      </div>
      <TransferLinesTable ref={tableRef} lines={lines} />
      {canWrite && tr.status === 'requested' && mine(tr.fromStore.id) && <SendForm transfer={tr} lines={lines} />}
      {canWrite && tr.status === 'sent' && mine(tr.toStore.id) && <ReceiveForm transfer={tr} lines={lines} />}
    </div>
  );
}

function TransferLinesTable({ lines, ref }: { lines: TransferLine[]; ref: React.Ref<HTMLTableElement> }) {
  const { t } = useTranslation('stock');
  const q = (v: number | null) => (v == null ? '—' : String(v));
  return (
    <table ref={ref} className="table table-compact stock-lines stock-cards">
      <caption className="visually-hidden">{t('transfers.packingList')}</caption>
      <thead>
        <tr>
          <th>{t('common.product')}</th><th>{t('common.shelf')}</th>
          <th className="num">{t('transfers.requested')}</th><th className="num">{t('transfers.sent')}</th>
          <th className="num">{t('transfers.received')}</th><th className="num">{t('transfers.lost')}</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.id}>
            <td className="stock-cell-product">{l.product.name}{l.variant ? ` (${variantLabel(l.variant)})` : ''}{l.product.sku ? <small className="muted"> {l.product.sku}</small> : null}</td>
            <td data-label={t('common.shelf')}>{l.location ?? '—'}</td>
            <td className="num" data-label={t('transfers.requested')}>{q(l.requested)}</td>
            <td className="num" data-label={t('transfers.sent')}>{q(l.sent)}</td>
            <td className="num" data-label={t('transfers.received')}>{q(l.received)}</td>
            <td className="num" data-label={t('transfers.lost')}>{q(l.lost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Sending: what is packed per line (default: what was requested; a store cannot send more than it has). */
function SendForm({ transfer, lines }: { transfer: Transfer; lines: TransferLine[] }) {
  const { t } = useTranslation('stock');
  const step = useTransferStep(transfer.id);
  const schema = z.object({ lines: z.array(z.object({ id: z.number(), quantity: positiveQty })) });
  type Form = z.infer<typeof schema>;
  const { register, handleSubmit, formState, setError } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: { lines: lines.map((l) => ({ id: l.id, quantity: String(l.requested) })) },
  });
  const e = formState.errors;
  const submit = handleSubmit(async (v) => {
    if (!(await confirm(t('transfers.sendQ', { number: transfer.number, store: transfer.fromStore.name })))) return;
    try {
      await step.mutateAsync({ step: 'send', body: { lines: v.lines.map((l) => ({ id: l.id, quantity: qtyText(l.quantity) })) } });
      toast.success(t('transfers.sentOk', { number: transfer.number }));
    } catch (error) {
      applyServerErrors(error, setError, (m) => toast.error(m), ['lines']);
    }
  });
  return (
    <form className="stock-form admin-panel" onSubmit={submit} noValidate>
      <h2>{t('transfers.sendTitle')}</h2>
      <table className="table table-compact stock-lines stock-cards">
        <thead><tr><th>{t('common.product')}</th><th>{t('common.shelf')}</th><th className="num">{t('transfers.requested')}</th><th>{t('transfers.sentQty')}</th></tr></thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={l.id}>
              <td className="stock-cell-product">{l.product.name}{l.variant ? ` (${variantLabel(l.variant)})` : ''}</td>
              <td data-label={t('common.shelf')}>{l.location ?? '—'}</td>
              <td className="num" data-label={t('transfers.requested')}>{l.requested}</td>
              <td data-label={t('transfers.sentQty')}>
                <Input aria-label={`${t('transfers.sentQty')}: ${l.product.name}`} inputMode="decimal" error={errorKey(t, e.lines?.[i]?.quantity?.message)} {...register(`lines.${i}.quantity`)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="stock-actions"><Button type="submit" size="lg" loading={formState.isSubmitting}>{t('transfers.send')}</Button></div>
    </form>
  );
}

/** Receiving: what arrived per line (default: what was sent); a shortfall needs its reason. */
function ReceiveForm({ transfer, lines }: { transfer: Transfer; lines: TransferLine[] }) {
  const { t } = useTranslation('stock');
  const step = useTransferStep(transfer.id);
  const schema = z.object({ lines: z.array(z.object({ id: z.number(), quantity: zeroOkQty })), lossReason: z.string().max(255) })
    .superRefine((v, ctx) => {
      v.lines.forEach((l, i) => {
        const sent = lines[i]?.sent ?? 0;
        if (Number(qtyText(l.quantity)) > sent) ctx.addIssue({ code: 'custom', path: ['lines', i, 'quantity'], message: `> ${sent}` });
      });
      const short = v.lines.some((l, i) => Number(qtyText(l.quantity)) < (lines[i]?.sent ?? 0));
      if (short && !v.lossReason.trim()) ctx.addIssue({ code: 'custom', path: ['lossReason'], message: 'transfers.lossReasonHint' });
    });
  type Form = z.infer<typeof schema>;
  const { register, handleSubmit, formState, setError } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: { lines: lines.map((l) => ({ id: l.id, quantity: String(l.sent ?? 0) })), lossReason: '' },
  });
  const e = formState.errors;
  const submit = handleSubmit(async (v) => {
    try {
      await step.mutateAsync({ step: 'receive', body: { lines: v.lines.map((l) => ({ id: l.id, quantity: qtyText(l.quantity) })), lossReason: v.lossReason.trim() || undefined } });
      toast.success(t('transfers.receivedOk', { number: transfer.number }));
    } catch (error) {
      applyServerErrors(error, setError, (m) => toast.error(m), ['lines', 'lossReason']);
    }
  });
  return (
    <form className="stock-form admin-panel" onSubmit={submit} noValidate>
      <h2>{t('transfers.receiveTitle')}</h2>
      <table className="table table-compact stock-lines stock-cards">
        <thead><tr><th>{t('common.product')}</th><th className="num">{t('transfers.sent')}</th><th>{t('transfers.receivedQty')}</th></tr></thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={l.id}>
              <td className="stock-cell-product">{l.product.name}{l.variant ? ` (${variantLabel(l.variant)})` : ''}</td>
              <td className="num" data-label={t('transfers.sent')}>{l.sent}</td>
              <td data-label={t('transfers.receivedQty')}>
                <Input aria-label={`${t('transfers.receivedQty')}: ${l.product.name}`} inputMode="decimal" error={errorKey(t, e.lines?.[i]?.quantity?.message)} {...register(`lines.${i}.quantity`)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Input label={t('transfers.lossReason')} hint={t('transfers.lossReasonHint')} error={errorKey(t, e.lossReason?.message)} {...register('lossReason')} />
      <div className="stock-actions"><Button type="submit" size="lg" loading={formState.isSubmitting}>{t('transfers.receive')}</Button></div>
    </form>
  );
}
