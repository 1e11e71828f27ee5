import { and, eq, exists, inArray, isNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FilterFn, ResourceCtx } from './engine.ts';
import type { StoreLinkTable } from '../lib/present.ts';
import { searchCondition, searchText, textMatch } from './search.ts';

const first = (v: string | string[]) => (Array.isArray(v) ? v[0] : v);

/** Text search (API Platform "partial"/"ipartial"): see search.ts for the rule and its indexes. */
export const partial = (col: PgColumn | SQL): FilterFn => (v, _ctx, name = 'search') => searchCondition(col, v, name);

/** Equality; arrays become IN. Numbers that do not parse match nothing instead of erroring. */
export const exact = (col: PgColumn, kind: 'text' | 'int' | 'number' = 'text'): FilterFn => (v) => {
  const values = (Array.isArray(v) ? v : [v]).map((s) => {
    const raw = kind === 'int' ? (/^\/api\/[a-z_]+\/(\d+)$/.exec(s)?.[1] ?? s) : s;
    if (kind === 'text') return raw;
    const n = Number(raw);
    if (!Number.isFinite(n) || (kind === 'int' && (!Number.isInteger(n) || Math.abs(n) > 2147483647))) return undefined;
    return kind === 'int' ? n : raw;
  }).filter((x) => x !== undefined);
  if (!values.length) return sql`false`;
  return values.length === 1 ? eq(col, values[0] as any) : inArray(col, values as any[]);
};

/** true/false/1/0; anything else is ignored. */
export const bool = (col: PgColumn): FilterFn => (v) => {
  const s = first(v).toLowerCase();
  if (s === 'true' || s === '1') return eq(col, true);
  if (s === 'false' || s === '0') return eq(col, false);
  return undefined;
};


/**
 * Store scoping of an entity linked to stores through a link table: visible when linked to one of
 * the caller's stores, or linked to no store at all (shared by every store).
 */
export function linkedToStores(link: StoreLinkTable, ownerIdCol: PgColumn, storeIds: number[]): SQL {
  const anyLink = sql`(select 1 from ${link} where ${link.ownerId} = ${ownerIdCol})`;
  if (!storeIds.length) return notExists(anyLink);
  return or(
    exists(sql`(select 1 from ${link} where ${link.ownerId} = ${ownerIdCol} and ${inArray(link.storeId, storeIds)})`),
    notExists(anyLink),
  )!;
}

export const storeLinkScope = (link: StoreLinkTable, ownerIdCol: PgColumn) => (ctx: ResourceCtx) =>
  linkedToStores(link, ownerIdCol, ctx.auth.storeIds);

/** `store=<id>` filter on a link-table entity. */
export const storeLinkFilter = (link: StoreLinkTable, ownerIdCol: PgColumn): FilterFn => (v) => {
  const id = Number(/(\d+)$/.exec(first(v))?.[1]);
  if (!Number.isInteger(id)) return undefined;
  return linkedToStores(link, ownerIdCol, [id]);
};

/** Scope for an entity with a store_id column: the caller's stores (and rows without a store). */
export const storeColumnScope = (col: PgColumn, allowNull = true) => (ctx: ResourceCtx) => {
  const mine = ctx.auth.storeIds.length ? inArray(col, ctx.auth.storeIds) : sql`false`;
  return allowNull ? or(mine, isNull(col))! : mine;
};

/** Match through a join table: EXISTS (link join other where other.col ilike %v%). */
export const throughPartial = (link: PgTable & { productId?: PgColumn }, linkOwner: PgColumn, ownerId: PgColumn, linkOther: PgColumn, other: PgTable & { id: PgColumn }, otherCol: PgColumn): FilterFn =>
  (v, _ctx, name = 'search') => {
    const text = searchText(v, name);
    return text === undefined ? undefined
      : exists(sql`(select 1 from ${link} join ${other} on ${other.id} = ${linkOther} where ${linkOwner} = ${ownerId} and ${textMatch(otherCol, text)})`);
  };

export { and };
