import { buildApp } from './app.ts';
import { setupNeeded } from './setup/setup.service.ts';

/** The only file that listens. */
const app = await buildApp();
const { port, host } = app.config;
await app.listen({ port, host });
const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
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
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error(err);
      process.exit(1);
    }
  });
}
