import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { BLANK } from '@pos/domain/wire-fields';
import { notFound, validationError } from '@pos/domain/errors';
import { product, productStore, productVariant, productVariantStore, terminal, userAccount } from '../../db/schema/index.ts';
import { caller, assertStoreAccess } from '../../plugins/auth.ts';
import { countCap, hydraCollection, isJunk, parseBody, parseId, parseListQuery, shortPageTotal, stripReadOnly, type ResourceCtx } from '../../resources/engine.ts';
import { searchCondition, searchText, textMatch } from '../../resources/search.ts';
import { productVariantsResource } from './product-variants.resource.ts';
import { num } from '../../lib/present.ts';
import { parseRef } from '@pos/domain/wire-fields';
import { inIds, scopes } from './shared.ts';
import { createTerminal, deleteTerminal, getTerminalDto, presentTerminalDtos, terminalBody, terminalUpdateBody, updateTerminal } from './terminals.service.ts';
import { createUser, deleteUser, getUserDto, presentUserDtos, updateUser, userCreateBody, userUpdateBody } from './users.service.ts';
import { exportProducts } from './product-csv.export.ts';
import { importProducts } from './product-csv.import.ts';
import { loadLookups, templateRows } from './product-csv.common.ts';
import { parseMapping } from './product-csv.columns.ts';
import { formatRow } from '../../lib/csv.ts';
import { presentVariant } from './products.presenter.ts';

/** Imports must be smaller than 50 MB (a file of 50 MB or more is refused with 422). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

type Query = Record<string, unknown>;
const q1 = (q: Query, key: string): string | undefined => {
  const v = q[key];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === null || isJunk(key, s) ? undefined : String(s);
};
const qInt = (q: Query, key: string): number | undefined => {
  const s = q1(q, key);
  if (s === undefined) return undefined;
  const id = parseRef(s);
  return typeof id === 'number' ? id : -1;
};

/** limit/offset (custom lists) or page/itemsPerPage (tables); everything when neither is given. */
function paging(q: Query, max = 1_000_000) {
  const lim = Number(q1(q, 'limit') ?? q1(q, 'itemsPerPage'));
  const limit = Number.isInteger(lim) && lim >= 0 ? Math.min(lim, max) : max;
  const off = Number(q1(q, 'offset'));
  const page = Number(q1(q, 'page'));
  const offset = Number.isInteger(off) && off >= 0 ? off : Number.isInteger(page) && page >= 1 && limit < max ? (page - 1) * limit : 0;
  return { limit, offset };
}

function listOrder(q: Query, columns: Record<string, any>, fallback: any) {
  const key = q1(q, 'orderBy');
  const mode = (q1(q, 'orderMode') ?? 'ASC').toUpperCase() === 'DESC' ? desc : asc;
  const col = key && Object.hasOwn(columns, key) ? columns[key] : fallback;
  return [mode(col), asc(fallback)];
}

/**
 * Catalogue operations that are not plain resources: terminal and user create/edit (reference
 * 2.12), product keywords / quantities / CSV export and import (2.3). Plain CRUD is in
 * modules/catalogue/*.resource.ts. Reads need a signed-in user; writes the permission of their area (terminals: settings, users: users, products: products.manage).
 */
export default async function catalogueRoutes(app: FastifyInstance) {
  const ctxOf = (request: FastifyRequest): ResourceCtx => ({ db: app.db, auth: caller(request) });
  const user = { config: { auth: 'user' as const } };
  const settings = { config: { auth: 'settings' as const } };
  const users = { config: { auth: 'users' as const } };
  const products = { config: { auth: 'products.manage' as const } };

  // ---- Terminals ------------------------------------------------------------------------------
  const tTags = { tags: ['Terminal'] };
  app.get('/api/admin/terminal/list', { ...user, schema: { ...tTags, summary: 'Terminals: {list, total, count}' } }, async (request) => {
    const q = request.query as Query;
    const ctx = ctxOf(request);
    const conds: SQL[] = [scopes.terminal.scope(ctx)];
    const id = qInt(q, 'id');
    if (id !== undefined) conds.push(eq(terminal.id, id));
    const code = q1(q, 'code');
    if (code) conds.push(eq(terminal.code, code));
    const description = q1(q, 'description');
    if (description) conds.push(searchCondition(terminal.description, description, 'description')!);
    const text = q1(q, 'q');
    if (text) conds.push(searchCondition(terminal.code, text, 'q')!);
    const active = q1(q, 'isActive');
    if (active === 'true' || active === '1') conds.push(eq(terminal.isActive, true));
    if (active === 'false' || active === '0') conds.push(eq(terminal.isActive, false));
    const storeId = qInt(q, 'store') ?? qInt(q, 'store.id');
    if (storeId !== undefined) conds.push(eq(terminal.storeId, storeId));
    const where = and(...conds);
    const { limit, offset } = paging(q);
    const [{ total }] = await app.db.select({ total: sql<number>`count(*)::int` }).from(terminal).where(where);
    const rows = await app.db.select().from(terminal).where(where).orderBy(...listOrder(q, { id: terminal.id, code: terminal.code }, terminal.id)).limit(limit).offset(offset);
    const list = await presentTerminalDtos(app.db, rows, ctx);
    return { list, total: Number(total), count: list.length };
  });

  app.post('/api/admin/terminal/create', { ...settings, schema: { ...tTags, summary: 'Create a terminal with its product assignment: {terminal}' } }, async (request) => {
    const ctx = ctxOf(request);
    const input = parseBody(terminalBody, stripReadOnly(request.body));
    const id = await app.db.transaction((tx) => createTerminal(tx, input, ctx));
    return { terminal: await getTerminalDto(app.db, id, ctx) };
  });

  app.get('/api/admin/terminal/:id', { ...user, schema: { ...tTags, summary: 'A terminal: {terminal}' } }, async (request) => {
    return { terminal: await getTerminalDto(app.db, parseId((request.params as any).id), ctxOf(request)) };
  });

  app.put('/api/admin/terminal/:id', { ...settings, schema: { ...tTags, summary: 'Update a terminal (merge; id from the URL): {terminal}' } }, async (request) => {
    const ctx = ctxOf(request);
    const id = parseId((request.params as any).id);
    await getTerminalDto(app.db, id, ctx);
    const input = parseBody(terminalUpdateBody, stripReadOnly(request.body));
    await app.db.transaction((tx) => updateTerminal(tx, id, input, ctx));
    return { terminal: await getTerminalDto(app.db, id, ctx) };
  });

  app.delete('/api/admin/terminal/:id', { ...settings, schema: { ...tTags, summary: 'Delete a terminal without sales' } }, async (request) => {
    const ctx = ctxOf(request);
    const id = parseId((request.params as any).id);
    await getTerminalDto(app.db, id, ctx);
    await app.db.transaction((tx) => deleteTerminal(tx, id));
    return { '@id': `/api/terminals/${id}`, deleted: true };
  });

  // ---- Users ----------------------------------------------------------------------------------
  const uTags = { tags: ['User'] };
  app.get('/api/admin/user/list', { ...user, schema: { ...uTags, summary: 'Users: {list, total, count}' } }, async (request) => {
    const q = request.query as Query;
    const ctx = ctxOf(request);
    const conds: SQL[] = [scopes.user.scope(ctx)];
    const displayName = q1(q, 'displayName');
    if (displayName) conds.push(searchCondition(userAccount.displayName, displayName, 'displayName')!);
    const username = q1(q, 'username');
    if (username) conds.push(searchCondition(userAccount.username, username, 'username')!);
    const email = q1(q, 'email');
    if (email) conds.push(searchCondition(userAccount.email, email, 'email')!);
    const text = q1(q, 'q');
    if (text) { const t = searchText(text, 'q'); if (t !== undefined) conds.push(sql`(${textMatch(userAccount.displayName, t)} or ${textMatch(userAccount.username, t)} or ${textMatch(userAccount.email, t)})`); }
    const active = q1(q, 'isActive');
    if (active === 'true' || active === '1') conds.push(eq(userAccount.isActive, true));
    if (active === 'false' || active === '0') conds.push(eq(userAccount.isActive, false));
    const where = and(...conds);
    const { limit, offset } = paging(q);
    const [{ total }] = await app.db.select({ total: sql<number>`count(*)::int` }).from(userAccount).where(where);
    const order = listOrder(q, { displayName: userAccount.displayName, username: userAccount.username, email: userAccount.email, id: userAccount.id }, userAccount.id);
    const rows = await app.db.select().from(userAccount).where(where).orderBy(...order).limit(limit).offset(offset);
    const list = await presentUserDtos(app.db, rows, ctx);
    return { list, total: Number(total), count: list.length };
  });

  app.post('/api/admin/user/create', { ...users, schema: { ...uTags, summary: 'Create a user (password hashed, never returned): {user}' } }, async (request) => {
    const ctx = ctxOf(request);
    const input = parseBody(userCreateBody, stripReadOnly(request.body));
    const id = await createUser(app.db, input, ctx, app.config.bcryptRounds);
    return { user: await getUserDto(app.db, id, ctx) };
  });

  app.get('/api/admin/user/:id', { ...user, schema: { ...uTags, summary: 'A user: {user}' } }, async (request) => {
    return { user: await getUserDto(app.db, parseId((request.params as any).id), ctxOf(request)) };
  });

  app.put('/api/admin/user/:id', { ...users, schema: { ...uTags, summary: 'Update a user (merge; empty password keeps it): {user}' } }, async (request) => {
    const ctx = ctxOf(request);
    const id = parseId((request.params as any).id);
    await getUserDto(app.db, id, ctx);
    const input = parseBody(userUpdateBody, stripReadOnly(request.body));
    await updateUser(app.db, id, input, ctx, app.config.bcryptRounds);
    return { user: await getUserDto(app.db, id, ctx) };
  });

  app.delete('/api/admin/user/:id', { ...users, schema: { ...uTags, summary: 'Delete a user without records' } }, async (request) => {
    const id = parseId((request.params as any).id);
    await deleteUser(app.db, id, ctxOf(request));
    return { '@id': `/api/users/${id}`, deleted: true };
  });

  // ---- Products -------------------------------------------------------------------------------
  const pTags = { tags: ['Product'] };

  /** Product picker list: active products only, {list:[{@id, id, name, barcode, variants...}], total, count}. */
  app.get('/api/admin/product/keywords', { ...user, schema: { ...pTags, summary: 'Active products for pickers: {list}' } }, async (request) => {
    const q = request.query as Query;
    const ctx = ctxOf(request);
    const conds: SQL[] = [scopes.product.scope(ctx), eq(product.isActive, true)];
    const name = q1(q, 'name') ?? q1(q, 'q');
    if (name) { const c = searchCondition(product.name, name, q1(q, 'name') !== undefined ? 'name' : 'q'); if (c) conds.push(c); }
    const itemId = qInt(q, 'itemId');
    if (itemId !== undefined) conds.push(eq(product.id, itemId));
    const rawIds = q['itemIds[]'] ?? q.itemIds;
    if (rawIds !== undefined) {
      const ids = (Array.isArray(rawIds) ? rawIds : [rawIds]).map((v) => parseRef(v)).filter((v): v is number => typeof v === 'number');
      conds.push(ids.length ? inIds(product.id, ids) : sql`false`);
    }
    const variantId = qInt(q, 'variantId');
    if (variantId !== undefined) conds.push(sql`exists (select 1 from ${productVariant} where ${productVariant.productId} = ${product.id} and ${productVariant.id} = ${variantId})`);
    const storeId = qInt(q, 'store');
    if (storeId !== undefined) conds.push(scopes.product.scope({ ...ctx, auth: { ...ctx.auth, storeIds: ctx.auth.storeIds.includes(storeId) ? [storeId] : [] } }));
    const where = and(...conds);
    const { limit, offset } = paging(q);
    // Counted as far as the pager looks, like every list (engine.ts countCap): a picker searching per keystroke never counts the catalogue.
    const cap = countCap(offset, limit);
    const order = listOrder(q, { id: product.id, name: product.name, basePrice: product.basePrice, cost: product.cost, barcode: product.barcode }, product.id);
    const rows = await app.db.select().from(product).where(where).orderBy(...order).limit(limit).offset(offset);
    const known = shortPageTotal(offset, limit, rows.length);
    const [{ total }] = known !== undefined ? [{ total: known }]
      : await (cap === undefined ? app.db.select({ total: sql<number>`count(*)::int` }).from(product).where(where)
        : app.db.select({ total: sql<number>`count(*)::int` }).from(app.db.select({ one: sql`1` }).from(product).where(where).orderBy(asc(product.id)).limit(cap + 1).as('capped')));
    const ids = rows.map((r) => r.id);
    const variants = ids.length ? await app.db.select().from(productVariant).where(inIds(productVariant.productId, ids)).orderBy(asc(productVariant.id)) : [];
    const variantsBy = new Map<number, (typeof variants)[number][]>();
    for (const v of variants) variantsBy.set(v.productId, [...(variantsBy.get(v.productId) ?? []), v]);
    const list = rows.map((p) => ({
      '@id': `/api/products/${p.id}`, '@type': 'Product', id: p.id, name: p.name, sku: p.sku, barcode: p.barcode,
      basePrice: num(p.basePrice), cost: num(p.cost), quantity: num(p.quantity), purchaseUnit: p.purchaseUnit, saleUnit: p.saleUnit,
      manageInventory: p.manageInventory, isActive: p.isActive,
      variants: (variantsBy.get(p.id) ?? []).map((v) => ({
        '@id': `/api/product_variants/${v.id}`, '@type': 'ProductVariant', id: v.id, name: v.name, attributeName: v.attributeName,
        attributeValue: v.attributeValue, barcode: v.barcode, price: num(v.price), quantity: num(v.quantity),
      })),
    }));
    return { list, total: Number(total), count: list.length };
  });

  /**
   * Stock the till shows per cart line: {quantity} as a number: the product's (with variantId: that
   * variant's, issue 25) stock in `store` (0 when it has no row there); without store: its total
   * over the caller's stores.
   */
  app.get('/api/admin/product/quantities', { ...user, schema: { ...pTags, summary: 'Stock of a product or variant: {quantity}' } }, async (request) => {
    const q = request.query as Query;
    const ctx = ctxOf(request);
    const itemId = qInt(q, 'itemId');
    const variantId = qInt(q, 'variantId');
    if (itemId === undefined && variantId === undefined) throw validationError([{ propertyPath: 'itemId', message: BLANK }]);
    if (variantId !== undefined) {
      const [v] = await app.db.select({ productId: productVariant.productId }).from(productVariant)
        .where(and(eq(productVariant.id, variantId), scopes.variant.scope(ctx)));
      if (!v || (itemId !== undefined && v.productId !== itemId)) throw notFound('Product variant not found');
    }
    const [p] = variantId !== undefined ? [{ id: 0 }] : await app.db.select({ id: product.id }).from(product).where(and(eq(product.id, itemId!), scopes.product.scope(ctx)));
    if (!p) throw notFound('Product not found');
    const storeId = qInt(q, 'store');
    if (storeId !== undefined) assertStoreAccess(ctx.auth, storeId, 'Store not found');
    const stores = storeId !== undefined ? [storeId] : ctx.auth.storeIds;
    if (!stores.length) return { quantity: 0 };
    if (variantId !== undefined) {
      const [row] = await app.db.select({ total: sql<string>`coalesce(sum(${productVariantStore.quantity}), 0)` }).from(productVariantStore)
        .where(and(eq(productVariantStore.variantId, variantId), inArray(productVariantStore.storeId, stores)));
      return { quantity: num(row.total) ?? 0 };
    }
    const [row] = await app.db.select({ total: sql<string>`coalesce(sum(${productStore.quantity}), 0)` }).from(productStore)
      .where(and(eq(productStore.productId, p.id), inArray(productStore.storeId, stores)));
    return { quantity: num(row.total) ?? 0 };
  });

  /** CSV download; opened in a new tab, so the token may come as ?bearer=. Format: product-csv.service.ts. */
  app.get('/api/admin/product/export', { config: { auth: 'products.manage', queryToken: true }, schema: { ...pTags, summary: 'Export products as CSV (token also as ?bearer=)' } }, async (request, reply) => {
    const ctx = ctxOf(request);
    reply.header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="products.csv"')
      .header('cache-control', 'no-store');
    return reply.send(Readable.from(exportProducts(app.db, ctx)));
  });

  /** The import template: every column the caller's file may have and one example product with a variant. */
  app.get('/api/products/import/template', { config: { auth: 'products.manage' }, schema: { ...pTags, summary: 'CSV import template' } }, async (request, reply) => {
    const lk = await loadLookups(app.db, ctxOf(request));
    reply.header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="products-template.csv"')
      .header('cache-control', 'no-store');
    return '\uFEFF' + templateRows(lk.stores).map((r) => formatRow(r)).join('');
  });

  const tooLarge = () => validationError([{ propertyPath: 'file', message: `The file is too large. It must be smaller than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.` }], 'The file is too large; nothing was imported.');
  /** The upload is read as a stream; ?dryRun=1 answers a preview, ?mapping={...} renames columns, ?unknownIds=create copies a catalogue. */
  const importHandler = async (request: FastifyRequest) => {
    const ctx = ctxOf(request);
    const q = request.query as Query;
    const mapping = parseMapping(q1(q, 'mapping'));
    if ('error' in mapping) throw validationError([{ propertyPath: 'mapping', message: String(mapping.error) }]);
    const flag = (key: string, yes = ['1', 'true']) => yes.includes((q1(q, key) ?? '').toLowerCase());
    let part;
    try {
      part = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES - 1, files: 1 } });
    } catch (e: any) {
      if (e?.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw validationError([{ propertyPath: 'file', message: BLANK }]);
      throw e;
    }
    if (!part) throw validationError([{ propertyPath: 'file', message: BLANK }]);
    const file = part.file;
    try {
      const result = await importProducts(app.db, file, ctx, { dryRun: flag('dryRun'), mapping: mapping as Record<string, string>, createUnknown: flag('unknownIds', ['create']) });
      if (file.truncated) throw tooLarge();
      return result;
    } catch (e: any) {
      if (file.truncated || e?.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw e;
    } finally {
      if (!file.readableEnded) file.resume();
    }
  };
  const importOpts = { ...products, schema: { ...pTags, summary: 'Import products from a CSV (multipart field file); all or nothing; ?dryRun=1 previews, ?mapping= renames columns' } };
  app.post('/api/products/import', importOpts, importHandler);
  app.post('/api/admin/product/import', importOpts, importHandler);

  /** Subresource of the reference: a product's variants as a hydra collection. */
  app.get('/api/products/:id/variants', { ...user, schema: { ...pTags, summary: "A product's variants" } }, async (request) => {
    const ctx = ctxOf(request);
    const id = parseId((request.params as any).id);
    const [p] = await app.db.select({ id: product.id }).from(product).where(and(eq(product.id, id), scopes.product.scope(ctx)));
    if (!p) throw notFound('Product not found');
    const rows = await app.db.select().from(productVariant).where(eq(productVariant.productId, id)).orderBy(asc(productVariant.id));
    const members = rows.map((v) => presentVariant(v));
    return hydraCollection(productVariantsResource, members, members.length, parseListQuery({}));
  });
}
