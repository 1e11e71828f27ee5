import type { FastifyInstance } from 'fastify';
import type https from 'node:https';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { EmbeddedPgError } from './db/embedded.ts';
import { frontNice, frontWanted, privateSocket, startFront, type Front } from './net/front.ts';
import { FrontBoard } from './plugins/admission-front.ts';
import { loadTls, scheduleRenewal, tlsSlot } from './net/tls.ts';
import { setupNeeded } from './setup/setup.service.ts';

/**
 * The only file that listens. Start order: database (the shop's own PostgreSQL when there is no
 * DATABASE_URL), migrations, API on the public port (with HTTPS beyond loopback); with FRONT=on the
 * API on a private socket, then the front thread on the public port (net/front.ts). Stop order:
 * the front (if any) stops taking connections and finishes the answers in progress, the API
 * drains, then the pool ends and the shop's PostgreSQL gets a fast shutdown (the database's onClose hook in
 * app.ts).
 */
const config = loadConfig();
const tls = tlsSlot(config);
// FRONT=on: the public port is the front thread's (net/front.ts), refusals under overload answered at once.
let board: FrontBoard | undefined;
let nice = 0;
try {
  board = frontWanted(config) ? new FrontBoard() : undefined;
  nice = board ? frontNice() : 0;
} catch (err) {
  console.error(`POS cannot start: ${(err as Error).message}`);
  process.exit(1);
}
let app: FastifyInstance;
try {
  app = await buildApp({ tls, front: board });
} catch (err) {
  // A data folder that cannot be used (in use, newer release, not a database, read-only, ...):
  // say why in one line, change nothing, exit non-zero.
  console.error(err instanceof EmbeddedPgError ? `POS cannot start: ${err.message}` : err);
  process.exit(1);
}
let front: Front | null = null;
if (tls) {
  try {
    // With the front, the certificate goes to it once it starts (below).
    await loadTls(tls, app.config, board ? () => {} : (app.server as unknown as https.Server), app.log);
  } catch (err) {
    console.error(`Cannot serve HTTPS: ${(err as Error).message}`);
    await app.close();
    process.exit(1);
  }
}
const { port, host } = app.config;
try {
  if (board) {
    const socket = privateSocket();
    app.addHook('onClose', async () => socket.remove());
    await app.listen({ path: socket.path });
    front = await startFront({
      port, host, upstream: socket.path, tls, ...app.admission, board: board.buffer, nice,
      onFailure: (err) => { app.log.fatal({ err }, 'the front thread failed; exiting to be restarted'); process.exit(1); },
    });
    if (front.nice > nice) app.log.info(`the front thread runs at nice ${front.nice}, not ${nice} (no permission to raise it: README "The shop's server")`);
  } else {
    await app.listen({ port, host });
  }
} catch (err) {
  console.error(`POS cannot listen on ${host}:${port}: ${(err as Error).message}`);
  await app.close().catch(() => {});
  process.exit(1);
}
if (tls?.source === 'generated') {
  const target = front ? front.setTls : (app.server as unknown as https.Server);
  scheduleRenewal(tls, target, app.config, app.log);
}
const shown = front?.port ?? port;
const url = `${tls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '::' ? (tls?.names[0] ?? 'localhost') : host}:${shown}`;
if (tls?.caCert) console.log(`\n  HTTPS with the shop's own CA: staff trust it once from ${url.replace('https:', 'http:')}/trust`);
app.log.info(`POS is running at ${url} (database: ${app.database.kind})`);
if (app.config.seedDemo) {
  console.log(`\n  POS ready at ${url}\n  Demo logins: admin / admin (administrator, both stores)   cashier / cashier (till, one store)\n`);
} else if (await setupNeeded(app.db)) {
  console.log(`\n  POS ready at ${url}\n  First run: open ${url}/setup to name the shop and create the owner's account\n`);
}

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    // Requests in flight get this long to finish; then the process exits anyway.
    setTimeout(() => { app.log.error('shutdown took longer than 10 s, exiting'); process.exit(1); }, Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000)).unref();
    try {
      // The front first: no new requests, and those in progress answered; then the API and its database.
      await front?.close();
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error(err);
      process.exit(1);
    }
  });
}
