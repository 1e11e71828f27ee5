import type { FastifyInstance } from 'fastify';
import type https from 'node:https';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { EmbeddedPgError } from './db/embedded.ts';
import { loadTls, scheduleRenewal, tlsSlot } from './net/tls.ts';
import { setupNeeded } from './setup/setup.service.ts';

/**
 * The only file that listens. Start order: database (the shop's own PostgreSQL when there is no
 * DATABASE_URL), migrations, API (with HTTPS beyond loopback). Stop order: the API drains its
 * requests, then the pool ends and the shop's PostgreSQL gets a fast shutdown (the database's
 * onClose hook in app.ts).
 */
const tls = tlsSlot(loadConfig());
let app: FastifyInstance;
try {
  app = await buildApp({ tls });
} catch (err) {
  // A data folder that cannot be used (in use, newer release, not a database, read-only, ...):
  // say why in one line, change nothing, exit non-zero.
  console.error(err instanceof EmbeddedPgError ? `POS cannot start: ${err.message}` : err);
  process.exit(1);
}
if (tls) {
  const server = app.server as unknown as https.Server;
  try {
    await loadTls(tls, app.config, server, app.log);
  } catch (err) {
    console.error(`Cannot serve HTTPS: ${(err as Error).message}`);
    await app.close();
    process.exit(1);
  }
  if (tls.source === 'generated') scheduleRenewal(tls, server, app.config, app.log);
}
const { port, host } = app.config;
try {
  await app.listen({ port, host });
} catch (err) {
  console.error(`POS cannot listen on ${host}:${port}: ${(err as Error).message}`);
  await app.close().catch(() => {});
  process.exit(1);
}
const url = `${tls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '::' ? (tls?.names[0] ?? 'localhost') : host}:${port}`;
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
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error(err);
      process.exit(1);
    }
  });
}
