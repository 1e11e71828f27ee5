/**
 * The shop's database for the command-line tools (npm run backup / restore / db:move):
 * DATABASE_URL's PostgreSQL; else the data folder's own PostgreSQL, used through its socket when a
 * POS server is running on it (nothing started, nothing stopped), or started for the command and
 * stopped after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { AppConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { embeddedUrl } from '../db/embedded.ts';
import { isPgliteFolder } from '../db/import-pglite.ts';

/** A refusal the tools print as one line and exit 1 on. */
export class CliError extends Error {}

export interface ShopDatabase { url: string; kind: 'embedded' | 'postgres'; running: boolean; close(): Promise<void> }

/** A connection string with its password hidden, for messages. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an invalid URL)';
  }
}

/** Connects once to say clearly when a PostgreSQL cannot be reached. */
export async function assertReachable(url: string, what: string): Promise<void> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.query('select 1');
  } catch (e) {
    throw new CliError(`Cannot reach ${what} at ${maskUrl(url)}: ${(e as Error).message || (e as { code?: string }).code}`);
  } finally {
    await c.end().catch(() => {});
  }
}

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; } };

/** The pid of a live POS server holding the data folder, if any. */
export function runningServer(dataDir: string): number | undefined {
  try {
    const holder = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8')) as { pid?: number };
    return holder.pid && holder.pid !== process.pid && alive(holder.pid) ? holder.pid : undefined;
  } catch {
    return undefined;
  }
}

export async function openShopDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>, log: (m: string) => void): Promise<ShopDatabase> {
  if (config.databaseUrl) {
    await assertReachable(config.databaseUrl, 'the database of DATABASE_URL');
    return { url: config.databaseUrl, kind: 'postgres', running: false, close: async () => {} };
  }
  const dataDir = path.resolve(config.dataDir);
  const pgdata = path.join(dataDir, 'pg');
  if (runningServer(dataDir)) {
    const url = embeddedUrl(pgdata);
    await assertReachable(url, 'the running server\'s database');
    return { url, kind: 'embedded', running: true, close: async () => {} };
  }
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION')) && !isPgliteFolder(dataDir)) {
    throw new CliError(`There is no shop database in ${dataDir}: set DATA_DIR to the data folder (or DATABASE_URL to the PostgreSQL) of the shop.`);
  }
  const database = await openDatabase(config, { log });
  return { url: database.url, kind: 'embedded', running: false, close: () => database.close() };
}
