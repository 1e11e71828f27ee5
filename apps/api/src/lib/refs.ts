import { inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { validationError } from '@pos/domain/errors';
import { parseRef } from '@pos/domain/wire-fields';
import type { Db, Tx } from '../db/client.ts';

/** Reads a reference as the clients send it (see @pos/domain/wire-fields parseRef). */
export const refId = parseRef;

export function iri(path: string, id: number | null | undefined): string | null {
  return id == null ? null : `/api/${path}/${id}`;
}

/** Reads a list of references; names the failing index in the violation. */
export function refIds(value: unknown, propertyPath: string): number[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw validationError([{ propertyPath, message: 'This value should be of type array.' }]);
  return value.map((v, i) => {
    const id = refId(v);
    if (id == null) throw validationError([{ propertyPath: `${propertyPath}[${i}]`, message: 'This value is not a valid reference.' }]);
    return id;
  });
}

/** 422 "'Store' with ID '9' not found" when a referenced row does not exist. */
export async function assertExist(db: Db | Tx, table: PgTable & { id: PgColumn }, ids: number[], propertyPath: string, label: string) {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const rows = await (db as Db).select({ id: table.id }).from(table as any).where(inArray(table.id, unique));
  const found = new Set(rows.map((r: any) => r.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw validationError([{ propertyPath, message: `'${label}' with ID '${missing}' not found` }]);
}
