import { EmbeddedPgError } from '../db/embedded.ts';
import { BackupFileError } from '../backup/backup-file.ts';
import { RestoreRefused } from '../backup/restore.ts';
import { CliError } from '../backup/shop-database.ts';

/** Runs a command-line tool: a refusal is one line on stderr and exit 1; anything else is printed in full. */
export async function runTool(main: () => Promise<void>): Promise<void> {
  try {
    await main();
    process.exit(0);
  } catch (e) {
    const known = e instanceof CliError || e instanceof BackupFileError || e instanceof RestoreRefused || e instanceof EmbeddedPgError;
    console.error(known ? `Error: ${(e as Error).message}` : e);
    process.exit(1);
  }
}

export const kb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`);
