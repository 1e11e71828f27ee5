import type { TFunction } from 'i18next';
import { toast } from '@/components/ui/toast';
import { apiFetch } from '@/lib/api-client';
import { errorText } from '@/lib/form-errors';
import type { PrintJob } from '@/features/receipt/api/network-print';

/**
 * POST /api/print/closing/{id} {device}: the server prints the day's X report (day open) or Z report
 * (day closed) on the till's network printer; the answer carries the first delivery attempt.
 */
export const printClosingReport = (closingId: number, device: number) =>
  apiFetch<PrintJob>(`/print/closing/${closingId}`, { method: 'POST', body: { device } });

/**
 * The report on the till's network printer, the cashier told how it went (sent, the printer's
 * problem, or the request's error): the day closing's X/Z and a past day's Z reprint.
 */
export async function sendClosingReport(closingId: number, printer: { id: number; name: string }, report: string, t: TFunction): Promise<void> {
  try {
    const job = await printClosingReport(closingId, printer.id);
    if (job.status === 'printed') toast.success(t('backoffice:closing.reportSent', { report, printer: printer.name }));
    else toast.error(t('backoffice:closing.reportProblem', { report, printer: printer.name, error: job.lastError ?? job.status }));
  } catch (error) {
    toast.error(errorText(error));
  }
}
