/**
 * npm run db:move -- postgres://user:password@host:5432/database
 * Copies the shop (its own PostgreSQL in DATA_DIR, or DATABASE_URL's) into an EMPTY PostgreSQL
 * database, verified table by table; then the server is pointed at it with DATABASE_URL. The
 * server must be stopped: a sale made during the move would not be moved.
 */
import { loadConfig } from '../config.ts';
import { backupDir } from '../backup/schedule.ts';
import { moveShop, isPostgresUrl } from '../backup/move.ts';
import { CliError, maskUrl, openShopDatabase, runningServer } from '../backup/shop-database.ts';
import { runTool } from './run-tool.ts';

await runTool(async () => {
  const target = process.argv[2];
  if (!target || process.argv.length > 3 || !isPostgresUrl(target)) {
    throw new CliError('usage: npm run db:move -- postgres://user:password@host:5432/database   (an empty database)');
  }
  const config = loadConfig();
  const pid = config.databaseUrl ? undefined : runningServer(config.dataDir);
  if (pid) throw new CliError(`The POS server (pid ${pid}) is running on this data folder: stop it first, so that no sale is made during the move.`);
  const shop = await openShopDatabase(config, () => {});
  try {
    const m = await moveShop(shop.url, target, backupDir(config.dataDir), shop.kind);
    console.log(`Moved ${m.tables} tables, ${m.rows} rows into ${maskUrl(target)} (row counts and numeric sums verified per table).`);
    console.log(`  a backup of what was moved: ${m.backup.file}`);
    console.log('  Now start the server on it: set DATABASE_URL to that URL (in the environment, the compose file or the systemd unit) and start as usual.');
    if (shop.kind === 'embedded') console.log('  The data folder\'s own database is left as it was; it is not used while DATABASE_URL is set.');
  } finally {
    await shop.close();
  }
});
