/**
 * Which schema a database (or a backup of one) is at: the last Drizzle migration applied, by its
 * hash and time stamp (what drizzle-orm's migrator itself compares). A backup can be restored by a
 * release that knows its migration; a newer one is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { migrationsFolder } from '../db/client.ts';
import type { Queryable } from '../db/table-checks.ts';

/** A migration as a backup header names it. `count`: how many migrations up to and with it. */
export interface MigrationId { tag: string; hash: string; createdAt: number; count: number }

export interface KnownMigration extends MigrationMeta { tag: string }

let known: KnownMigration[] | undefined;

/** This release's migrations, oldest first. */
export function knownMigrations(): KnownMigration[] {
  if (!known) {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
    known = readMigrationFiles({ migrationsFolder }).map((m) => ({ ...m, tag: journal.entries.find((e) => e.when === m.folderMillis)?.tag ?? String(m.folderMillis) }));
  }
  return known;
}

export const idOf = (list: KnownMigration[], i: number): MigrationId => ({ tag: list[i].tag, hash: list[i].hash, createdAt: list[i].folderMillis, count: i + 1 });

/** The last migration applied to a database, or null (never migrated). */
export async function appliedMigration(db: Queryable): Promise<{ hash: string; createdAt: number } | null> {
  const { rows: [t] } = await db.query<{ t: string | null }>("select to_regclass('drizzle.__drizzle_migrations')::text as t");
  if (!t.t) return null;
  const { rows } = await db.query<{ hash: string; created_at: string }>('select hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1');
  return rows[0] ? { hash: rows[0].hash, createdAt: Number(rows[0].created_at) } : null;
}

/** The index of a migration in this release's list, or -1 (a newer release's, or a foreign one). */
export function indexOfMigration(m: { hash: string; createdAt: number }): number {
  return knownMigrations().findIndex((k) => k.hash === m.hash && k.folderMillis === m.createdAt);
}

/** Migrations this release would apply to a database at `applied` (all of them when null). */
export function pendingAfter(applied: { hash: string; createdAt: number } | null): KnownMigration[] {
  const list = knownMigrations();
  return applied ? list.filter((m) => m.folderMillis > applied.createdAt) : list;
}

/**
 * Applies `list` inside the caller's transaction, recording each as drizzle-orm's migrator does
 * (same table, same rows), so the server's own `migrate()` later sees them as applied. (The
 * migrator itself opens and commits a transaction of its own, which would end the caller's.)
 */
export async function applyMigrations(db: Queryable, list: KnownMigration[]): Promise<void> {
  await db.query('create schema if not exists drizzle');
  await db.query('create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
  for (const m of list) {
    for (const statement of m.sql) if (statement.trim()) await db.query(statement);
    await db.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [m.hash, m.folderMillis]);
  }
}
