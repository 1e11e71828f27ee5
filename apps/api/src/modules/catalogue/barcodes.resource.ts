import { moneyText } from '../../lib/present.ts';
import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { flag, optionalRef, ref, decimal } from '@pos/domain/wire-fields';
import { validationError } from '@pos/domain/errors';
import { barcode, product, productVariant } from '../../db/schema/index.ts';
import type { FilterFn, ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial } from '../../resources/filters.ts';
import { presentProducts, presentVariant } from './products.presenter.ts';
import { barcodeText } from './products.service.ts';
import { assertBarcodesFree, assertCheckDigits, assertVisible, intField, productVisible, scopes, stamps, optText, orNull } from './shared.ts';
import { searchCondition } from '../../resources/search.ts';

const first = (v: string | string[]) => (Array.isArray(v) ? v[0] : v);

/** The product a barcode row belongs to (directly, or through its variant). */
const ownerId = sql`coalesce(${barcode.itemId}, (select ${productVariant.productId} from ${productVariant} where ${productVariant.id} = ${barcode.variantId}))`;

const body = z.object({
  barcode: barcodeText(),
  item: ref(),
  variant: optionalRef(),
  /** Price of the measured quantity (weighed goods), e.g. 2.50 for 0.5 kg. */
  price: decimal({ min: 0 }),
  /** The quantity the code stands for, e.g. '0.5' (kg); the till uses it as the line quantity. */
  measurement: z.union([z.null(), z.string(), z.number()]).optional().transform((v) => (v === undefined ? undefined : v === null ? null : String(v).trim() || null)),
  unit: optText(),
  usages: orNull(intField(0, 2147483647)),
  used: orNull(intField(0, 2147483647)),
  isActive: flag().optional(),
});

const storeFilter: FilterFn = (v) => {
  const id = Number(/(\d+)$/.exec(first(v))?.[1]);
  return Number.isInteger(id) ? productVisible(ownerId, [id]) : undefined;
};

/**
 * Extra barcodes: weighed / price-embedded codes with their own measurement and price (strings on
 * the wire, as the till reads them). `GET /api/barcodes?barcode=<scan>` is the till's lookup; the
 * item comes embedded as a full product (variants, taxes...).
 */
export const barcodesResource: ResourceDef<typeof barcode.$inferSelect> = {
  path: 'barcodes',
  type: 'Barcode',
  table: barcode,
  filters: {
    barcode: exact(barcode.barcode),
    id: exact(barcode.id, 'int'),
    isActive: bool(barcode.isActive),
    measurement: partial(barcode.measurement),
    unit: partial(barcode.unit),
    item: exact(barcode.itemId, 'int'),
    'item.id': exact(barcode.itemId, 'int'),
    // IN (indexed search) rather than EXISTS per barcode: the products are found by their index first.
    'item.name': (v, _ctx, name = 'item.name') => {
      const c = searchCondition(product.name, v, name);
      return c && sql`${ownerId} in (select ${product.id} from ${product} where ${c})`;
    },
    'variant.attributeValue': (v, _ctx, name = 'variant.attributeValue') => {
      const c = searchCondition(productVariant.attributeValue, v, name);
      return c && sql`${barcode.variantId} in (select ${productVariant.id} from ${productVariant} where ${c})`;
    },
    store: storeFilter,
  },
  sorts: {
    id: barcode.id, barcode: barcode.barcode, measurement: barcode.measurement, unit: barcode.unit, price: barcode.price,
    'item.name': sql`(select ${product.name} from ${product} where ${product.id} = ${ownerId})`,
    'variant.attributeValue': sql`(select ${productVariant.attributeValue} from ${productVariant} where ${productVariant.id} = ${barcode.variantId})`,
  },
  scope: (ctx) => productVisible(ownerId, ctx.auth.storeIds),
  async present(rows, ctx) {
    const variantIds = [...new Set(rows.map((r) => r.variantId).filter((x): x is number => x != null))];
    const variants = variantIds.length ? await ctx.db.select().from(productVariant).where(inArray(productVariant.id, variantIds)) : [];
    const productIds = [...new Set([...rows.map((r) => r.itemId), ...variants.map((v) => v.productId)].filter((x): x is number => x != null))];
    const products = productIds.length ? await ctx.db.select().from(product).where(inArray(product.id, productIds)) : [];
    const presented = await presentProducts(products, ctx);
    return rows.map((b) => {
      const v = variants.find((x) => x.id === b.variantId);
      const item = presented.find((p) => p.id === (b.itemId ?? v?.productId));
      return {
        id: b.id, barcode: b.barcode,
        item: item ? { '@id': `/api/products/${item.id}`, '@type': 'Product', ...item } : null,
        variant: v ? presentVariant(v) : null,
        measurement: b.measurement, unit: b.unit, price: moneyText(b.price),
        usages: b.usages, used: b.used, isActive: b.isActive, ...stamps(b),
      };
    });
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      await check(tx, input, ctx);
      await assertBarcodesFree(tx, [{ code: input.barcode, propertyPath: 'barcode' }]);
      assertCheckDigits([{ code: input.barcode, propertyPath: 'barcode' }]);
      const { item, variant, ...fields } = input;
      const [row] = await tx.insert(barcode).values({ ...fields, itemId: item, variantId: variant ?? null, isActive: input.isActive ?? true }).returning({ id: barcode.id });
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const [current] = await tx.select().from(barcode).where(eq(barcode.id, id));
      await check(tx, { item: input.item ?? current.itemId ?? undefined, variant: input.variant !== undefined ? input.variant : current.variantId }, ctx);
      if (input.barcode !== undefined) await assertBarcodesFree(tx, [{ code: input.barcode, propertyPath: 'barcode' }], { barcodeId: id });
      // A code stored before the check-digit rule may stay; a changed one is checked.
      if (input.barcode !== undefined && input.barcode !== current.barcode) assertCheckDigits([{ code: input.barcode, propertyPath: 'barcode' }]);
      const { item, variant, ...fields } = input;
      const set: Partial<typeof barcode.$inferInsert> = { ...fields, updatedAt: new Date() };
      if (item !== undefined) set.itemId = item;
      if (variant !== undefined) set.variantId = variant;
      await tx.update(barcode).set(set).where(eq(barcode.id, id));
    },
  },
  async remove(tx, id) {
    await tx.delete(barcode).where(eq(barcode.id, id));
  },
};

/** The item must be visible to the caller, and the variant one of the item's. */
async function check(tx: Parameters<NonNullable<ResourceDef['remove']>>[0], input: { item?: number; variant?: number | null }, ctx: Parameters<NonNullable<ResourceDef['remove']>>[2]) {
  if (input.item != null) await assertVisible(tx, scopes.product, input.item, ctx, 'item', 'Product');
  if (input.variant != null) {
    const [v] = await tx.select({ productId: productVariant.productId }).from(productVariant).where(eq(productVariant.id, input.variant));
    if (!v || v.productId !== input.item) throw validationError([{ propertyPath: 'variant', message: `'Product variant' with ID '${input.variant}' not found` }]);
  }
}
