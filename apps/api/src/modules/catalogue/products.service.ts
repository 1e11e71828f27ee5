import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { BLANK, TOO_LONG, decimal, flag, optionalRef, parseRef, ref, refList, text } from '@pos/domain/wire-fields';
import { validationError, type Violation } from '@pos/domain/errors';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import { generateVariants } from '@pos/domain/variants';
import type { Tx } from '../../db/client.ts';
import {
  orderProduct, product, productBrand, productCategory, productPrice, productStore, productSupplier, productTax,
  productTerminal, productVariant, purchaseItemVariant, purchaseOrderItemVariant,
} from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { moveStock, type StockReason } from '../../lib/stock.ts';
import { setVariantStock } from './variant-stock.ts';
import { GS1_TYPES, gs1Message, gs1Problem, type Gs1Type } from '@pos/domain/barcode';
import { INVALID_VARIANTS, assertBarcodesFree, assertCheckDigits, assertVisible, intField, replaceLinks, scopes, visibleIds, type BarcodeClaim, optDecimal, optText, orNull, stockQty } from './shared.ts';

// ---------------------------------------------------------------------------------------------
// Wire schemas (reference client 2.3a). Relations are IRIs or ids; money and stock are strings or numbers.

/** A barcode as text; the client may send a number (generated barcodes). */
export const barcodeText = () =>
  z.union([z.string(), z.number()], { error: BLANK }).transform((v, ctx) => {
    const s = String(v).trim();
    if (s === '') { ctx.addIssue({ code: 'custom', message: BLANK }); return z.NEVER; }
    if (s.length > 255) { ctx.addIssue({ code: 'custom', message: TOO_LONG }); return z.NEVER; }
    return s;
  });
const optionalBarcode = () => orNull(barcodeText());

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const timeOfDay = () => z.union([z.null(), z.literal(''), z.string()]).optional().transform((v, ctx) => {
  if (v === undefined || v === null || v === '') return null;
  const text = v.includes('T') ? v.slice(v.indexOf('T') + 1) : v.trim();
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?/.exec(text);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) { ctx.addIssue({ code: 'custom', message: 'This value is not a valid time.' }); return z.NEVER; }
  return `${m[1].padStart(2, '0')}:${m[2]}`;
});

const optionalInt = (min: number, max: number) => orNull(intField(min, max)).transform((v) => v ?? null);

/** A price rule: basePrice plus optional date (day of month), day (weekday), week, month, quarter, time window. */
const priceRow = z.object({
  basePrice: decimal({ min: 0 }),
  /** Day of month 1-31; an ISO date gives its day of month. */
  date: z.union([z.null(), z.literal(''), z.number(), z.string()]).optional().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const s = String(v).trim();
    const iso = /^\d{4}-\d{2}-(\d{2})/.exec(s);
    const n = iso ? Number(iso[1]) : /^\d{1,2}$/.test(s) ? Number(s) : NaN;
    if (!(n >= 1 && n <= 31)) { ctx.addIssue({ code: 'custom', message: 'This value should be between 1 and 31.' }); return z.NEVER; }
    return n;
  }),
  time: timeOfDay(),
  timeTo: timeOfDay(),
  day: z.union([z.null(), z.string()]).optional().transform((v, ctx) => {
    if (v === undefined || v === null || v.trim() === '') return null;
    const d = WEEKDAYS.find((w) => w.toLowerCase() === v.trim().toLowerCase());
    if (!d) { ctx.addIssue({ code: 'custom', message: 'The value you selected is not a valid choice.' }); return z.NEVER; }
    return d;
  }),
  week: optionalInt(1, 53),
  month: optionalInt(1, 12),
  quarter: optionalInt(1, 4),
  rate: optDecimal(),
  minQuantity: optDecimal({ min: 0 }),
  maxQuantity: optDecimal({ min: 0 }),
  baseQuantity: optDecimal({ min: 0 }),
  productVariant: optionalRef(),
});
export type PriceInput = z.output<typeof priceRow>;

const storeRow = z.object({
  store: ref(),
  /** Stock to set for this store; empty keeps the current stock (0 for a new row). */
  quantity: stockQty(),
  location: optText(),
  reOrderLevel: stockQty({ min: 0 }),
  /** What to order at the level (issue 25.4); absent keeps it (the old client never sends it). */
  reOrderQuantity: stockQty({ min: 0 }),
});
export type StoreRowInput = z.output<typeof storeRow>;

const variantRow = z.object({
  name: optText(),
  attributeName: optText(),
  attributeValue: text(),
  barcode: optionalBarcode(),
  sku: optText(),
  /** Sale price; null/'' = the product's price applies. */
  price: optDecimal({ min: 0 }),
  /** Stock over all stores (the variant's total); empty keeps it (0 for a new variant). The difference goes to its home store (variant-stock.ts). */
  quantity: stockQty(),
  /** Stock per store (issue 25; write only: a read shows it as `stock`): wins over `quantity`; rows without a quantity keep that store's. */
  stores: z.array(z.object({ store: ref(), quantity: stockQty() })).max(1000).optional(),
});
export interface VariantInput extends z.output<typeof variantRow> { id: number | null }

/**
 * Variant rows: one violation 'variants: Please add valid variants' plus the detail of each bad row.
 * Rows carry their id (@id or id) when they are existing variants.
 */
const variantsField = () => z.array(z.unknown(), { error: 'This value should be of type array.' }).max(10_000).transform((rows, ctx) => {
  const out: VariantInput[] = [];
  const details: { path: (string | number)[]; message: string }[] = [];
  const values = new Set<string>();
  rows.forEach((raw, i) => {
    const r = variantRow.safeParse(raw);
    if (!r.success) {
      for (const issue of r.error.issues) details.push({ path: [i, ...(issue.path as (string | number)[])], message: issue.message });
      return;
    }
    const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const id = parseRef(o['@id'] ?? o.id);
    if (id === undefined) { details.push({ path: [i, 'id'], message: 'This value is not a valid reference.' }); return; }
    const key = r.data.attributeValue.toLowerCase();
    if (values.has(key)) { details.push({ path: [i, 'attributeValue'], message: 'This value is already used.' }); return; }
    values.add(key);
    out.push({ ...r.data, id });
  });
  if (details.length) {
    ctx.addIssue({ code: 'custom', message: INVALID_VARIANTS });
    for (const d of details.slice(0, 20)) ctx.addIssue({ code: 'custom', message: d.message, path: d.path });
    return z.NEVER;
  }
  return out;
});

/** Variant groups of the create form: [{groupName, variants:[{label, value}] | values:[...]}]. */
const groupsField = () => z.array(z.object({
  groupName: z.string().optional(),
  variants: z.array(z.unknown()).optional(),
  values: z.array(z.unknown()).optional(),
})).max(100).transform((groups) => groups.map((g) => ({
  groupName: g.groupName ?? '',
  values: [...(g.variants ?? []), ...(g.values ?? [])].map((v) => {
    if (v && typeof v === 'object') { const o = v as Record<string, unknown>; return String(o.value ?? o.label ?? ''); }
    return String(v ?? '');
  }),
})));

/**
 * `stores` and `storesDropdown` carry the same thing: the reference item form sends the stock rows
 * in `stores` (only rows with a stock value) and the chosen stores in `storesDropdown`
 * (`[{label, value: IRI}]`). Precedence (docs/api.md): a non-empty `stores` wins; an empty or absent
 * `stores` takes one row per `storesDropdown` store, with no stock value (0 for a new row, the
 * current stock kept on an edit), so a product created or saved without typed stock keeps its stores.
 */
function storesFromDropdown(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const body = raw as Record<string, unknown>;
  const dropdown = body.storesDropdown;
  const stores = body.stores;
  const storesEmpty = stores === undefined || stores === null || (Array.isArray(stores) && stores.length === 0);
  if (!storesEmpty || !Array.isArray(dropdown) || dropdown.length === 0) return raw;
  const rows = dropdown.map((d) => ({ store: d && typeof d === 'object' ? (d as Record<string, unknown>).value : d }));
  return { ...body, stores: rows };
}

/** The product body (create). Required as the item form requires them (spec section 5). */
const productFields = z.object({
  name: text(),
  barcode: barcodeText(),
  /** ean13 | ean8 | upca | upce: the barcode must carry a valid GS1 check digit; null or absent: any code. */
  barcodeType: z.enum(GS1_TYPES as [Gs1Type, ...Gs1Type[]], { error: 'This value should be one of ean13, ean8, upca, upce.' }).nullable().optional(),
  sku: optText(),
  basePrice: decimal({ min: 0 }),
  cost: decimal({ min: 0 }),
  saleUnit: text(20),
  purchaseUnit: text(20),
  department: ref(),
  baseQuantity: orNull(intField(0, 1_000_000)),
  isAvailable: flag().optional(),
  isActive: flag().optional(),
  manageInventory: flag().optional(),
  /** Legacy global quantity of the reference model (stock is per store). */
  quantity: optDecimal(),
  categories: refList(BLANK),
  suppliers: refList(BLANK),
  brands: refList(BLANK),
  taxes: orNull(refList(), false),
  terminals: orNull(refList(), false),
  stores: z.array(storeRow, { error: 'This value should be of type array.' }).min(1, BLANK).max(1000),
  variants: orNull(variantsField(), false),
  groups: orNull(groupsField(), false),
  prices: orNull(z.array(priceRow, { error: 'This value should be of type array.' }).max(1000), false),
});
export const productBody = z.preprocess(storesFromDropdown, productFields.superRefine((p, ctx) => {
  const problem = p.barcodeType ? gs1Problem(p.barcode, p.barcodeType) : null;
  if (problem && p.barcodeType) ctx.addIssue({ code: 'custom', path: ['barcode'], message: gs1Message(p.barcodeType, problem) });
}));
export type ProductInput = z.output<typeof productBody>;

/** The product body (update, a merge): every field optional; the barcode (and its type) is not editable and ignored. */
export const productUpdateBody = z.preprocess(storesFromDropdown, productFields.omit({ barcode: true, barcodeType: true, groups: true }).partial());
export type ProductUpdateInput = z.output<typeof productUpdateBody>;

// ---------------------------------------------------------------------------------------------

const milli = (v: string | null | undefined) => parseQuantity(v ?? '0');
const delta = (next: string, current: string | null | undefined) => quantityToString(milli(next) - milli(current));

interface WriteOptions {
  /** Ledger reason of the stock differences: 'adjustment' from the forms, 'import' from CSV. */
  reason?: StockReason;
}

async function assertRelations(tx: Tx, input: ProductUpdateInput, ctx: ResourceCtx) {
  if (input.department != null) await assertVisible(tx, scopes.department, input.department, ctx, 'department', 'Department');
  if (input.categories) await assertVisible(tx, scopes.category, input.categories, ctx, 'categories', 'Category');
  if (input.brands) await assertVisible(tx, scopes.brand, input.brands, ctx, 'brands', 'Brand');
  if (input.suppliers) await assertVisible(tx, scopes.supplier, input.suppliers, ctx, 'suppliers', 'Supplier');
  if (input.taxes) await assertVisible(tx, scopes.tax, input.taxes, ctx, 'taxes', 'Tax');
  if (input.terminals) await assertVisible(tx, scopes.terminal, input.terminals, ctx, 'terminals', 'Terminal');
  if (input.stores) {
    const seen = new Set<number>();
    const violations: Violation[] = [];
    input.stores.forEach((row, i) => {
      if (!ctx.auth.storeIds.includes(row.store)) violations.push({ propertyPath: `stores[${i}].store`, message: `'Store' with ID '${row.store}' not found` });
      else if (seen.has(row.store)) violations.push({ propertyPath: `stores[${i}].store`, message: 'This value is already used.' });
      seen.add(row.store);
    });
    if (violations.length) throw validationError(violations);
  }
}

async function writeLinks(tx: Tx, productId: number, input: ProductUpdateInput, ctx: ResourceCtx) {
  const vis = (s: (typeof scopes)[keyof typeof scopes]) => (ids: number[]) => visibleIds(tx, s, ids, ctx);
  if (input.categories) await replaceLinks(tx, productCategory, productId, input.categories, vis(scopes.category));
  if (input.brands) await replaceLinks(tx, productBrand, productId, input.brands, vis(scopes.brand));
  if (input.suppliers) await replaceLinks(tx, productSupplier, productId, input.suppliers, vis(scopes.supplier));
  if (input.taxes !== undefined) await replaceLinks(tx, productTax, productId, input.taxes ?? [], vis(scopes.tax));
  if (input.terminals !== undefined) await replaceLinks(tx, productTerminal, productId, input.terminals ?? [], vis(scopes.terminal));
}

/**
 * Writes the caller's per-store rows: location and re-order level as given, stock through the
 * ledger (moveStock with the difference). Rows of the caller's stores missing from `rows` are
 * emptied through the ledger and removed; other stores' rows are never touched.
 */

/** True when a sale, a purchase or a purchase order names one of these variants (they may not be removed then). */
export async function variantsInUse(tx: Tx, variantIds: number[]): Promise<boolean> {
  const [a] = await tx.select({ n: sql<number>`count(*)::int` }).from(orderProduct).where(inArray(orderProduct.variantId, variantIds));
  const [b] = await tx.select({ n: sql<number>`count(*)::int` }).from(purchaseItemVariant).where(inArray(purchaseItemVariant.variantId, variantIds));
  const [c] = await tx.select({ n: sql<number>`count(*)::int` }).from(purchaseOrderItemVariant).where(inArray(purchaseOrderItemVariant.variantId, variantIds));
  return Number(a.n) + Number(b.n) + Number(c.n) > 0;
}
export async function writeStoreRows(tx: Tx, productId: number, rows: StoreRowInput[], ctx: ResourceCtx, reason: StockReason, removeMissing = true) {
  const mine = ctx.auth.storeIds;
  const current = mine.length
    ? await tx.select().from(productStore).where(and(eq(productStore.productId, productId), inArray(productStore.storeId, mine))).for('update')
    : [];
  for (const row of rows) {
    const existing = current.find((c) => c.storeId === row.store);
    if (existing) {
      const set: Partial<typeof productStore.$inferInsert> = {};
      if (row.location !== undefined) set.location = row.location;
      if (row.reOrderLevel !== undefined) set.reOrderLevel = row.reOrderLevel;
      if (row.reOrderQuantity !== undefined) set.reOrderQuantity = row.reOrderQuantity;
      if (Object.keys(set).length) await tx.update(productStore).set(set).where(eq(productStore.id, existing.id));
    } else {
      await tx.insert(productStore).values({ productId, storeId: row.store, quantity: '0', location: row.location ?? null, reOrderLevel: row.reOrderLevel ?? null, reOrderQuantity: row.reOrderQuantity ?? null });
    }
    if (row.quantity != null) {
      const d = delta(row.quantity, existing?.quantity);
      if (milli(d) !== 0) await moveStock(tx, { productId, storeId: row.store, delta: d, reason, userId: ctx.auth.userId });
    }
  }
  if (removeMissing) {
    for (const gone of current.filter((c) => !rows.some((r) => r.store === c.storeId))) {
      if (milli(gone.quantity) !== 0) await moveStock(tx, { productId, storeId: gone.storeId, delta: quantityToString(-milli(gone.quantity)), reason, userId: ctx.auth.userId });
      await tx.delete(productStore).where(eq(productStore.id, gone.id));
    }
  }
}

/**
 * Syncs variants with the given rows: rows with an id of this product are updated, rows without
 * one are created, variants missing from the rows are deleted (422 'Error while removing variants!'
 * when sales or purchases still reference them). Stock moves through the ledger per store (variant-stock.ts).
 */
async function writeVariants(tx: Tx, productId: number, productName: string, rows: VariantInput[], ctx: ResourceCtx, reason: StockReason, defaults: { attributeName?: string | null } = {}) {
  const existing = await tx.select().from(productVariant).where(eq(productVariant.productId, productId)).for('update');
  const unknown = rows.findIndex((r) => r.id != null && !existing.some((v) => v.id === r.id));
  if (unknown >= 0) throw validationError([{ propertyPath: `variants[${unknown}].id`, message: `'Product variant' with ID '${rows[unknown].id}' not found` }]);
  const keepIds = rows.map((r) => r.id).filter((x): x is number => x != null);
  const claims: BarcodeClaim[] = rows.flatMap((r, i) => (r.barcode ? [{ code: r.barcode, propertyPath: `variants[${i}].barcode` }] : []));
  await assertBarcodesFree(tx, claims, { productId, variantIds: existing.map((v) => v.id) });
  assertCheckDigits(claims, new Set(existing.map((v) => v.barcode))); // codes this product already has may stay
  const removed = existing.filter((v) => !keepIds.includes(v.id)).map((v) => v.id);
  if (removed.length) {
    if (await variantsInUse(tx, removed)) {
      throw validationError([{ propertyPath: 'variants', message: 'Error while removing variants!' }], 'Error while removing variants!');
    }
    // Their ledger rows go with them (FK cascade): the removed stock no longer exists anywhere.
    await tx.delete(productVariant).where(and(eq(productVariant.productId, productId), inArray(productVariant.id, removed)));
  }
  for (const r of rows) {
    const old = r.id != null ? existing.find((v) => v.id === r.id) : undefined;
    let variantId: number;
    if (old) {
      const set: Partial<typeof productVariant.$inferInsert> = { updatedAt: new Date() };
      if (r.name !== undefined) set.name = r.name;
      if (r.attributeName !== undefined) set.attributeName = r.attributeName;
      set.attributeValue = r.attributeValue;
      if (r.barcode !== undefined) set.barcode = r.barcode;
      if (r.sku !== undefined) set.sku = r.sku;
      if (r.price !== undefined) set.price = r.price;
      await tx.update(productVariant).set(set).where(eq(productVariant.id, old.id));
      variantId = old.id;
    } else {
      const [row] = await tx.insert(productVariant).values({
        productId, name: r.name || productName, attributeName: r.attributeName || defaults.attributeName || null, attributeValue: r.attributeValue,
        barcode: r.barcode ?? null, sku: r.sku ?? null, price: r.price ?? null, quantity: '0',
      }).returning({ id: productVariant.id });
      variantId = row.id;
    }
    await setVariantStock(tx, {
      productId, variantId, currentTotal: old?.quantity ?? null, quantity: r.quantity, stores: r.stores, storeIds: ctx.auth.storeIds, reason, userId: ctx.auth.userId, path: `variants[${rows.indexOf(r)}].quantity`,
    });
  }
}

async function writePrices(tx: Tx, productId: number, prices: PriceInput[]) {
  const variants = await tx.select({ id: productVariant.id }).from(productVariant).where(eq(productVariant.productId, productId));
  const bad = prices.findIndex((p) => p.productVariant != null && !variants.some((v) => v.id === p.productVariant));
  if (bad >= 0) throw validationError([{ propertyPath: `prices[${bad}].productVariant`, message: `'Product variant' with ID '${prices[bad].productVariant}' not found` }]);
  await tx.delete(productPrice).where(eq(productPrice.productId, productId));
  if (prices.length) {
    await tx.insert(productPrice).values(prices.map((p) => ({
      productId, productVariantId: p.productVariant ?? null, basePrice: p.basePrice, date: p.date, time: p.time, timeTo: p.timeTo, day: p.day,
      week: p.week, month: p.month, quarter: p.quarter, rate: p.rate ?? null, minQuantity: p.minQuantity ?? null,
      maxQuantity: p.maxQuantity ?? null, baseQuantity: p.baseQuantity ?? null,
    })));
  }
}

function scalarFields(input: ProductUpdateInput) {
  const set: Partial<typeof product.$inferInsert> = {};
  const keys = ['name', 'sku', 'basePrice', 'cost', 'saleUnit', 'purchaseUnit', 'baseQuantity', 'isAvailable', 'isActive', 'manageInventory', 'quantity'] as const;
  for (const k of keys) if (input[k] !== undefined) (set as any)[k] = input[k];
  if (input.department !== undefined) set.departmentId = input.department;
  return set;
}

/** Creates a product with its links, per-store stock, variants (given, or generated from groups) and price rules. */
export async function createProduct(tx: Tx, input: ProductInput, ctx: ResourceCtx, opts: WriteOptions = {}): Promise<number> {
  const reason = opts.reason ?? 'adjustment';
  await assertRelations(tx, input, ctx);
  let variants = input.variants ?? [];
  const groups = (input.groups ?? []).filter((g) => g.groupName.trim() && g.values.some((v) => v.trim()));
  if (!variants.length && groups.length) {
    variants = generateVariants(groups, input.basePrice, input.barcode).map((v) => ({ ...v, id: null, name: null, attributeName: null, sku: null }));
  }
  const attributeName = groups.length ? groups.map((g) => g.groupName.trim()).join('-') : null;
  await assertBarcodesFree(tx, [
    { code: input.barcode, propertyPath: 'barcode' },
    ...variants.flatMap((v, i) => (v.barcode ? [{ code: v.barcode, propertyPath: `variants[${i}].barcode` }] : [])),
  ]);
  const [row] = await tx.insert(product).values({
    ...scalarFields(input), name: input.name, barcode: input.barcode, barcodeType: input.barcodeType ?? null,
    baseQuantity: input.baseQuantity ?? 1, isAvailable: input.isAvailable ?? true, isActive: input.isActive ?? true,
    manageInventory: input.manageInventory ?? false,
  }).returning({ id: product.id });
  await writeLinks(tx, row.id, input, ctx);
  await writeStoreRows(tx, row.id, input.stores, ctx, reason);
  if (variants.length) await writeVariants(tx, row.id, input.name, variants.map((v) => ({ ...v, id: null })), ctx, reason, { attributeName });
  if (input.prices?.length) await writePrices(tx, row.id, input.prices);
  return row.id;
}

/** Updates a product as a merge: only the fields present change. The product row is locked first. */
export async function updateProduct(tx: Tx, id: number, input: ProductUpdateInput, ctx: ResourceCtx, opts: WriteOptions = {}): Promise<void> {
  const reason = opts.reason ?? 'adjustment';
  const [current] = await tx.select().from(product).where(eq(product.id, id)).for('update');
  await assertRelations(tx, input, ctx);
  const set = scalarFields(input);
  await tx.update(product).set({ ...set, updatedAt: new Date() }).where(eq(product.id, id));
  await writeLinks(tx, id, input, ctx);
  if (input.stores) await writeStoreRows(tx, id, input.stores, ctx, reason);
  if (input.variants) await writeVariants(tx, id, input.name ?? current.name, input.variants, ctx, reason);
  if (input.prices) await writePrices(tx, id, input.prices);
}

/** Stock ledger check used by tests and the doctor (lib/stock-check.ts). */
export { ledgerMismatches } from '../../lib/stock-check.ts';
