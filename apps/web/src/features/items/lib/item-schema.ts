/**
 * The item form (spec 2.5 Item form, 5 Item, reference client 2.3a and 4.9): validation and the
 * POST/PUT body. Amounts stay the strings the user typed; the server parses them exactly.
 */
import { z } from 'zod';
import { messages } from '@pos/domain/validation';
import { isValidMoneyInput, quantityToString, tryParseScaled } from '@pos/domain/money';
import { normaliseNumberText } from '@/components/ui/number-input';
import { generateVariants, randomBarcode, type VariantGroup } from '@pos/domain/variants';
import { WEEKDAY_NAMES } from '@pos/domain/calendar';
import { GS1_TYPES, gs1Message, gs1Problem, type Gs1Type } from '@pos/domain/barcode';
import { iri } from '@/features/list-table/lib/refs';
import type { Product } from './types.ts';

const req = () => z.string({ error: messages.required }).trim().min(1, { error: messages.required });
// Money fields may show the store locale's separator or Arabic-Indic digits: read in the wire's form.
const isNum = (v: string) => isValidMoneyInput(normaliseNumberText(v), { scale: 6, allowNegative: false });
const wireMoney = (v: string) => normaliseNumberText(v.trim());
const reqNumber = () => req().refine(isNum, { error: messages.number });
const optNumber = () => z.string().trim().refine((v) => v === '' || isNum(v), { error: messages.number });
const optInt = (min: number, max: number) =>
  z.string().trim().refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max), {
    error: messages.between.replace(':min', String(min)).replace(':max', String(max)),
  });
const ids = () => z.array(z.string()).min(1, { error: messages.required });
/** A whole number, zero or more, or empty (Arabic-Indic digits read as such). */
export const WHOLE_OR_ZERO = 'This value should be a whole number, zero or more.';
const optWhole = () => z.string().trim().refine((v) => v === '' || /^\d+$/.test(normaliseNumberText(v)), { error: WHOLE_OR_ZERO });

export const storeRowSchema = z.object({
  store: req(),
  quantity: optNumber(),
  location: z.string(),
  reOrderLevel: optNumber(),
  /** What to order when the stock falls to the level (issue 25.4); empty: none. */
  reOrderQuantity: optWhole(),
  /** The ProductStore IRI when editing. */
  iri: z.string().optional(),
});

export const variantRowSchema = z.object({
  iri: z.string().optional(),
  id: z.number().optional(),
  attributeName: z.string(),
  attributeValue: z.string(),
  price: z.string(),
  quantity: z.string(),
  barcode: z.string(),
  /** Shown, never sent: the variant's stock per store (the total is `quantity`). */
  byStore: z.array(z.object({ name: z.string(), quantity: z.string() })).optional(),
});

export const priceRuleSchema = z.object({
  basePrice: reqNumber(),
  date: optInt(1, 31),
  day: z.string(),
  week: optInt(1, 53),
  month: optInt(1, 12),
  quarter: optInt(1, 4),
  time: z.string(),
  timeTo: z.string(),
});

export const itemSchema = z
  .object({
    name: req(),
    barcode: req(),
    /** '' (any code) or a GS1 type whose check digit is validated (issue 26). */
    barcodeType: z.string(),
    department: req(),
    saleUnit: req(),
    basePrice: reqNumber(),
    purchaseUnit: req(),
    cost: reqNumber(),
    manageInventory: z.boolean(),
    taxes: z.array(z.string()),
    categories: ids(),
    suppliers: ids(),
    brands: ids(),
    terminals: z.array(z.string()),
    stores: z.array(storeRowSchema).min(1, { error: messages.required }),
    groups: z.array(z.object({ groupName: z.string(), values: z.array(z.string()) })),
    variants: z.array(variantRowSchema),
    prices: z.array(priceRuleSchema),
  })
  .superRefine((v, ctx) => {
    const type = (GS1_TYPES as readonly string[]).includes(v.barcodeType) ? (v.barcodeType as Gs1Type) : null;
    const problem = type ? gs1Problem(v.barcode.trim(), type) : null;
    if (type && problem) ctx.addIssue({ code: 'custom', path: ['barcode'], message: gs1Message(type, problem) });
    // Spec 5: "variants must be valid". A row needs a value, a barcode and a numeric (or empty) price;
    // barcodes must differ from each other and from the item's.
    const seen = new Set<string>([v.barcode.trim()]);
    const bad = v.variants.some((row) => {
      const code = row.barcode.trim();
      const invalid =
        row.attributeValue.trim() === '' || code === '' || seen.has(code) || (row.price.trim() !== '' && !isNum(row.price.trim())) || (row.quantity.trim() !== '' && !isNum(row.quantity.trim()));
      seen.add(code);
      return invalid;
    });
    if (bad) ctx.addIssue({ code: 'custom', path: ['variants'], message: messages.addValidVariants });
  });

export type ItemForm = z.input<typeof itemSchema>;
export type StoreRow = ItemForm['stores'][number];
export type VariantRow = ItemForm['variants'][number];
export type PriceRuleRow = ItemForm['prices'][number];

export const WEEKDAYS = WEEKDAY_NAMES;

export const emptyPriceRule = (): PriceRuleRow => ({ basePrice: '', date: '', day: '', week: '', month: '', quarter: '', time: '', timeTo: '' });

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Form values for "Create item" (storeId: the current store gets the first stock row) or "Update item". */
export function itemDefaults(product: Product | null, storeId: number | null): ItemForm {
  if (!product) {
    return {
      name: '',
      barcode: randomBarcode(),
      barcodeType: '',
      department: '',
      saleUnit: 'pcs',
      basePrice: '',
      purchaseUnit: 'pcs',
      cost: '',
      manageInventory: true,
      taxes: [],
      categories: [],
      suppliers: [],
      brands: [],
      terminals: [],
      stores: storeId ? [{ store: String(storeId), quantity: '0', location: '', reOrderLevel: '', reOrderQuantity: '' }] : [],
      groups: [],
      variants: [],
      prices: [],
    };
  }
  const idsOf = (list: Array<{ id: number }> | null | undefined) => (list ?? []).map((x) => String(x.id));
  return {
    name: product.name,
    barcode: str(product.barcode),
    barcodeType: str(product.barcodeType),
    department: product.department ? String(product.department.id) : '',
    saleUnit: str(product.saleUnit),
    basePrice: str(product.basePrice),
    purchaseUnit: str(product.purchaseUnit),
    cost: str(product.cost),
    manageInventory: !!product.manageInventory,
    taxes: idsOf(product.taxes),
    categories: idsOf(product.categories),
    suppliers: idsOf(product.suppliers),
    brands: idsOf(product.brands),
    terminals: idsOf(product.terminals),
    stores: (product.stores ?? []).map((s) => ({
      store: String(s.store?.id ?? ''),
      quantity: str(s.quantity),
      location: str(s.location),
      reOrderLevel: str(s.reOrderLevel),
      reOrderQuantity: str(s.reOrderQuantity),
      iri: s['@id'],
    })),
    groups: [],
    variants: (product.variants ?? []).map((v) => ({
      iri: v['@id'],
      id: v.id,
      attributeName: str(v.attributeName),
      attributeValue: str(v.attributeValue),
      price: str(v.price),
      quantity: str(v.quantity),
      barcode: str(v.barcode),
      byStore: (v.stock ?? []).map((x) => ({ name: str(x.store.name), quantity: quantityToString(tryParseScaled(x.quantity, 3) ?? 0) })),
    })),
    prices: (product.prices ?? []).map((p) => ({
      basePrice: str(p.basePrice),
      date: str(p.date),
      day: str(p.day),
      week: str(p.week),
      month: str(p.month),
      quarter: str(p.quarter),
      time: str(p.time).slice(0, 5),
      timeTo: str(p.timeTo).slice(0, 5),
    })),
  };
}

/** Rows "Create item" will send for its variant groups (reference client 4.9). */
export function previewVariants(values: Pick<ItemForm, 'groups' | 'basePrice' | 'barcode'>) {
  return generateVariants(values.groups as VariantGroup[], values.basePrice ?? '', values.barcode ?? '');
}

/** A new variant row of "Update item": random barcode, no own price (the item price applies). */
export const newVariantRow = (): VariantRow => ({ attributeName: '', attributeValue: '', price: '', quantity: '0', barcode: randomBarcode() });

const intOrNull = (v: string) => (v.trim() === '' ? null : Number(v));
const textOrNull = (v: string) => (v.trim() === '' ? null : v.trim());

/** The POST / PUT body of reference client 2.3a, with our price rules instead of `prices: []`. */
export function itemPayload(v: ItemForm, product: Product | null): Record<string, unknown> {
  const productIri = product ? (product['@id'] ?? iri('products', product.id)) : null;
  const body: Record<string, unknown> = {
    name: v.name.trim(),
    barcode: String(v.barcode).trim(),
    ...(v.barcodeType ? { barcodeType: v.barcodeType } : {}),
    basePrice: wireMoney(v.basePrice),
    cost: wireMoney(v.cost),
    saleUnit: v.saleUnit.trim(),
    purchaseUnit: v.purchaseUnit.trim(),
    department: iri('departments', v.department),
    taxes: v.taxes.map((id) => iri('taxes', id)),
    terminals: v.terminals.map((id) => iri('terminals', id)),
    categories: v.categories.map((id) => iri('categories', id)),
    suppliers: v.suppliers.map((id) => iri('suppliers', id)),
    brands: v.brands.map((id) => iri('brands', id)),
    manageInventory: v.manageInventory,
    stores: v.stores
      .filter((s) => s.store)
      .map((s) => ({
        ...(s.iri ? { '@id': s.iri } : {}),
        store: iri('stores', s.store),
        quantity: s.quantity.trim() === '' ? '0' : s.quantity.trim(),
        location: s.location.trim(),
        reOrderLevel: s.reOrderLevel?.trim() ?? '',
        reOrderQuantity: normaliseNumberText(s.reOrderQuantity?.trim() ?? ''),
        product: productIri,
      })),
    baseQuantity: 1,
    isAvailable: true,
    isActive: product ? product.isActive : true,
    prices: v.prices.map((p) => ({
      basePrice: wireMoney(p.basePrice),
      date: intOrNull(p.date),
      day: textOrNull(p.day),
      week: intOrNull(p.week),
      month: intOrNull(p.month),
      quarter: intOrNull(p.quarter),
      time: textOrNull(p.time),
      timeTo: textOrNull(p.timeTo),
    })),
  };
  if (!product) {
    const groups = v.groups.filter((g) => g.groupName.trim() !== '' && g.values.length > 0);
    body.groups = groups.map((g) => ({ groupName: g.groupName, variants: g.values.map((x) => ({ label: x, value: x })) }));
    const attributeName = groups.map((g) => g.groupName.trim()).join('-');
    body.variants = previewVariants(v).map((row) => ({ attributeName, ...row }));
  } else {
    body.variants = v.variants.map((row) => ({
      ...(row.iri ? { '@id': row.iri } : {}),
      ...(row.id ? { id: row.id } : {}),
      attributeName: row.attributeName,
      attributeValue: row.attributeValue.trim(),
      barcode: row.barcode.trim(),
      price: row.price.trim() === '' ? null : wireMoney(row.price),
      quantity: row.quantity.trim() === '' ? '0' : row.quantity.trim(),
    }));
  }
  return body;
}
