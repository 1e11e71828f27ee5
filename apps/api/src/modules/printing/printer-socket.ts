/**
 * Raw printing over TCP (port 9100, "JetDirect"): the bytes go to the printer and the socket is
 * closed cleanly; errors are said in words a cashier understands. Node built-ins only, so the print
 * agent (cli/print-agent.ts) uses it without the server's code.
 */
import net from 'node:net';

/** How long a printer may take to accept the connection and the bytes. */
export const SEND_TIMEOUT_MS = 4000;

/** How long a printer may take to answer the paper status query; printers that never answer are printed to anyway. */
export const STATUS_WAIT_MS = 400;
/** DLE EOT 4: "transmit roll paper sensor status" (ESC/POS real-time command). */
const PAPER_STATUS = Buffer.from([0x10, 0x04, 0x04]);
/** In its answer, bits 5 and 6: the paper has run out. */
const PAPER_END = 0x60;

/**
 * Sends the bytes to host:port and waits until the printer has them (the socket closed cleanly).
 * First asks the printer for its paper status: a printer out of paper is an error the till shows
 * (the job waits and is sent again), not a receipt lost in a silent printer.
 */
export function sendToPrinter(host: string, port: number, bytes: Uint8Array, timeoutMs = SEND_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let done = false;
    let sent = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(statusTimer);
      socket.destroy();
      if (err) reject(err); else resolve();
    };
    const send = () => {
      if (sent || done) return;
      sent = true;
      socket.end(Buffer.from(bytes), () => finish());
    };
    let statusTimer: NodeJS.Timeout | undefined;
    socket.setTimeout(timeoutMs, () => finish(new Error(`The printer at ${host}:${port} did not answer within ${timeoutMs / 1000} s`)));
    socket.on('error', (e: NodeJS.ErrnoException) => finish(new Error(describe(e, host, port))));
    socket.once('data', (status: Buffer) => {
      if (sent) return;
      if ((status[0] & PAPER_END) === PAPER_END) finish(new Error(`The printer at ${host}:${port} is out of paper`));
      else send();
    });
    socket.on('connect', () => {
      socket.write(PAPER_STATUS);
      statusTimer = setTimeout(send, STATUS_WAIT_MS);
    });
  });
}

function describe(e: NodeJS.ErrnoException, host: string, port: number): string {
  if (e.code === 'ECONNREFUSED') return `The printer at ${host}:${port} refused the connection (off, or another port)`;
  if (e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH') return `The printer at ${host}:${port} cannot be reached on the network`;
  if (e.code === 'ENOTFOUND') return `The printer's host name ${host} is unknown`;
  return `The printer at ${host}:${port} failed: ${e.code ?? e.message}`;
}

