import { useMutation, useQuery } from '@tanstack/react-query';
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

/** GET /api/print/job/{id}: the job now (the queue retries it in the background). */
export const getPrintJob = (jobId: number) => apiFetch<PrintJob>(`/print/job/${jobId}`);

export const printJobKey = (jobId: number) => ['print-job', jobId] as const;

/** A job the till stops asking about: printed, or given up by the queue (Retry starts it again). */
export const isFinalJob = (job: Pick<PrintJob, 'status'>) => job.status === 'printed' || job.status === 'failed';

/** How often, and for how long after the till last heard of it, a waiting job's status is asked for. */
export const JOB_POLL_MS = 2000;
export const JOB_POLL_FOR_MS = 120_000;

/**
 * The live status of `job` (the answer of a print or a Retry, put in the cache by the caller with
 * printJobKey): while it is queued or being sent, asked for every JOB_POLL_MS until it is printed
 * or failed, or JOB_POLL_FOR_MS after `since` (when the till last sent it).
 */
export const usePrintJob = (job: PrintJob | null, since: number) =>
  useQuery({
    queryKey: printJobKey(job?.id ?? 0),
    queryFn: () => getPrintJob(job!.id),
    enabled: !!job,
    // The answer the till already has is the data: no request until the first interval.
    ...(job ? { initialData: job } : {}),
    staleTime: Infinity,
    retry: false,
    refetchInterval: (query) => {
      const current = query.state.data;
      return !current || isFinalJob(current) || Date.now() - since >= JOB_POLL_FOR_MS ? false : JOB_POLL_MS;
    },
    refetchIntervalInBackground: true,
  });
