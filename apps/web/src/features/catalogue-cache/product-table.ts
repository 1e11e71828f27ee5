/**
 * The catalogue on the till's main thread (issue 10, warm start): the index columns the worker
 * built (product-sync.ts TableIndex) and the cache chunks' JSON texts. A product object is decoded
 * only when something asks for it (a scan, a search result on screen, the cart) and kept, so the
 * same id gives the same object until a change of that product. Nothing here is per product at
 * load time (the scan lookup is the worker's hash table of the keys, scan-table.ts): a warm start no
 * longer copies 100,000 decoded products out of the worker.
 *
 * A table is never changed in place: a delta gives a new table (`apply`) that shares what did not
 * change (texts, parsed chunks, decoded products, and the columns when no index field changed). A
 * delta of products changed in place comes as a patch of the columns (index-patch.ts).
 */
import { P, decodeContext, decodeProduct, type DecodeContext, type ProductRow, type SyncDictionaries } from '@pos/domain/catalogue-sync';
import { patchColumns, type IndexPatch } from './index-patch';
import { setScanKeys, type ScanOwner } from './scan-table';
import { CachedTexts, type TextSource } from './cached-texts';
import { chunkOf, type ProductUpdate } from './product-sync';
import { findScanKey, positionIn, textColumn, type Relation, type TableIndex } from './table-index';
import type { Facet, Facets, ScanHit } from './product-index';
import type { Product } from './types';

/** Products by id (the table, or a plain Map in tests). */
export interface ProductLookup {
  get(id: number): Product | undefined;
}

/** The exact scan lookup (the table's, or buildScanLookup's Map in tests). */
export interface ScanLookup {
  get(code: string): ScanHit | undefined;
  has(code: string): boolean;
}

/** The till reads neither `@type` nor a variant's `product` IRI: not decoded. */
const LEAN = { lean: true } as const;

const EMPTY_RELATION: Relation = { start: new Int32Array(1), ids: new Int32Array(0) };
const EMPTY_DICT: SyncDictionaries = { taxes: [], categories: [], brands: [], suppliers: [], terminals: [], departments: [], stores: [] };
const EMPTY_INDEX: TableIndex = {
  ids: new Int32Array(0), names: textColumn([]), barcodes: textColumn([]), prices: new Float64Array(0), departments: new Int32Array(0),
  brands: EMPTY_RELATION, categories: EMPTY_RELATION, stores: EMPTY_RELATION, terminals: EMPTY_RELATION,
  scanKeys: textColumn([]), scanAt: new Int32Array(0), scanVariant: new Int32Array(0), scanSlots: new Int32Array(0),
};

/** Whether product i has no ids in this relation, or has `id` among them. */
function listedOrEmpty(r: Relation, i: number, id: number): boolean {
  const from = r.start[i];
  const to = r.start[i + 1];
  if (from === to) return true;
  for (let j = from; j < to; j++) if (r.ids[j] === id) return true;
  return false;
}

interface Shared {
  index: TableIndex;
  dict: SyncDictionaries;
  ctx: DecodeContext;
  /** Scan keys whose product changed since the scan table was built, by key (patched). */
  scanChanges: ReadonlyMap<string, ScanOwner>;
}

export class ProductTable implements ProductLookup {
  /** Scan hits by code, resolved to the table's product objects. */
  readonly scan: ScanLookup;

  private constructor(
    private readonly shared: Shared,
    /** Chunk key -> JSON text of its rows (what the offline cache holds). */
    private readonly texts: Map<number, string>,
    /** Parsed chunks: key -> rows by id (filled on demand, and by warm()). */
    private readonly parsed: Map<number, Map<number, ProductRow>>,
    private readonly decoded: Map<number, Product>,
    /** A warm start's texts, which come after the start (cached-texts.ts); `texts` come first. */
    private readonly cached: CachedTexts | null = null,
  ) {
    this.scan = {
      get: (code) => this.scanHit(code),
      has: (code) => this.scanOf(code) !== null,
    };
  }

  static empty(): ProductTable {
    return new ProductTable(share(EMPTY_INDEX, EMPTY_DICT), new Map(), new Map(), new Map());
  }

  /**
   * A table from a full update (a restore or a full answer). A warm start's update carries no
   * texts (`textsInCache`): `texts` gives them, as they are needed and after the start.
   */
  static from(update: ProductUpdate, texts?: TextSource): ProductTable {
    if (!update.full || !update.index || !update.dict) throw new Error('A product table starts from a full update');
    let cached: CachedTexts | null = null;
    if (update.textsInCache) {
      if (!texts) throw new Error('A catalogue restored without its texts needs a reader of the offline cache');
      // The columns are in id order: the chunks run from the first id's to the last one's.
      const { ids } = update.index;
      cached = new CachedTexts(texts, ids.length ? chunkOf(ids[0]) : 0, ids.length ? chunkOf(ids[ids.length - 1]) : -1);
    }
    return new ProductTable(share(update.index, update.dict), new Map(update.chunks.map((c) => [c.key, c.json])), new Map(), new Map(), cached);
  }

  /** The table after an update: a full one replaces everything, a delta shares what it left alone. */
  apply(update: ProductUpdate): ProductTable {
    if (update.full) return ProductTable.from(update);
    const dict = update.dict ?? this.shared.dict;
    let shared = update.index ? share(update.index, dict) : update.dict ? { ...this.shared, dict, ctx: decodeContext(dict) } : this.shared;
    if (update.patch) shared = patched(shared, update.patch);
    const texts = new Map(this.texts);
    const parsed = new Map(this.parsed);
    for (const key of update.drop) {
      // A dropped chunk the cache may still hold (not read yet): held here as empty, so it stays dropped.
      if (this.cached) texts.set(key, '[]');
      else texts.delete(key);
      parsed.delete(key);
    }
    for (const c of update.chunks) {
      texts.set(c.key, c.json);
      parsed.delete(c.key);
    }
    let decoded: Map<number, Product>;
    if (update.dict) decoded = new Map();
    else {
      decoded = new Map(this.decoded);
      for (const id of update.changed) decoded.delete(id);
      for (const id of update.removed) decoded.delete(id);
    }
    return new ProductTable(shared, texts, parsed, decoded, this.cached);
  }

  /** The same table as a new object (what the till shows again once texts it lacked were read). */
  renewed(): ProductTable {
    return new ProductTable(this.shared, this.texts, this.parsed, this.decoded, this.cached);
  }

  /** Some products cannot be decoded yet: their chunk texts are still to come after a warm start. */
  get textsPending(): boolean {
    return this.cached !== null && !this.cached.complete;
  }

  /** Reads the texts of these products from the offline cache now when they have not come yet. */
  async ensure(ids: Iterable<number>): Promise<void> {
    const cached = this.cached;
    if (!cached || cached.complete) return;
    const keys: number[] = [];
    for (const id of ids) if (!this.texts.has(chunkOf(id)) && cached.waiting(chunkOf(id))) keys.push(chunkOf(id));
    await cached.load(keys);
  }

  /** Reads the text of the product a code scans from the offline cache, when it has not come yet. */
  async ensureScan(code: string): Promise<void> {
    const hit = this.scanOf(code);
    if (hit) await this.ensure([this.shared.index.ids[hit[0]]]);
  }

  /** Takes every text still to come after a warm start. */
  async loadTexts(): Promise<void> {
    await this.cached?.loadAll();
  }

  get index(): TableIndex {
    return this.shared.index;
  }

  get dict(): SyncDictionaries {
    return this.shared.dict;
  }

  get size(): number {
    return this.shared.index.ids.length;
  }

  /** Position of an id in the columns, or -1. */
  positionOf(id: number): number {
    return positionIn(this.shared.index.ids, id);
  }

  has(id: number): boolean {
    return this.positionOf(id) >= 0;
  }

  /** The product with this id, decoded on first use and kept. */
  get(id: number): Product | undefined {
    const known = this.decoded.get(id);
    if (known) return known;
    if (this.positionOf(id) < 0) return undefined;
    const row = this.rowsOf(chunkOf(id))?.get(id);
    if (!row) return undefined;
    const product = decodeProduct(row, this.shared.ctx, LEAN) as unknown as Product;
    this.decoded.set(id, product);
    return product;
  }

  /** The product at a position of the columns. */
  at(pos: number): Product | undefined {
    return this.get(this.shared.index.ids[pos]);
  }

  /** Every product in id order (decodes them all: tests and small catalogues). */
  products(): Product[] {
    const out: Product[] = [];
    for (const id of this.shared.index.ids) {
      const p = this.get(id);
      if (p) out.push(p);
    }
    return out;
  }

  /** The position and variant (-1: the product) a code scans, or null. */
  private scanOf(code: string): readonly [number, number] | null {
    const changed = this.shared.scanChanges.get(code);
    if (changed) return changed[1] < 0 ? null : [changed[1], changed[2]];
    const i = findScanKey(this.shared.index, code);
    return i < 0 ? null : [this.shared.index.scanAt[i], this.shared.index.scanVariant[i]];
  }

  private scanHit(code: string): ScanHit | undefined {
    const hit = this.scanOf(code);
    if (!hit) return undefined;
    const product = this.at(hit[0]);
    if (!product) return undefined;
    const vid = hit[1];
    if (vid < 0) return { product, variant: null };
    const variant = (product.variants ?? []).find((v) => v.id === vid);
    return variant ? { product, variant } : undefined;
  }

  private rowsOf(key: number): Map<number, ProductRow> | undefined {
    let rows = this.parsed.get(key);
    if (rows) return rows;
    const text = this.texts.get(key) ?? this.cached?.get(key);
    if (text === undefined) return undefined;
    rows = new Map((JSON.parse(text) as ProductRow[]).map((r) => [r[P.id], r]));
    this.parsed.set(key, rows);
    return rows;
  }

  /**
   * Parses chunks not parsed yet for up to `ms` milliseconds (each is ~1-3 ms), so a search list or
   * a scan right after the start does not wait for one. Returns whether some are left.
   */
  warmStep(ms: number): boolean {
    const t0 = performance.now();
    for (const keys of [this.texts.keys(), this.cached?.keys() ?? []]) {
      for (const key of keys) {
        if (this.parsed.has(key)) continue;
        if (performance.now() - t0 >= ms) return true;
        this.rowsOf(key);
      }
    }
    return false;
  }

  // ---- the till's indexes over the columns ------------------------------------------------------

  /** Positions of the products visible at this till: no store list or this store in it, no terminal list or this terminal in it. */
  visibleAt(storeId: number | null, terminalId: number | null): Int32Array {
    const { ids, stores, terminals } = this.shared.index;
    const out = new Int32Array(ids.length);
    let n = 0;
    for (let i = 0; i < ids.length; i++) {
      if (storeId !== null && !listedOrEmpty(stores, i, storeId)) continue;
      if (terminalId !== null && !listedOrEmpty(terminals, i, terminalId)) continue;
      out[n++] = i;
    }
    return out.slice(0, n);
  }

  /** The positions (of `positions`, same order) of products in this category: the till's product grid tab (no product decoded). */
  inCategory(positions: Int32Array, categoryId: number): Int32Array {
    const { categories } = this.shared.index;
    const out = new Int32Array(positions.length);
    let n = 0;
    for (let k = 0; k < positions.length; k++) {
      const i = positions[k];
      for (let j = categories.start[i]; j < categories.start[i + 1]; j++) {
        if (categories.ids[j] === categoryId) {
          out[n++] = i;
          break;
        }
      }
    }
    return out.slice(0, n);
  }

  /** Brand, category and department chips with the number of these products in each (as buildFacets, same order). */
  facets(positions: ArrayLike<number>): Facets {
    const { brands, categories, departments } = this.shared.index;
    const dict = this.shared.dict;
    const b = new Tally(dict.brands);
    const c = new Tally(dict.categories);
    const d = new Tally(dict.departments);
    for (let k = 0; k < positions.length; k++) {
      const i = positions[k];
      for (let j = brands.start[i]; j < brands.start[i + 1]; j++) b.add(brands.ids[j]);
      for (let j = categories.start[i]; j < categories.start[i + 1]; j++) c.add(categories.ids[j]);
      if (departments[i] >= 0) d.add(departments[i]);
    }
    return { brands: b.facets(), categories: c.facets(), departments: d.facets() };
  }
}

/** Counts per dictionary id (the index lists only ids its dictionary holds): a typed array indexed by id, a Map for huge ids. */
class Tally {
  private readonly dense: Int32Array | null;
  private readonly sparse = new Map<number, number>();
  private readonly seen: number[] = [];
  private readonly names = new Map<number, string>();
  constructor(entries: ReadonlyArray<readonly [number, string, ...unknown[]]>) {
    let max = 0;
    for (const e of entries) {
      max = Math.max(max, e[0]);
      this.names.set(e[0], e[1]);
    }
    this.dense = max < 1 << 22 ? new Int32Array(max + 1) : null;
  }
  add(id: number) {
    const before = this.dense ? this.dense[id]++ : (this.sparse.get(id) ?? 0);
    if (!this.dense) this.sparse.set(id, before + 1);
    if (before === 0) this.seen.push(id);
  }
  /** First seen first, then by name (a stable sort): the order buildFacets gives. */
  facets(): Facet[] {
    const count = (id: number) => (this.dense ? this.dense[id] : this.sparse.get(id)!);
    return this.seen.map((id) => ({ id, name: this.names.get(id) ?? '', count: count(id) })).sort((x, y) => x.name.localeCompare(y.name));
  }
}

function share(index: TableIndex, dict: SyncDictionaries): Shared {
  return { index, dict, ctx: decodeContext(dict), scanChanges: new Map() };
}

/** Scan keys kept aside before they are written into the scan table (one copy of its ~35 MB at 1,000,000 products per this many). */
export const SCAN_CHANGES_LIMIT = 4096;

/**
 * The columns after a patch (index-patch.ts). Its scan keys are kept aside, looked up first, and
 * written into a new scan table only once SCAN_CHANGES_LIMIT of them gathered: copying the table
 * for every renamed product made the main thread allocate ~35 MB each time, and the collector ran
 * for ~0.3-1 s after most of them.
 */
function patched(s: Shared, patch: IndexPatch): Shared {
  let index = patchColumns(s.index, patch);
  let scanChanges = s.scanChanges;
  if (patch.keys.length) {
    const gathered = new Map(scanChanges);
    for (const owner of patch.keys) gathered.set(owner[0], owner);
    scanChanges = gathered;
    if (gathered.size > SCAN_CHANGES_LIMIT) {
      index = { ...index, ...setScanKeys(index, [...gathered.values()]) };
      scanChanges = new Map();
    }
  }
  return { ...s, index, scanChanges };
}
