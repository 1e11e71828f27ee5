/**
 * The print queue (table print_job, issue 26). A job is rendered once when it is queued, then
 * delivered over TCP to the printer's address and port (ESC/POS "raw" printing, port 9100).
 * Delivery: a job is claimed with FOR UPDATE SKIP LOCKED and leased for LEASE_S seconds, sent
 * outside any transaction, then marked printed, or queued again with a growing delay (2, 4, 8, 16 s
 * ...) until MAX_ATTEMPTS, then failed (a retry from the till re-queues it). Any API process
 * delivers any due job (a sweep every few seconds), so several processes share one queue and a
 * process that dies mid-delivery leaves the job to the next sweep once its lease ends.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import { sendToPrinter } from './printer-socket.ts';

export const MAX_ATTEMPTS = 6;
const LEASE_S = 30;

export interface JobStatus { id: number; status: string; attempts: number; lastError: string | null; printedAt: string | null; opensDrawer: boolean; kind: string }

interface Claimed { id: number; payload: Buffer; host: string; port: number; attempts: number }

/**
 * Claims one due job, leased to the caller: a given one, or the oldest due one of the printers the
 * server reaches itself, or (`agentDevice`) of the printer a print agent relays for. The sweep
 * leaves a new job (never tried, under 10 s old) to the request that queued it, which is trying it
 * at that moment: otherwise the request could find it leased and answer 'sending'.
 */
export async function claim(db: Db, jobId?: number, agentDevice?: number): Promise<Claimed | null> {
  const res = await db.execute(sql`
    update print_job j set status = 'sending', attempts = j.attempts + 1, lease_until = now() + make_interval(secs => ${LEASE_S})
    from device d
    where j.id = (
      select id from print_job
      where (status = 'queued' and next_attempt_at <= now() or status = 'sending' and lease_until < now())
        ${jobId != null ? sql`and id = ${jobId}` : sql``}
        ${agentDevice != null ? sql`and device_id = ${agentDevice}` : sql`and device_id in (select id from device where delivered_by = 'server')`}
        ${jobId == null && agentDevice == null ? sql`and (attempts > 0 or created_at < now() - interval '10 seconds')` : sql``}
      order by next_attempt_at, id
      for update skip locked limit 1)
      and d.id = j.device_id
    returning j.id, j.payload, d.ip_address as host, d.port, j.attempts`);
  return rowsOf<Claimed>(res)[0] ?? null;
}

/** Records the outcome of a delivery attempt (by this server or by a print agent). */
export async function settle(db: Db, job: Pick<Claimed, 'id' | 'attempts'>, error: Error | null): Promise<void> {
  if (!error) {
    await db.execute(sql`update print_job set status = 'printed', printed_at = now(), last_error = null, lease_until = null where id = ${job.id}`);
    return;
  }
  const giveUp = job.attempts >= MAX_ATTEMPTS;
  await db.execute(sql`
    update print_job set status = ${giveUp ? 'failed' : 'queued'}, last_error = ${error.message}, lease_until = null,
      next_attempt_at = now() + make_interval(secs => ${2 ** Math.min(job.attempts, 6)})
    where id = ${job.id}`);
}

/** Delivers one job now (the request that queued it waits for this first attempt). */
export async function deliver(db: Db, jobId?: number): Promise<boolean> {
  const job = await claim(db, jobId);
  if (!job) return false;
  let error: Error | null = null;
  try {
    await sendToPrinter(job.host, job.port, job.payload);
  } catch (e) {
    error = e as Error;
  }
  await settle(db, job, error);
  return true;
}

/** Delivers every due job, one after another (the periodic sweep). */
export async function sweep(db: Db, max = 20): Promise<number> {
  let n = 0;
  while (n < max && (await deliver(db))) n++;
  return n;
}

export async function jobStatus(db: Db, id: number): Promise<JobStatus | null> {
  const res = await db.execute(sql`
    select id, status, attempts, last_error as "lastError", printed_at as "printedAt", opens_drawer as "opensDrawer", kind
    from print_job where id = ${id}`);
  const r = rowsOf<JobStatus & { printedAt: Date | null }>(res)[0];
  return r ? { ...r, printedAt: r.printedAt ? new Date(r.printedAt).toISOString() : null } : null;
}

/** Puts a failed or waiting job back at the head of the queue (the till's "Retry"). */
export async function requeue(db: Db, id: number): Promise<boolean> {
  const res = await db.execute(sql`
    update print_job set status = 'queued', next_attempt_at = now(), attempts = 0
    where id = ${id} and status in ('queued', 'failed') returning id`);
  return rowsOf(res).length > 0;
}
