/**
 * Raw printing over TCP (port 9100, "JetDirect"): the bytes go to the printer and the socket is
 * closed cleanly; errors are said in words a cashier understands. Node built-ins only, so the print
 * agent (cli/print-agent.ts) uses it without the server's code.
 */
import net from 'node:net';

/** How long a printer may take to accept the connection and the bytes. */
export const SEND_TIMEOUT_MS = 4000;

/** Sends the bytes to host:port and waits until the printer has them (the socket closed cleanly). */
export function sendToPrinter(host: string, port: number, bytes: Uint8Array, timeoutMs = SEND_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      socket.destroy();
      if (err) reject(err); else resolve();
    };
    socket.setTimeout(timeoutMs, () => finish(new Error(`The printer at ${host}:${port} did not answer within ${timeoutMs / 1000} s`)));
    socket.on('error', (e: NodeJS.ErrnoException) => finish(new Error(describe(e, host, port))));
    socket.on('connect', () => { socket.end(Buffer.from(bytes), () => finish()); });
  });
}

function describe(e: NodeJS.ErrnoException, host: string, port: number): string {
  if (e.code === 'ECONNREFUSED') return `The printer at ${host}:${port} refused the connection (off, or another port)`;
  if (e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH') return `The printer at ${host}:${port} cannot be reached on the network`;
  if (e.code === 'ENOTFOUND') return `The printer's host name ${host} is unknown`;
  return `The printer at ${host}:${port} failed: ${e.code ?? e.message}`;
}

