/**
 * The print agent (issue 26): on a till's machine on the shop's network, relays the jobs of one
 * network printer from a server that cannot reach it (a chain's central server):
 *   npm run print-agent -- --server https://pos.example.com --key <the printer's agent key> [--printer 192.168.1.50:9100]
 * The key comes from POST /api/devices/{id}/agent-key (shown once; also read from PRINT_AGENT_KEY so
 * it stays out of `ps`). Without --printer the device's own address and port are used. The agent
 * claims a job, sends it to the printer, reports the outcome, and asks again (every second when
 * idle). Node built-ins only.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { sendToPrinter } from '../modules/printing/printer-socket.ts';

export interface AgentOptions {
  server: string;
  key: string;
  /** host:port overriding the device's address. */
  printer?: string;
  idleMs?: number;
  /** Stop when this aborts (tests, Ctrl-C). */
  signal?: AbortSignal;
  log?: (line: string) => void;
}

interface ClaimedJob { id: number; attempts: number; payload: string; printer: { host: string; port: number } }

/** One round: claim a job, print it, report. false when there was nothing to do. */
export async function agentRound(o: AgentOptions): Promise<boolean> {
  const headers = { 'content-type': 'application/json', 'x-print-agent-key': o.key };
  const res = await fetch(new URL('/api/print/agent/claim', o.server), { method: 'POST', headers, body: '{}', signal: o.signal });
  if (res.status === 204) return false;
  if (!res.ok) throw new Error(`The server answered ${res.status} to the print agent${res.status === 401 ? ' (wrong or withdrawn key)' : ''}`);
  const job = (await res.json()) as ClaimedJob;
  const [host, port] = o.printer ? [o.printer.slice(0, o.printer.lastIndexOf(':')), Number(o.printer.slice(o.printer.lastIndexOf(':') + 1))] : [job.printer.host, job.printer.port];
  let error: string | undefined;
  try {
    await sendToPrinter(host, port, Buffer.from(job.payload, 'base64'));
  } catch (e) {
    error = (e as Error).message;
  }
  await fetch(new URL(`/api/print/agent/job/${job.id}`, o.server), { method: 'POST', headers, body: JSON.stringify(error ? { ok: false, error } : { ok: true }), signal: o.signal });
  o.log?.(`job ${job.id}: ${error ?? 'printed'}`);
  return true;
}

/** Runs until the signal aborts; a server that cannot be reached is retried after a pause. */
export async function runAgent(o: AgentOptions): Promise<void> {
  const idle = o.idleMs ?? 1000;
  while (!o.signal?.aborted) {
    let worked = false;
    try {
      worked = await agentRound(o);
    } catch (e) {
      if (o.signal?.aborted) return;
      o.log?.((e as Error).message);
    }
    if (!worked) await new Promise((r) => setTimeout(r, idle));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { server: { type: 'string' }, key: { type: 'string' }, printer: { type: 'string' } } });
  const key = values.key ?? process.env.PRINT_AGENT_KEY;
  if (!values.server || !key || (values.printer && !/^[^:\s]+:\d{1,5}$/.test(values.printer))) {
    console.error('Usage: npm run print-agent -- --server https://pos.example.com --key <agent key> [--printer host:port]  (or PRINT_AGENT_KEY=...)');
    process.exit(2);
  }
  const stop = new AbortController();
  process.on('SIGINT', () => stop.abort());
  process.on('SIGTERM', () => stop.abort());
  console.log(`Print agent: relaying from ${values.server}${values.printer ? ` to ${values.printer}` : ''}`);
  await runAgent({ server: values.server, key, printer: values.printer, signal: stop.signal, log: (l) => console.log(l) });
}
