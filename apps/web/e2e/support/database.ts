import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The e2e server's own database (start-server.sh writes where its data folder is; its PostgreSQL
 * listens only on the socket inside it). For what no API does, such as dating a sale yesterday.
 */
export async function withDatabase<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const port = process.env.E2E_PORT ?? '8123';
  const file = path.join(process.env.TMPDIR ?? os.tmpdir(), `pos-e2e-${port}.data-dir`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: the e2e server (start-server.sh, port ${port}) writes where its data folder is there`);
  const dataDir = fs.readFileSync(file, 'utf8').trim();
  const db = new pg.Client({ host: path.join(dataDir, 'pg'), port: 5432, user: 'postgres', database: 'pos' });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}
