/**
 * The till's compact catalogue sync (GET /api/catalogue/sync, docs/api.md "Till catalogue sync"):
 * the wire format shared by the API (which encodes it) and the till (which decodes it).
 *
 * One array per product instead of a hydra object: the names and rates of taxes, categories,
 * brands, suppliers, terminals, departments and stores are sent once in dictionaries and products
 * carry their ids. A 100,000-product catalogue is about a tenth of the reference pages' bytes.
 * `decodeProduct` rebuilds the same object /api/products presents (minus createdAt/updatedAt/uuid),
 * so the rest of the till keeps reading products as before; the dictionary objects are shared
 * between products (one VAT object for 90,000 products).
 */

export const SYNC_FORMAT = 1;

/** Bits of ProductRow[P.flags]. */
export const FLAG_MANAGE_INVENTORY = 1;
export const FLAG_ACTIVE = 2;
export const FLAG_AVAILABLE = 4;

type Num = number | null;
type Str = string | null;

/**
 * [id, name, attributeName, attributeValue, barcode, sku, price, purchasePrice, quantity (over all
 * stores), stock per store of the caller's stores as [storeId, quantity text][] (issue 25; absent from an older server)]
 */
export type VariantRow = [number, Str, Str, Str, Str, Str, Num, Num, number, Array<[number, string]>?];
/** [id, variantId, date, time, timeTo, day, week, month, quarter, rate, minQuantity, maxQuantity, basePrice, baseQuantity] */
export type PriceRow = [number, Num, Num, Str, Str, Str, Num, Num, Num, Num, Num, Num, Num, Num];
/** [product_store id, storeId, quantity (trimmed decimal text), location, reOrderLevel (text), reOrderQuantity (text; absent from an older server)] */
export type StockRow = [number, number, string, Str, Str, Str?];

/** Positions in a ProductRow. */
export const P = {
  id: 0, name: 1, barcode: 2, sku: 3, basePrice: 4, cost: 5, saleUnit: 6, purchaseUnit: 7, flags: 8, baseQuantity: 9,
  quantity: 10, department: 11, taxes: 12, categories: 13, brands: 14, suppliers: 15, terminals: 16, variants: 17,
  prices: 18, stores: 19,
} as const;

export type ProductRow = [
  number, string, Str, Str, Num, Num, Str, Str, number, Num,
  Num, Num, number[], number[], number[], number[], number[], VariantRow[],
  PriceRow[], StockRow[],
];

/** Dictionaries: one row per entity the products refer to (only those the caller may see). */
export interface SyncDictionaries {
  /** [id, name, rate, isActive] */
  taxes: Array<[number, string, Num, boolean]>;
  /** [id, name, type, isActive] */
  categories: Array<[number, string, Str, boolean]>;
  /** [id, name, isActive] */
  brands: Array<[number, string, boolean]>;
  /** [id, name, phone, email, isActive] */
  suppliers: Array<[number, string, Str, Str, boolean]>;
  /** [id, code, description, isActive] */
  terminals: Array<[number, string, Str, boolean]>;
  /** [id, name, description] */
  departments: Array<[number, string, Str]>;
  /** [id, name, location] */
  stores: Array<[number, string, Str]>;
}

export interface SyncPayload {
  format: typeof SYNC_FORMAT;
  /** true: `products` is the whole catalogue (replace); false: a delta since the given cursor (merge). */
  full: boolean;
  /** Give it back as ?since= to get what changed after this answer. Opaque. */
  cursor: string;
  /** The signed-in user the catalogue was cut for (a cache of another user's catalogue is not reused). */
  userId: number;
  dict: SyncDictionaries;
  products: ProductRow[];
  /** Delta only: products that changed and are no longer sellable here (deactivated, moved out of the caller's stores). */
  removed: number[];
}

// ---- decoding -----------------------------------------------------------------------------------

export interface DecodedNamed { '@id': string; '@type': string; id: number; name: string; [k: string]: unknown }

/** The dictionaries as the shared embedded objects of /api/products (with @id/@type). */
export interface DecodeContext {
  taxes: Map<number, DecodedNamed>;
  categories: Map<number, DecodedNamed>;
  brands: Map<number, DecodedNamed>;
  suppliers: Map<number, DecodedNamed>;
  terminals: Map<number, { '@id': string; '@type': string; id: number; code: string; description: Str; isActive: boolean }>;
  departments: Map<number, DecodedNamed>;
  stores: Map<number, { '@id': string; '@type': string; id: number; name: string; location: Str }>;
}

const ld = <T extends { id: number }>(path: string, type: string, obj: T) => ({ '@id': `/api/${path}/${obj.id}`, '@type': type, ...obj });

export function decodeContext(d: SyncDictionaries): DecodeContext {
  return {
    taxes: new Map(d.taxes.map(([id, name, rate, isActive]) => [id, ld('taxes', 'Tax', { id, name, rate, isActive })])),
    categories: new Map(d.categories.map(([id, name, type, isActive]) => [id, ld('categories', 'Category', { id, name, type, isActive })])),
    brands: new Map(d.brands.map(([id, name, isActive]) => [id, ld('brands', 'Brand', { id, name, isActive })])),
    suppliers: new Map(d.suppliers.map(([id, name, phone, email, isActive]) => [id, ld('suppliers', 'Supplier', { id, name, phone, email, isActive })])),
    terminals: new Map(d.terminals.map(([id, code, description, isActive]) => [id, ld('terminals', 'Terminal', { id, code, description, isActive })])),
    departments: new Map(d.departments.map(([id, name, description]) => [id, ld('departments', 'Department', { id, name, description })])),
    stores: new Map(d.stores.map(([id, name, location]) => [id, ld('stores', 'Store', { id, name, location })])),
  };
}

/**
 * One shared empty list for every empty relation: most products have no variants, price rules or
 * terminals, and the till posts 100,000 decoded products from its worker; a structured clone keeps
 * one shared object as one, so this spares it hundreds of thousands of empty arrays. Frozen: a
 * caller that pushes into a product's relation gets an error instead of changing every product.
 */
const EMPTY: readonly never[] = Object.freeze([]);
const list = <T>(items: T[]): T[] => (items.length ? items : (EMPTY as unknown as T[]));

function pick<T>(map: Map<number, T>, ids: number[]): T[] {
  if (!ids.length) return EMPTY as unknown as T[];
  const out: T[] = [];
  for (const id of ids) {
    const x = map.get(id);
    if (x) out.push(x);
  }
  return list(out);
}

function decodePrice(r: PriceRow) {
  return {
    id: r[0], date: r[2], time: r[3], timeTo: r[4], day: r[5], week: r[6], month: r[7], quarter: r[8],
    rate: r[9], minQuantity: r[10], maxQuantity: r[11], basePrice: r[12], baseQuantity: r[13],
    productVariant: r[1] ? `/api/product_variants/${r[1]}` : null,
  };
}

export type DecodedProduct = ReturnType<typeof decodeProduct>;

export interface DecodeOptions {
  /**
   * Leave out what only the hydra wire carries and the till never reads (`@type`, a variant's
   * `product` IRI): fewer strings to copy from the worker. The API tests decode in full.
   */
  lean?: boolean;
}

/** One product as /api/products presents it (without createdAt/updatedAt/uuid). */
export function decodeProduct(r: ProductRow, ctx: DecodeContext, opts: DecodeOptions = {}) {
  const id = r[P.id];
  const prices = list(r[P.prices].map(decodePrice));
  const flags = r[P.flags];
  const dep = r[P.department] == null ? undefined : ctx.departments.get(r[P.department]!);
  const lean = opts.lean === true;
  return {
    '@id': `/api/products/${id}`, ...(lean ? {} : { '@type': 'Product' }),
    id, name: r[P.name], sku: r[P.sku], barcode: r[P.barcode], baseQuantity: r[P.baseQuantity],
    isAvailable: (flags & FLAG_AVAILABLE) !== 0,
    basePrice: r[P.basePrice] ?? 0, cost: r[P.cost], quantity: r[P.quantity], purchaseUnit: r[P.purchaseUnit], saleUnit: r[P.saleUnit],
    manageInventory: (flags & FLAG_MANAGE_INVENTORY) !== 0, isActive: (flags & FLAG_ACTIVE) !== 0,
    department: dep ?? null,
    categories: pick(ctx.categories, r[P.categories]),
    brands: pick(ctx.brands, r[P.brands]),
    suppliers: pick(ctx.suppliers, r[P.suppliers]),
    taxes: pick(ctx.taxes, r[P.taxes]),
    terminals: pick(ctx.terminals, r[P.terminals]),
    variants: list(r[P.variants].map((v) => {
      const iri = `/api/product_variants/${v[0]}`;
      return {
        '@id': iri, ...(lean ? {} : { '@type': 'ProductVariant' }),
        id: v[0], name: v[1], attributeName: v[2], attributeValue: v[3], barcode: v[4], sku: v[5], price: v[6], purchasePrice: v[7], quantity: v[8],
        stock: list((v[9] ?? []).flatMap(([storeId, quantity]) => {
          const store = ctx.stores.get(storeId);
          return store ? [{ store, quantity }] : [];
        })),
        prices: prices.length ? list(prices.filter((p) => p.productVariant === iri)) : prices,
        ...(lean ? {} : { product: `/api/products/${id}` }),
      };
    })),
    prices,
    stores: list(r[P.stores].flatMap(([psId, storeId, quantity, location, reOrderLevel, reOrderQuantity]) => {
      const store = ctx.stores.get(storeId);
      return store ? [{ id: psId, store, quantity, location, reOrderLevel, reOrderQuantity: reOrderQuantity ?? null }] : [];
    })),
  };
}

/**
 * Applies a delta to a catalogue held as rows by id: changed products replace theirs (or are
 * added), removed ones go. Returns the ids that changed (for the caller's indexes). The server
 * re-sends a short overlap, so a row seen twice is simply replaced by the same data.
 */
export function mergeRows(rows: Map<number, ProductRow>, delta: Pick<SyncPayload, 'products' | 'removed'>): { changed: number[]; removed: number[] } {
  const changed: number[] = [];
  const removed: number[] = [];
  for (const row of delta.products) {
    rows.set(row[P.id], row);
    changed.push(row[P.id]);
  }
  for (const id of delta.removed) {
    if (rows.delete(id)) removed.push(id);
  }
  return { changed, removed };
}

/** The cursor is a server timestamp in epoch milliseconds, written as text. */
export function parseCursor(text: unknown): number | null {
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text)) return null;
  const ms = Number(text);
  return Number.isSafeInteger(ms) ? ms : null;
}
