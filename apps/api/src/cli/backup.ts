/**
 * npm run backup: writes a backup of the shop's database into DATA_DIR/backups and prints its path
 * and figures. Works while the server runs (a consistent snapshot), on the data folder's own
 * PostgreSQL or on DATABASE_URL's.
 */
import { loadConfig } from '../config.ts';
import { createBackup } from '../backup/backup.ts';
import { backupDir } from '../backup/schedule.ts';
import { openShopDatabase } from '../backup/shop-database.ts';
import { kb, runTool } from './run-tool.ts';

await runTool(async () => {
  const config = loadConfig();
  const shop = await openShopDatabase(config, () => {});
  try {
    const b = await createBackup(shop.url, backupDir(config.dataDir), { kind: 'manual', source: shop.kind });
    const rows = b.header.tables.reduce((n, t) => n + t.rows, 0);
    console.log(b.file);
    console.log(`  ${kb(b.size)}, ${b.header.tables.length} tables, ${rows} rows, schema ${b.header.migration.tag}, taken in ${b.ms} ms`);
    console.log(`  restore it with: npm run restore -- ${b.file}`);
  } finally {
    await shop.close();
  }
});
