import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** A print job on a network receipt printer (docs/api.md "Printing"). */
export interface PrintJob {
  id: number;
  status: 'queued' | 'sending' | 'printed' | 'failed';
  attempts: number;
  lastError: string | null;
  opensDrawer: boolean;
  kind: string;
}

/** POST /api/print/order/{id} {device, copy}: the server renders ESC/POS and sends it; the answer carries the first attempt. */
export const printOnPrinter = (orderId: number, device: number, copy: boolean) =>
  apiFetch<PrintJob>(`/print/order/${orderId}`, { method: 'POST', body: { device, copy } });

/** POST /api/print/job/{id}/retry: send a waiting or failed job again now. */
export const retryPrintJob = (jobId: number) => apiFetch<PrintJob>(`/print/job/${jobId}/retry`, { method: 'POST', body: {} });

/** POST /api/print/drawer {device, store}: "no sale", the drawer of the till's printer opened. */
export const openDrawer = (device: number, store: number) =>
  apiFetch<PrintJob>('/print/drawer', { method: 'POST', body: { device, store } });

export const useNetworkPrint = () =>
  useMutation({ mutationFn: ({ orderId, device, copy }: { orderId: number; device: number; copy: boolean }) => printOnPrinter(orderId, device, copy) });

export const useRetryPrint = () => useMutation({ mutationFn: (jobId: number) => retryPrintJob(jobId) });
