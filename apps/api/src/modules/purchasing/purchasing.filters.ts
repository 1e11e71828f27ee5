import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FilterFn } from '../../resources/engine.ts';
import { searchCondition } from '../../resources/search.ts';

/** Filter and sort helpers for purchasing lists that reach through a foreign key. */
const first = (v: string | string[]) => (Array.isArray(v) ? v[0] : v);
const likeValue = (v: string | string[]) => `%${first(v).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * EXISTS (subquery). Drizzle's `exists(sql\`select ...\`)` renders `exists select ...` without
 * parentheses, a syntax error, so raw subqueries go through here.
 */
export const existsQ = (q: SQL): SQL => sql`exists (${q})`;

/** `supplier.name=acme`: the row whose related record's column contains the text (case-insensitive). */
export const relatedPartial = (fk: PgColumn, other: PgTable & { id: PgColumn }, col: PgColumn): FilterFn =>
  (v, _ctx, name = 'search') => {
    const c = searchCondition(col, v, name);
    return c && sql`${fk} in (select ${other.id} from ${other} where ${c})`;
  };

/** Sort by a related record's column (a scalar subquery). */
export const relatedSort = (fk: PgColumn, other: PgTable & { id: PgColumn }, col: PgColumn): SQL =>
  sql`(select ${col} from ${other} where ${other.id} = ${fk})`;

/** The timestamp as text (UTC, ISO-like), for the reference's partial date search (`createdAt=2024-05`). */
export const dateText = (col: PgColumn): SQL => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')`;

export const datePartial = (col: PgColumn): FilterFn => (v) => sql`${dateText(col)} ilike ${likeValue(v)}`;
