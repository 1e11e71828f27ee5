/**
 * Once per API test run: the PostgreSQL the tests use, and two template databases on it (migrated;
 * migrated + demo shop seeded). Every test app gets its own database cloned from a template with
 * CREATE DATABASE ... TEMPLATE (helpers.ts), so no file migrates or seeds for itself.
 *
 * TEST_DB=postgres: the machine's PostgreSQL at TEST_PG_URL (default 127.0.0.1:5432).
 * Otherwise: the shop's own engine (db/embedded.ts) in a temporary data folder, started once here.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPg } from '../src/db/embedded.ts';
import { openDatabase } from '../src/db/client.ts';
import { seedDemoShop } from '../src/setup/demo-shop.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplates: { empty: string; seeded: string };
    pgEngine: 'embedded' | 'postgres';
  }
}

const withDb = (adminUrl: string, name: string) => adminUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);

export default async function setup(project: TestProject) {
  let embedded: EmbeddedPg | undefined;
  let dir: string | undefined;
  let adminUrl: string;
  const engine = process.env.TEST_DB === 'postgres' ? 'postgres' : 'embedded';
  if (engine === 'postgres') {
    adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  } else {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-test-pg-'));
    // A throwaway server for this run: no fsync (the shop's durable settings are embedded.test.ts's
    // subject, on a server of its own).
    embedded = await startEmbeddedPostgres(dir, { settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } });
    adminUrl = embedded.url('postgres');
  }
  const tag = `${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const templates = { empty: `pos_tpl_${tag}_empty`, seeded: `pos_tpl_${tag}_seeded` };
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (const [kind, name] of Object.entries(templates)) {
    await admin.query(`create database ${name}`);
    const database = await openDatabase({ databaseUrl: withDb(adminUrl, name), dataDir: '' });
    await database.migrate();
    if (kind === 'seeded') await seedDemoShop(database.db, { bcryptRounds: 4 });
    await database.close();
  }
  await admin.end();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplates', templates);
  project.provide('pgEngine', engine);

  return async () => {
    if (embedded) {
      await embedded.stop();
      fs.rmSync(dir!, { recursive: true, force: true });
      return;
    }
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    for (const name of Object.values(templates)) await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}
