/**
 * Issue 28: a data folder of the previous release (PGlite, made here the way that release made
 * it: PGlite on DATA_DIR, the migrations, the demo shop) is moved into the shop's own PostgreSQL
 * at start: same rows and money, sequences carried on, the old folder kept aside, and a log line.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, openDatabase, type Db } from './client.ts';
import { seedDemoShop } from '../setup/demo-shop.ts';
import { rowsOf } from './raw.ts';

const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-old-'));
fs.chmodSync(parent, 0o755); // as root, PostgreSQL runs as another user, who must reach the data folder
afterAll(() => { fs.rmSync(parent, { recursive: true, force: true }); });

const FACTS = `select (select count(*) from product)::int as products, (select count(*) from stock_movement)::int as movements,
  (select sum(base_price)::text from product) as prices, (select sum(quantity)::text from stock_movement) as moved,
  (select count(*) from user_account)::int as users, (select max(id) from store)::int as last_store`;

describe('a PGlite data folder of the previous release', () => {
  it('is copied into PostgreSQL, verified, kept aside renamed, and the server says so', { timeout: 300_000 }, async () => {
    const dir = path.join(parent, 'data');
    // Migrated to today's schema here (the search indexes' extensions loaded, as the import does).
    const old = new PGlite(dir, { extensions: { pg_trgm, unaccent } });
    const oldDb = drizzle(old);
    await migrate(oldDb, { migrationsFolder });
    await seedDemoShop(oldDb as unknown as Db, { bcryptRounds: 4 });
    await old.query(`update product set base_price = base_price + 0.01 where id = (select min(id) from product)`);
    const before = (await old.query<Record<string, unknown>>(FACTS)).rows[0];
    await old.close();
    expect(Number(before.products)).toBeGreaterThan(0);

    const logs: string[] = [];
    const database = await openDatabase({ dataDir: dir }, { log: (m) => logs.push(m) });
    try {
      expect(database.kind).toBe('embedded');
      await database.migrate();
      const after = rowsOf<Record<string, unknown>>(await database.db.execute(sql.raw(FACTS)))[0];
      expect(after).toEqual(before);
      // The sequences went over too: a new store gets the next number, not 1.
      const [{ id }] = rowsOf<{ id: number }>(await database.db.execute(sql`insert into store (name, location) values ('New', 'x') returning id`));
      expect(Number(id)).toBe(Number(before.last_store) + 1);
    } finally {
      await database.close();
    }
    const aside = fs.readdirSync(parent).filter((n) => n.startsWith('data.pglite-'));
    expect(aside).toHaveLength(1);
    expect(fs.existsSync(path.join(parent, aside[0], 'PG_VERSION')), 'the old folder kept whole').toBe(true);
    expect(fs.existsSync(path.join(dir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(`${dir}.migrating`)).toBe(false);
    expect(logs.join('\n')).toMatch(/Found a data folder of the previous release \(PGlite\)/);
    expect(logs.join('\n')).toMatch(/Moved \d+ tables \(\d+ rows; counts and numeric sums verified per table\).*kept as .*data\.pglite-/);

    // The next start is a plain start on the moved data.
    const again = await openDatabase({ dataDir: dir }, { log: (m) => logs.push(m) });
    try {
      expect(rowsOf<{ n: number }>(await again.db.execute(sql`select count(*)::int as n from store where name = 'New'`))[0].n).toBe(1);
    } finally {
      await again.close();
    }
    expect(fs.readdirSync(parent).filter((n) => n.startsWith('data.pglite-'))).toHaveLength(1);
  });
});
