import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Column, and, asc, desc, eq, inArray, is, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ZodType } from 'zod';
import { notFound, validationError } from '@pos/domain/errors';
import type { Db, Tx } from '../db/client.ts';
import { allOn } from '../db/concurrent.ts';
import { caller, type Access, type AuthInfo } from '../plugins/auth.ts';
import { fromZod } from '../plugins/errors.ts';
import { pageByPositions, type ListOrder } from './position-index.ts';
import { audit, changed } from '../lib/audit.ts';

/**
 * The generic list/item engine. A plain resource is a short ResourceDef; the engine gives it the
 * hydra envelope, IRIs, paging, sorting, filters, junk-parameter tolerance, partial PUT, store
 * scoping and the access rule of each operation.
 */
export interface ResourceCtx {
  db: Db;
  auth: AuthInfo;
}

/** `name`: the query parameter, for a 422 naming it (search.ts). */
export type FilterFn = (value: string | string[], ctx: ResourceCtx, name?: string) => SQL | undefined;

export interface ResourceDef<Row extends { id: number } = any> {
  /** URL segment under /api, e.g. "taxes". */
  path: string;
  /** JSON-LD @type, e.g. "Tax". */
  type: string;
  table: PgTable & { id: PgColumn };
  /** Query parameter (dotted, as the client sends it) -> condition. */
  filters?: Record<string, FilterFn>;
  /** Sort key -> column or expression. Keys are matched with '_' and '.' treated alike. */
  sorts?: Record<string, PgColumn | SQL>;
  /** Rows the caller may see at all (store scoping). A row outside is a 404. */
  scope?: (ctx: ResourceCtx) => SQL | undefined;
  /** Turn rows into wire objects (batch-load relations here). */
  present: (rows: Row[], ctx: ResourceCtx) => Promise<Record<string, unknown>[]>;
  /**
   * Lists filtered only on these parameters (besides the store scope), in id order or sorted
   * ascending by one of `sorts` (NOT NULL text columns), page through the position index
   * (position-index.ts). Only for columns the list_version triggers watch.
   */
  positionIndex?: { filters: string[]; sorts?: string[] };
  /**
   * Presents straight from ids (in that order) as a JSON array text whose members carry their
   * '@id' and '@type', for presenters that read everything themselves: a list skips reading the
   * rows, and the list route sends the text untouched.
   */
  presentIdsJson?: (ids: number[], ctx: ResourceCtx) => Promise<string>;
  access?: { read?: Access; write?: Access };
  create?: { schema: ZodType; run: (tx: Tx, input: any, ctx: ResourceCtx) => Promise<number> };
  /** `schema` should accept partial bodies: PUT merges, absent fields keep their value. */
  update?: { schema: ZodType; run: (tx: Tx, id: number, input: any, ctx: ResourceCtx) => Promise<void> };
  remove?: (tx: Tx, id: number, ctx: ResourceCtx) => Promise<void>;
  /** Extra item routes are registered by modules; this only covers CRUD. */
}

/** The permission a resource's writes need when its definition does not say (issue 21.1). */
const WRITE_PERMISSION: Record<string, Access> = {
  products: 'products.manage', product_variants: 'products.manage', barcodes: 'products.manage', brands: 'products.manage',
  categories: 'products.manage', departments: 'products.manage', discounts: 'products.manage', taxes: 'products.manage',
  suppliers: 'purchasing', stores: 'settings', terminals: 'settings', devices: 'settings', payments: 'settings', settings: 'settings',
};

/** Fields the server owns; clients send them back on PUT and they are ignored. */
const READ_ONLY = ['@id', '@type', '@context', 'id', 'uuid', 'createdAt', 'updatedAt', 'deletedAt'];

const MAX_PAGE_SIZE = 10_000;

/** How many pages past the asked one a list's total is counted (docs/api.md, issue 30.2). */
export const PAGES_AHEAD = 10;

/**
 * The most a list counts for its total (undefined: exact, when only the total or the whole list is asked for); a
 * total above it is reported as cap + 1, "more than": the pager shows PAGES_AHEAD pages ahead and
 * grows as the user pages on.
 */
export function countCap(offset: number, itemsPerPage: number): number | undefined {
  // A list asked for whole (no paging: up to MAX_PAGE_SIZE) keeps its exact total, which a reader
  // following the pages relies on.
  return itemsPerPage > 0 && itemsPerPage < MAX_PAGE_SIZE ? offset + PAGES_AHEAD * itemsPerPage : undefined;
}

/**
 * The total a page already tells: a page shorter than asked (and not past the end) is the whole
 * rest of the list, so no count statement is needed (issue 30.1); undefined when it does not tell.
 */
export function shortPageTotal(offset: number, itemsPerPage: number, rows: number): number | undefined {
  return itemsPerPage > 0 && rows < itemsPerPage && (rows > 0 || offset === 0) ? offset + rows : undefined;
}

export function isJunk(key: string, value: unknown): boolean {
  if (!key) return true;
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.every((v) => isJunk(key, v));
  const s = String(value);
  return s === '' || s === 'undefined' || s === 'null';
}

export interface ListQuery {
  page: number;
  itemsPerPage: number;
  filters: Map<string, string | string[]>;
  order: { key: string; dir: 'asc' | 'desc' }[];
}

/** Reads page, itemsPerPage, order[x], and filters; drops the junk the old client sends. */
export function parseListQuery(query: Record<string, unknown>, defaults: { itemsPerPage?: number } = {}): ListQuery {
  const filters = new Map<string, string | string[]>();
  const order: ListQuery['order'] = [];
  let page = 1;
  let itemsPerPage: number | undefined;
  for (const [rawKey, rawValue] of Object.entries(query ?? {})) {
    if (isJunk(rawKey, rawValue)) continue;
    const orderMatch = /^order\[(.+)\]$/.exec(rawKey);
    if (orderMatch) {
      const dir = String(Array.isArray(rawValue) ? rawValue[0] : rawValue).toLowerCase();
      if (dir === 'asc' || dir === 'desc') order.push({ key: orderMatch[1], dir });
      continue;
    }
    if (rawKey === 'page') {
      const n = Number(rawValue);
      // A page far past the end is just an empty page (and keeps OFFSET within bigint).
      if (Number.isInteger(n) && n >= 1) page = Math.min(n, 2147483647);
      continue;
    }
    if (rawKey === 'itemsPerPage' || rawKey === 'limit') {
      const n = Number(rawValue);
      if (Number.isInteger(n) && n >= 0) itemsPerPage = Math.min(Math.max(itemsPerPage ?? 0, n), MAX_PAGE_SIZE);
      continue;
    }
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    const value = Array.isArray(rawValue) ? rawValue.map(String).filter((v) => !isJunk(key, v)) : String(rawValue);
    filters.set(key, value);
  }
  // No paging asked for: a reference list (taxes, discounts...) comes whole, up to the cap.
  const size = itemsPerPage ?? ('page' in (query ?? {}) ? (defaults.itemsPerPage ?? 10) : MAX_PAGE_SIZE);
  return { page, itemsPerPage: size, filters, order };
}

const norm = (k: string) => k.replace(/_/g, '.');

export function iriOf(def: Pick<ResourceDef, 'path'>, id: number) {
  return `/api/${def.path}/${id}`;
}

export function withLd(def: Pick<ResourceDef, 'path' | 'type'>, obj: Record<string, unknown>) {
  return { '@id': iriOf(def, obj.id as number), '@type': def.type, ...obj };
}

/** Runs a list query for a definition: used by the engine and by modules that reuse filters. */
export async function listResource(def: ResourceDef, q: ListQuery, ctx: ResourceCtx) {
  const { ids, total } = await listIds(def, q, ctx);
  if (def.presentIdsJson) return { members: JSON.parse(await def.presentIdsJson(ids, ctx)) as Record<string, unknown>[], total };
  const db = ctx.db as any;
  let rows: any[] = [];
  if (ids.length) {
    const byId = new Map<number, any>();
    for (const r of await db.select().from(def.table).where(inArray(def.table.id, ids))) byId.set(r.id, r);
    // A row deleted between the two reads is simply left out.
    rows = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  }
  const members = (await def.present(rows, ctx)).map((m) => withLd(def, m));
  return { members, total };
}

/** The total and the ids of the asked page, in order (filters, scope, sorting, paging). */
export async function listIds(def: ResourceDef, q: ListQuery, ctx: ResourceCtx): Promise<{ ids: number[]; total: number }> {
  const conds: SQL[] = [];
  const scope = def.scope?.(ctx);
  if (scope) conds.push(scope);
  /** The filters that took effect: they name the list in the position index. */
  const applied: { name: string; value: string | string[] }[] = [];
  for (const [key, value] of q.filters) {
    // Own keys only: `?toString=0` must not find Object.prototype.toString.
    const filters = def.filters ?? {};
    const name = Object.hasOwn(filters, key) ? key : Object.hasOwn(filters, norm(key)) ? norm(key) : undefined;
    if (!name) continue; // unknown parameters are ignored, like API Platform
    const c = filters[name](value, ctx, key);
    if (c) { conds.push(c); applied.push({ name, value }); }
  }
  const where = conds.length ? and(...conds) : undefined;
  const orderBy: SQL[] = [];
  const sorted: { key: string; dir: 'asc' | 'desc'; by: PgColumn | SQL }[] = [];
  for (const o of q.order) {
    const entry = Object.entries(def.sorts ?? {}).find(([k]) => norm(k) === norm(o.key));
    if (!entry) continue;
    orderBy.push(o.dir === 'asc' ? asc(entry[1] as PgColumn) : desc(entry[1] as PgColumn));
    sorted.push({ key: entry[0], dir: o.dir, by: entry[1] });
  }
  orderBy.push(asc(def.table.id));
  const db = ctx.db as any;
  const positions = def.positionIndex;
  const indexed = !!positions && applied.every((a) => positions.filters.includes(a.name));
  // Orders the position index can page: by id, or by one of its text columns ascending (then id).
  let order: ListOrder | null = null;
  if (!sorted.length) order = { by: 'id' };
  else if (sorted.length === 1 && sorted[0].dir === 'asc' && positions?.sorts?.includes(sorted[0].key) && is(sorted[0].by, Column)) {
    order = { by: sorted[0].by as PgColumn, name: sorted[0].key };
  }
  const key = `${def.path}|stores=${ctx.auth.storeIds.join(',')}|${applied.map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort().join('&')}`;
  const offset = (q.page - 1) * q.itemsPerPage;
  let paged: { total: number; ids: number[] } | null = null;
  if (indexed && order && q.itemsPerPage > 0) {
    paged = await pageByPositions(ctx.db, def.table, order, where, order.by === 'id' ? key : `${key}|order=${order.name}`, offset, q.itemsPerPage);
  }
  // Counted only as far as the pager looks (issue 30.2): up to PAGES_AHEAD pages past this one; more
  // is reported as that + 1 ("more than"), so a search per keystroke never counts a whole table.
  // itemsPerPage=0 asks for the total alone: counted exactly.
  const cap = countCap(offset, q.itemsPerPage);
  // The capped count of a search walks the rows in id order, as its page does: for a common word
  // the primary key reaches cap + 1 matches within a few thousand rows, where the trigram index
  // would first read the whole posting lists (7-25 ms at 1M products); a rare word is estimated
  // rare and still goes through the index (issue 30.1).
  const countAll = () => cap === undefined
    ? db.select({ count: sql<number>`count(*)::int` }).from(def.table).where(where)
    : db.select({ count: sql<number>`count(*)::int` }).from(db.select({ one: sql`1` }).from(def.table).where(where)
      .orderBy(...(applied.length ? [asc(def.table.id)] : [])).limit(cap + 1).as('capped'));
  // Otherwise the count (from the position index when the filters allow: the total does not depend
  // on the order) and the page's ids at once (two connections on the pool; in a transaction one
  // after the other, db/concurrent.ts). The page is found by id alone, so a deep page walks a narrow
  // index (index-only where the table has a covering one, e.g. product_name_idx) instead of fetching
  // every skipped row; then only the page's rows are read.
  if (paged) return { ids: paged.ids, total: paged.total };
  const counted = () => (indexed ? pageByPositions(ctx.db, def.table, { by: 'id' }, where, key, 0, 0).then((r) => (r ? [{ count: r.total }] : countAll())) : countAll());
  const pageOf = () => db.select({ id: def.table.id }).from(def.table).where(where).orderBy(...orderBy).limit(q.itemsPerPage).offset(offset);
  if (q.itemsPerPage === 0) { const [{ count }] = await counted(); return { ids: [], total: Number(count) }; }
  if (!applied.length || indexed) {
    const [[{ count }], pageIds] = await allOn<[{ count: number }[], { id: number }[]]>(db, [counted, pageOf]);
    return { ids: pageIds.map((r) => r.id), total: Number(count) };
  }
  // A filtered list (a search...) reads its page first: a page shorter than asked, and not past
  // the end, is the whole rest of the list, so its total is known without the count statement
  // (issue 30.1: a search matching a few rows costs one statement, not two).
  const pageIds = (await pageOf() as { id: number }[]).map((r) => r.id);
  const known = shortPageTotal(offset, q.itemsPerPage, pageIds.length);
  if (known !== undefined) return { ids: pageIds, total: known };
  const [{ count }] = await counted();
  return { ids: pageIds, total: Number(count) };
}

export function hydraCollection(def: Pick<ResourceDef, 'path' | 'type'>, members: unknown[], total: number, q?: ListQuery) {
  const body: Record<string, unknown> = {
    '@context': `/api/contexts/${def.type}`,
    '@id': `/api/${def.path}`,
    '@type': 'hydra:Collection',
    'hydra:member': members,
    'hydra:totalItems': total,
  };
  if (q && q.itemsPerPage > 0) {
    const last = Math.max(1, Math.ceil(total / q.itemsPerPage));
    const at = (p: number) => `/api/${def.path}?page=${p}`;
    body['hydra:view'] = {
      '@id': at(q.page), '@type': 'hydra:PartialCollectionView',
      'hydra:first': at(1), 'hydra:last': at(last),
      ...(q.page > 1 ? { 'hydra:previous': at(q.page - 1) } : {}),
      ...(q.page < last ? { 'hydra:next': at(q.page + 1) } : {}),
    };
  }
  return body;
}

/** Loads one row the caller may see, presented; 404 otherwise. */
export async function getResource(def: ResourceDef, id: number, ctx: ResourceCtx) {
  const scope = def.scope?.(ctx);
  const where = scope ? and(eq(def.table.id, id), scope) : eq(def.table.id, id);
  const rows = await (ctx.db as any).select().from(def.table).where(where).limit(1);
  if (!rows.length) throw notFound(`${def.type} not found`);
  const [obj] = await def.present(rows, ctx);
  return { '@context': `/api/contexts/${def.type}`, ...withLd(def, obj) };
}

export function parseId(raw: unknown): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0 || n > 2147483647) throw notFound('Not Found');
  return n;
}

export function stripReadOnly(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError([{ propertyPath: '', message: 'The request body should be a JSON object.' }]);
  }
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const k of READ_ONLY) delete out[k];
  return out;
}

export function parseBody<T>(schema: ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) throw fromZod(r.error);
  return r.data;
}

function ctxOf(app: FastifyInstance, request: FastifyRequest): ResourceCtx {
  return { db: app.db, auth: caller(request) };
}

/** Stands in the envelope for members spliced in as JSON text. */
const MEMBERS = '\u0000members\u0000';

/**
 * The audit entry of a resource write (issue 21.4), in the write's transaction: the record as it
 * is presented, before and after (only the fields that changed on an update).
 */
async function auditWrite(tx: Tx, def: ResourceDef, ctx: ResourceCtx, id: number, what: 'created' | 'updated' | 'deleted', before: Record<string, unknown> | null) {
  const after = what === 'deleted' ? null : await getResource(def, id, { ...ctx, db: tx as unknown as Db });
  const entity = def.type.charAt(0).toLowerCase() + def.type.slice(1);
  const d = before && after ? changed(before, after) : { before, after };
  if (what === 'updated' && !Object.keys(d.after ?? {}).length) return;
  const store = ((after ?? before) as Record<string, unknown> | null)?.store as { id?: number } | undefined;
  await audit(tx, { action: `${entity}.${what}`, actor: ctx.auth, entity, entityId: id, storeId: typeof store?.id === 'number' ? store.id : null, before: d.before, after: d.after });
}

/** Registers GET list, GET item, POST, PUT/PATCH and DELETE for a definition. */
export function registerResource(app: FastifyInstance, def: ResourceDef) {
  const read: Access = def.access?.read ?? 'user';
  const write: Access = def.access?.write ?? WRITE_PERMISSION[def.path] ?? 'settings';
  const base = `/api/${def.path}`;
  const tags = [def.type];

  app.get(base, { config: { auth: read }, schema: { tags, summary: `List ${def.type}` } }, async (request, reply) => {
    const q = parseListQuery(request.query as Record<string, unknown>);
    const ctx = ctxOf(app, request);
    if (def.presentIdsJson) {
      // The members arrive as JSON text built by the database: spliced into the envelope as they are.
      const { ids, total } = await listIds(def, q, ctx);
      const members = await def.presentIdsJson(ids, ctx);
      const envelope = JSON.stringify(hydraCollection(def, [MEMBERS], total, q));
      return reply.type('application/json; charset=utf-8').send(envelope.replace(`[${JSON.stringify(MEMBERS)}]`, () => members));
    }
    const { members, total } = await listResource(def, q, ctx);
    return hydraCollection(def, members, total, q);
  });

  app.get(`${base}/:id`, { config: { auth: read }, schema: { tags, summary: `Get ${def.type}` } }, async (request) => {
    return getResource(def, parseId((request.params as any).id), ctxOf(app, request));
  });

  if (def.create) {
    const create = def.create;
    app.post(base, { config: { auth: write }, schema: { tags, summary: `Create ${def.type}` } }, async (request, reply) => {
      const ctx = ctxOf(app, request);
      const input = parseBody(create.schema, stripReadOnly(request.body));
      const id = await app.db.transaction(async (tx) => {
        const id = await create.run(tx, input, ctx);
        await auditWrite(tx, def, ctx, id, 'created', null);
        return id;
      });
      reply.status(201);
      return getResource(def, id, ctx);
    });
  }

  if (def.update) {
    const update = def.update;
    const handler = async (request: FastifyRequest) => {
      const ctx = ctxOf(app, request);
      const id = parseId((request.params as any).id);
      await getResource(def, id, ctx); // 404 when missing or out of the caller's stores
      const input = parseBody(update.schema, stripReadOnly(request.body));
      await app.db.transaction(async (tx) => {
        const before = await getResource(def, id, { ...ctx, db: tx as unknown as Db });
        await update.run(tx, id, input, ctx);
        await auditWrite(tx, def, ctx, id, 'updated', before);
      });
      return getResource(def, id, ctx);
    };
    app.put(`${base}/:id`, { config: { auth: write }, schema: { tags, summary: `Update ${def.type} (merge)` } }, handler);
    app.patch(`${base}/:id`, { config: { auth: write }, schema: { tags, summary: `Update ${def.type} (merge)` } }, handler);
  }

  if (def.remove) {
    const remove = def.remove;
    app.delete(`${base}/:id`, { config: { auth: write }, schema: { tags, summary: `Delete ${def.type}` } }, async (request) => {
      const ctx = ctxOf(app, request);
      const id = parseId((request.params as any).id);
      const before = await getResource(def, id, ctx);
      await app.db.transaction(async (tx) => {
        await remove(tx, id, ctx);
        await auditWrite(tx, def, ctx, id, 'deleted', before);
      });
      return { '@id': iriOf(def, id), deleted: true };
    });
  }
}
