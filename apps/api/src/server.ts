import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { EmbeddedPgError } from './db/embedded.ts';

/**
 * The only file that listens. Start order: database (the shop's own PostgreSQL when there is no
 * DATABASE_URL), migrations, API. Stop order: the API drains its requests, then the pool ends and
 * the shop's PostgreSQL gets a fast shutdown (the database's onClose hook in app.ts).
 */
let app: FastifyInstance;
try {
  app = await buildApp();
} catch (err) {
  // A data folder that cannot be used (in use, newer release, not a database, read-only, ...):
  // say why in one line, change nothing, exit non-zero.
  console.error(err instanceof EmbeddedPgError ? `POS cannot start: ${err.message}` : err);
  process.exit(1);
}
const { port, host } = app.config;
try {
  await app.listen({ port, host });
} catch (err) {
  console.error(`POS cannot listen on ${host}:${port}: ${(err as Error).message}`);
  await app.close().catch(() => {});
  process.exit(1);
}
const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
app.log.info(`POS is running at ${url} (database: ${app.database.kind})`);
if (app.config.seedDemo) {
  console.log(`\n  POS ready at ${url}\n  Demo logins: admin / admin (administrator, both stores)   cashier / cashier (till, one store)\n`);
}

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error(err);
      process.exit(1);
    }
  });
}
