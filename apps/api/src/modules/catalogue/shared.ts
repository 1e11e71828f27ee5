import { and, eq, exists, inArray, notExists, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { validationError } from '@pos/domain/errors';
import { gs1ShapeProblem } from '@pos/domain/barcode';
import { BLANK, NOT_CHOICE, TOO_LONG, decimal, parseRef } from '@pos/domain/wire-fields';
import type { Db, Tx } from '../../db/client.ts';
import { pgArray } from '../../db/raw.ts';
import {
  barcode as barcodeTable, brand, brandStore, category, categoryStore, department, product, productStore, productVariant,
  store, supplier, supplierStore, tax, taxStore, terminal, userAccount, userStore,
} from '../../db/schema/index.ts';
import { storeColumnScope, storeLinkScope } from '../../resources/filters.ts';
import type { ResourceCtx, ResourceDef } from '../../resources/engine.ts';
import { isoDate } from '../../lib/present.ts';
import { can } from '../../plugins/auth.ts';

/** Message of every barcode clash (product, variant or extra barcode), as the reference words it. */
export const BARCODE_USED = 'Barcode already used. Please use a different value';
export const ADD_STORES = 'Please add some stores';
export const INVALID_VARIANTS = 'Please add valid variants';

/** One of a fixed set of strings: blank -> 'This value should not be blank.', other -> not a valid choice. */
export const choice = <T extends string>(values: readonly T[]) =>
  z.unknown().transform((v, ctx) => {
    if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) {
      ctx.addIssue({ code: 'custom', message: BLANK });
      return z.NEVER;
    }
    // Only strings can be a choice; String() of a hostile object ({toString: 0}) would throw.
    const s = (typeof v === 'string' ? v.trim() : '') as T;
    if (!values.includes(s)) {
      ctx.addIssue({ code: 'custom', message: NOT_CHOICE });
      return z.NEVER;
    }
    return s;
  });

/** A whole number given as a number or a numeric string, within [min, max]. */
export const intField = (min: number, max: number) =>
  z.union([z.number(), z.string()], { error: 'This value should be a valid number.' }).transform((v, ctx) => {
    const s = typeof v === 'number' ? String(v) : v.trim();
    if (s === '') { ctx.addIssue({ code: 'custom', message: BLANK }); return z.NEVER; }
    const n = Number(s);
    if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(n)) { ctx.addIssue({ code: 'custom', message: 'This value should be a valid number.' }); return z.NEVER; }
    if (n < min || n > max) { ctx.addIssue({ code: 'custom', message: `This value should be between ${min} and ${max}.` }); return z.NEVER; }
    return n;
  });

/** The server-owned trailer every resource prints: ISO timestamps and the uuid. */
export function stamps(row: { createdAt: Date; updatedAt: Date; uuid?: string }) {
  return { createdAt: isoDate(row.createdAt), updatedAt: isoDate(row.updatedAt), ...(row.uuid !== undefined ? { uuid: row.uuid } : {}) };
}

/** An embedded object with its JSON-LD identity. */
export function ld(path: string, type: string, obj: { id: number } & Record<string, unknown>) {
  return { '@id': `/api/${path}/${obj.id}`, '@type': type, ...obj };
}

/** A numeric string without trailing zeros ('20.000' -> '20', '1.250' -> '1.25'); null stays null. */
export function trimDecimal(v: string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (!v.includes('.')) return v;
  return v.replace(/\.?0+$/, '') || '0';
}

/**
 * Products are scoped through their per-store stock rows: a product is visible to a caller when it
 * has a product_store row in one of the caller's stores, or no row at all (a catalogue-wide item).
 * Both branches use the (product_id, store_id) unique index.
 */
export function productVisible(productId: PgColumn | SQL, storeIds: number[]): SQL {
  if (productId === product.id) return productRowVisible(storeIds);
  const any = sql`(select 1 from ${productStore} where ${productStore.productId} = ${productId})`;
  if (!storeIds.length) return notExists(any);
  return or(
    // A caller in every store sees every product: an uncorrelated check computed once per query,
    // which spares the per-row probes below for the usual back-office admin.
    notExists(sql`(select 1 from ${store} where ${notInArray(store.id, storeIds)})`),
    exists(sql`(select 1 from ${productStore} where ${productStore.productId} = ${productId} and ${inArray(productStore.storeId, storeIds)})`),
    notExists(any),
  )!;
}

/**
 * The same rule on a query over the product table itself, read from product.store_ids (kept equal
 * to the product's product_store rows by triggers): a test on the row, no probe per row, so a page
 * or a count of 100,000 products is one index-only scan of product_list_idx.
 */
export function productRowVisible(storeIds: number[]): SQL {
  if (!storeIds.length) return sql`cardinality(${product.storeIds}) = 0`;
  const ids = sql`${pgArray(storeIds.map((n) => Math.trunc(n)))}::int[]`;
  return or(
    notExists(sql`(select 1 from ${store} where ${notInArray(store.id, storeIds)})`),
    sql`cardinality(${product.storeIds}) = 0`,
    sql`${product.storeIds} && ${ids}`,
  )!;
}

/** Users are scoped through user_store the same way: sharing a store with the caller, or in no store. */
export function userVisible(userId: PgColumn | SQL, storeIds: number[]): SQL {
  const any = sql`(select 1 from ${userStore} where ${userStore.userId} = ${userId})`;
  if (!storeIds.length) return notExists(any);
  return or(
    exists(sql`(select 1 from ${userStore} where ${userStore.userId} = ${userId} and ${inArray(userStore.storeId, storeIds)})`),
    notExists(any),
  )!;
}

/** Ids among `ids` that exist and that the caller may see through the definition's scope. */
export async function visibleIds(db: Db | Tx, def: Pick<ResourceDef, 'table' | 'scope'>, ids: number[], ctx: ResourceCtx): Promise<Set<number>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Set();
  const scope = def.scope?.({ ...ctx, db: db as Db });
  const where = scope ? and(inIds(def.table.id, unique), scope) : inIds(def.table.id, unique);
  const rows = await (db as Db).select({ id: def.table.id }).from(def.table as any).where(where);
  return new Set(rows.map((r: any) => r.id as number));
}

/** 422 "'Category' with ID '9' not found" for the first id that is missing or out of the caller's stores. */
export async function assertVisible(db: Db | Tx, def: Pick<ResourceDef, 'table' | 'scope'>, ids: number[] | number, ctx: ResourceCtx, propertyPath: string, label: string) {
  const list = Array.isArray(ids) ? ids : [ids];
  const found = await visibleIds(db, def, list, ctx);
  const i = list.findIndex((id) => !found.has(id));
  if (i >= 0) {
    const path = Array.isArray(ids) ? `${propertyPath}[${i}]` : propertyPath;
    throw validationError([{ propertyPath: path, message: `'${label}' with ID '${list[i]}' not found` }]);
  }
}

export interface LinkTable extends PgTable {
  productId: PgColumn;
  otherId: PgColumn;
}

/**
 * Replaces a product's links (categories, brands, ...) with `next`, leaving alone links to rows
 * the caller cannot see (another store's category stays attached).
 */
export async function replaceLinks(tx: Tx, link: LinkTable, productId: number, next: number[], isVisible: (ids: number[]) => Promise<Set<number>>) {
  const rows: { otherId: number }[] = await (tx as any).select({ otherId: link.otherId }).from(link).where(eq(link.productId, productId));
  const existing = rows.map((r) => r.otherId);
  const wanted = new Set(next);
  const visible = await isVisible(existing);
  const drop = existing.filter((id) => visible.has(id) && !wanted.has(id));
  const add = [...wanted].filter((id) => !existing.includes(id));
  if (drop.length) await (tx as any).delete(link).where(and(eq(link.productId, productId), inArray(link.otherId, drop)));
  if (add.length) await (tx as any).insert(link).values(add.map((otherId) => ({ productId, otherId })));
  return drop.length > 0 || add.length > 0;
}

/**
 * Issue 26.4 for barcodes of no declared type (variant and extra barcodes): a claimed code with the
 * shape of an EAN-8, UPC-A or EAN-13 (8, 12 or 13 digits) must carry its GS1 check digit, in-store
 * codes (13 digits, prefix 2) excepted: 422 on each claim's path with the digit it should end in.
 * Codes in `kept` (already stored on the rows written, maybe before this rule) are not checked.
 */
export function assertCheckDigits(claims: BarcodeClaim[], kept: ReadonlySet<string | null> = new Set()): void {
  const wrong = claims.flatMap((c) => {
    const problem = kept.has(c.code) ? null : gs1ShapeProblem(c.code);
    return problem ? [{ propertyPath: c.propertyPath, message: problem.message }] : [];
  });
  if (wrong.length) throw validationError(wrong);
}

export interface BarcodeClaim {
  code: string;
  propertyPath: string;
}

/**
 * Barcodes are unique across product.barcode, product_variant.barcode and the barcode table, so a
 * scan always resolves to one thing. `own` names the rows being written (they may keep their codes).
 * Also rejects the same code twice in one request.
 */
export async function assertBarcodesFree(db: Db | Tx, claims: BarcodeClaim[], own: { productId?: number; variantIds?: number[]; barcodeId?: number } = {}) {
  const seen = new Map<string, string>();
  const violations: { propertyPath: string; message: string }[] = [];
  for (const c of claims) {
    if (seen.has(c.code)) violations.push({ propertyPath: c.propertyPath, message: BARCODE_USED });
    else seen.set(c.code, c.propertyPath);
  }
  const codes = [...seen.keys()];
  if (codes.length) {
    const d = db as Db;
    const taken = new Set<string>();
    const ps = await d.select({ id: product.id, code: product.barcode }).from(product).where(inArray(product.barcode, codes));
    for (const p of ps) if (p.id !== own.productId && p.code) taken.add(p.code);
    const vs = await d.select({ id: productVariant.id, code: productVariant.barcode }).from(productVariant).where(inArray(productVariant.barcode, codes));
    for (const v of vs) if (!own.variantIds?.includes(v.id) && v.code) taken.add(v.code);
    const bs = await d.select({ id: barcodeTable.id, code: barcodeTable.barcode }).from(barcodeTable).where(inArray(barcodeTable.barcode, codes));
    for (const b of bs) if (b.id !== own.barcodeId) taken.add(b.code);
    for (const [code, path] of seen) if (taken.has(code)) violations.push({ propertyPath: path, message: BARCODE_USED });
  }
  if (violations.length) throw validationError(violations);
}

/** True for a PostgreSQL unique violation (also when wrapped by Drizzle). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === '23505' || err?.cause?.code === '23505';
}

/** True for a PostgreSQL foreign-key violation (also when wrapped by Drizzle). */
export function isForeignKeyViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === '23503' || err?.cause?.code === '23503';
}

/**
 * Visibility rules of the catalogue entities, usable without importing the resource definitions
 * (which would make import cycles): {table, scope} pairs for visibleIds / assertVisible.
 */
export const scopes = {
  product: { table: product, scope: (ctx: ResourceCtx) => productVisible(product.id, ctx.auth.storeIds) },
  variant: { table: productVariant, scope: (ctx: ResourceCtx) => productVisible(productVariant.productId, ctx.auth.storeIds) },
  category: { table: category, scope: storeLinkScope(categoryStore, category.id) },
  brand: { table: brand, scope: storeLinkScope(brandStore, brand.id) },
  supplier: { table: supplier, scope: storeLinkScope(supplierStore, supplier.id) },
  tax: { table: tax, scope: storeLinkScope(taxStore, tax.id) },
  terminal: { table: terminal, scope: storeColumnScope(terminal.storeId) },
  department: { table: department, scope: storeColumnScope(department.storeId) },
  /** An admin sees the users of their stores; anyone else only themselves. */
  user: { table: userAccount, scope: (ctx: ResourceCtx) => (can(ctx.auth, 'users') ? userVisible(userAccount.id, ctx.auth.storeIds) : eq(userAccount.id, ctx.auth.userId)) },
} satisfies Record<string, Pick<ResourceDef, 'table' | 'scope'>>;

/**
 * `schema`, or null (also for '' when blankToNull), or absent. Unlike z.union([z.null(), schema]),
 * the inner schema's own messages reach the client (a failed union only says "Invalid input").
 */
export const orNull = <T extends z.ZodType>(schema: T, blankToNull = true) =>
  z.unknown().transform((v, ctx): z.output<T> | null | undefined => {
    if (v === undefined) return undefined;
    if (v === null || (blankToNull && v === '')) return null;
    const r = schema.safeParse(v);
    if (!r.success) {
      for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] });
      return z.NEVER;
    }
    return r.data;
  }).optional();

/** Optional decimal ('' and null = none) with the spec messages. */
export const optDecimal = (opts: { min?: number; positive?: boolean } = {}) => orNull(decimal(opts));
/** Optional trimmed text (null allowed) with 'This value is too long.' */
export const optText = (max = 255) => orNull(z.string({ error: 'This value should be of type string.' }).trim().max(max, TOO_LONG), false);

/**
 * A list of references that may mix ids, id strings ("1"), IRIs and {id}/{@id}/{value} objects, as
 * the client sends them. Bad items are reported at [i]; `minMessage` when the list is empty.
 * null stays null (the terminal rule treats it as "not given").
 */
export const refsField = (minMessage?: string) =>
  z.unknown().transform((v, ctx): number[] | null | undefined => {
    if (v === undefined) return undefined;
    if (v === null) {
      if (minMessage) { ctx.addIssue({ code: 'custom', message: minMessage }); return z.NEVER; }
      return null;
    }
    if (!Array.isArray(v)) { ctx.addIssue({ code: 'custom', message: 'This value should be of type array.' }); return z.NEVER; }
    const out: number[] = [];
    v.forEach((item, i) => {
      const id = parseRef(item);
      if (id == null) ctx.addIssue({ code: 'custom', message: 'This value is not a valid reference.', path: [i] });
      else out.push(id);
    });
    if (minMessage && v.length === 0) ctx.addIssue({ code: 'custom', message: minMessage });
    return [...new Set(out)];
  }).optional();

/**
 * `col IN ids` that stays one bind parameter for long lists (PostgreSQL allows 65535 parameters;
 * a terminal edit may send every product id).
 */
export function inIds(col: PgColumn | SQL, ids: number[]): SQL {
  if (ids.length <= 1000) return inArray(col as PgColumn, ids);
  const literal = pgArray(ids.filter((n) => Number.isInteger(n)));
  return sql`${col} = any(${literal}::int[])`;
}

/** Stock quantities stay below 10^12 so exact milli arithmetic (@pos/domain/money) never overflows. */
export const MAX_QUANTITY = 1e12;
export const QUANTITY_TOO_LARGE = `This value should be less than ${MAX_QUANTITY}.`;
export const stockQty = (opts: { min?: number } = {}) =>
  orNull(decimal(opts).refine((s) => Math.abs(Number(s)) < MAX_QUANTITY, { message: QUANTITY_TOO_LARGE }));

/** Canonical text of a decimal string ('012.50' -> '12.5', '-0' -> '0'), for exact comparisons. */
export function canonicalDecimal(v: string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const m = /^([+-]?)0*(\d*)(?:\.(\d*?)0*)?$/.exec(v.trim());
  if (!m) return v.trim();
  const int = m[2] || '0';
  const frac = m[3] ?? '';
  const body = frac ? `${int}.${frac}` : int;
  return m[1] === '-' && body !== '0' ? `-${body}` : body;
}
