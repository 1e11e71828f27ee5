/**
 * npm run restore -- FILE: replaces the shop's data with a backup. The file is checked first (a
 * damaged, foreign or newer-schema file is refused, nothing touched); the current data is kept as a
 * `pre-restore` backup; the restore is one transaction (data intact on any failure); a backup of an
 * older release is migrated afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { restoreWithSafetyCopy } from '../backup/restore.ts';
import { backupDir } from '../backup/schedule.ts';
import { CliError, openShopDatabase } from '../backup/shop-database.ts';
import { kb, runTool } from './run-tool.ts';

await runTool(async () => {
  // npm runs scripts from the package folder: a relative path is the caller's (INIT_CWD).
  const file = process.argv[2] && path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2]);
  if (!file || process.argv.length > 3) throw new CliError('usage: npm run restore -- FILE   (a .posbak file, e.g. from DATA_DIR/backups)');
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new CliError(`${process.argv[2]}: no such file`);
  const config = loadConfig();
  const shop = await openShopDatabase(config, () => {});
  try {
    const r = await restoreWithSafetyCopy(shop.url, file, backupDir(config.dataDir), shop.kind);
    console.log(`Restored ${path.basename(file)} (taken ${r.header.createdAt}): ${r.header.tables.length} tables, ${r.rows} rows, counts and sums verified, in ${r.ms} ms`);
    if (r.header.migration.tag !== r.migratedTo) console.log(`  migrated from schema ${r.header.migration.tag} to ${r.migratedTo}`);
    console.log(`  the data it replaced is kept in ${r.before.file} (${kb(r.before.size)})`);
    if (shop.running) console.log('  the running server uses the restored data now; tills pick it up at their next request');
  } finally {
    await shop.close();
  }
});
