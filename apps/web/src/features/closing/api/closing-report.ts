import { apiFetch } from '@/lib/api-client';
import type { PrintJob } from '@/features/receipt/api/network-print';

/**
 * POST /api/print/closing/{id} {device}: the server prints the day's X report (day open) or Z report
 * (day closed) on the till's network printer; the answer carries the first delivery attempt.
 */
export const printClosingReport = (closingId: number, device: number) =>
  apiFetch<PrintJob>(`/print/closing/${closingId}`, { method: 'POST', body: { device } });
